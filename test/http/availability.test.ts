// A lost database (Postgres only): a real TCP proxy stands between the App and Postgres. With the proxy stopped,
// /v1 answers 503 database_unavailable with Retry-After; with it back on the same port, requests succeed again
// without any restart.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { isUnavailable } from "../../src/db/index.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { dialects } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { TcpProxy } from "../helpers/tcp-proxy.ts";

const pgOnly = dialects.includes("postgres") ? describe : describe.skip;

pgOnly("database availability (postgres)", () => {
  const proxy = new TcpProxy();
  let direct: TestApp;
  let viaProxy: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    direct = await testApp("postgres");
    a = await tenant(direct.app);
    await proxy.start();
    const u = new URL(direct.dbUrl);
    u.host = `127.0.0.1:${proxy.port}`;
    viaProxy = await testApp("postgres", { url: u.toString(), env: { SVC_MASTER_KEYS: direct.masterKeys } });
  });
  afterAll(async () => {
    await proxy.stop();
    await viaProxy.close();
    await direct.close();
  });

  test("a stopped database answers 503 database_unavailable; it recovers by itself", async () => {
    const ok = await viaProxy.request("GET", "/v1/me", { key: a.testKey });
    expect([ok.status, ok.body.org.id]).toEqual([200, a.orgId]);

    await proxy.stop();
    for (let i = 0; i < 3; i++) {
      const down = await viaProxy.request("GET", "/v1/me", { key: a.testKey });
      expect([down.status, down.body.code]).toEqual([503, "database_unavailable"]);
      expect(down.headers.get("retry-after")).toBe("30");
      expect(down.headers.get("content-type")).toBe("application/problem+json");
      expect(down.body.request_id).toBe(down.headers.get("request-id"));
    }
    const brands = await viaProxy.request("POST", "/v1/brands", {
      key: a.testKey,
      body: { name: "Offline" },
    });
    expect([brands.status, brands.body.code]).toEqual([503, "database_unavailable"]);
    // Liveness does not depend on the database; readiness says what is wrong.
    expect((await viaProxy.request("GET", "/healthz")).status).toBe(200);

    await proxy.start(); // same port
    const back = await viaProxy.request("GET", "/v1/me", { key: a.testKey });
    expect([back.status, back.body.org.id]).toEqual([200, a.orgId]);
    const made = await viaProxy.request("POST", "/v1/brands", { key: a.testKey, body: { name: "Online" } });
    expect(made.status).toBe(201);
    // The write really reached the database.
    const seen = await direct.request("GET", `/v1/brands/${made.body.id}`, { key: a.testKey });
    expect(seen.body.name).toBe("Online");
  });

  test("Postgres stopped behind its Unix socket (ENOENT) is 503 on the API and the dashboard; it recovers by itself", async () => {
    // The socket file is gone while Postgres is stopped: connecting fails ENOENT, not ECONNREFUSED. This answered
    // 500 internal_error when the unavailable errors were a list of codes.
    const dir = mkdtempSync(join(tmpdir(), "svc-pg-socket-"));
    const u = new URL(direct.dbUrl);
    const url = `postgres://${u.username}@localhost${u.pathname}?host=${encodeURIComponent(dir)}&port=5432`;
    const viaSocket = await testApp("postgres", { url, env: { SVC_MASTER_KEYS: direct.masterKeys } });
    let socket: net.Server | null = null;
    try {
      const down = await viaSocket.request("GET", "/v1/me", { key: a.testKey });
      expect([down.status, down.body.code, down.headers.get("retry-after")]).toEqual([
        503,
        "database_unavailable",
        "30",
      ]);
      // The sign-in page needs no database (a visitor who has not signed in has no stored session).
      expect((await viaSocket.request("GET", "/signin", { headers: { accept: "text/html" } })).status).toBe(
        200,
      );
      // A session cookie is read from the database before any page: that is a 503 page, not a 500.
      const signedIn = await viaSocket.request("GET", "/home", {
        headers: {
          accept: "text/html",
          cookie: `svc_session=${"s".repeat(40)}; __Host-svc_session=${"s".repeat(40)}`,
        },
      });
      expect([signedIn.status, signedIn.headers.get("retry-after")]).toEqual([503, "30"]);
      expect(signedIn.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(signedIn.body).toContain(
        '<a href="/docs/errors#database_unavailable"><code>database_unavailable</code></a>',
      );

      // Postgres is back: its socket appears (here, one that forwards to the server), and the same App serves.
      socket = net.createServer((client) => {
        const upstream = net.connect(5432, "127.0.0.1");
        client.on("error", () => {});
        upstream.on("error", () => {});
        client.pipe(upstream).pipe(client);
      });
      await new Promise<void>((resolve) => socket!.listen(join(dir, ".s.PGSQL.5432"), resolve));
      const back = await viaSocket.request("GET", "/v1/me", { key: a.testKey });
      expect([back.status, back.body.org?.id]).toEqual([200, a.orgId]);
      expect((await viaSocket.request("GET", "/signin", { headers: { accept: "text/html" } })).status).toBe(
        200,
      );
    } finally {
      await viaSocket.close();
      if (socket) await new Promise<void>((resolve) => socket!.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a database that does not exist is unavailable, not an unmigrated schema", async () => {
    const u = new URL(direct.dbUrl);
    u.pathname = `${u.pathname}_missing`;
    const gone = await testApp("postgres", {
      url: u.toString(),
      env: { SVC_MASTER_KEYS: direct.masterKeys },
    });
    try {
      const ready = await gone.request("GET", "/readyz");
      expect([ready.status, ready.body]).toEqual([503, { status: "database_unavailable" }]);
      const me = await gone.request("GET", "/v1/me", { key: a.testKey });
      expect([me.status, me.body.code]).toEqual([503, "database_unavailable"]);
      expect(me.headers.get("retry-after")).toBe("30");
    } finally {
      await gone.close();
    }
  });
});

/** What the pg driver really raises, for a database that cannot be reached and for one that answers. */
async function pgError(connectionString: string, sql = "SELECT 1"): Promise<unknown> {
  const pool = new pg.Pool({ connectionString, connectionTimeoutMillis: 3000 });
  try {
    await pool.query(sql);
    return null;
  } catch (e) {
    return e;
  } finally {
    await pool.end();
  }
}

pgOnly("what counts as the database being unavailable (postgres)", () => {
  test("every way of failing to connect, judged by its class, whatever its code", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-pg-none-"));
    try {
      const cases: [string, string][] = [
        ["a TCP port nothing listens on", "postgres://postgres@127.0.0.1:1/x"],
        [
          "a Unix socket that is not there",
          `postgres://postgres@localhost/x?host=${encodeURIComponent(dir)}`,
        ],
        ["a host that does not resolve", "postgres://postgres@svc-no-such-host.invalid:5432/x"],
      ];
      for (const [what, url] of cases) {
        const e = (await pgError(url)) as { code?: string; syscall?: string };
        expect([what, e === null]).toEqual([what, false]);
        expect([what, e.code, isUnavailable(e)]).toEqual([what, e.code, true]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a bad query, or a file that is not there, is not the database being down", async () => {
    const sqlError = await pgError(
      "postgres://postgres@127.0.0.1:5432/postgres",
      "SELECT * FROM svc_no_such_table",
    );
    expect((sqlError as { code: string }).code).toBe("42P01");
    expect(isUnavailable(sqlError)).toBe(false);
    let fileError: unknown;
    try {
      await Bun.file(join(tmpdir(), "svc-no-such-file")).text();
    } catch (e) {
      fileError = e;
    }
    expect((fileError as { code: string }).code).toBe("ENOENT");
    expect(isUnavailable(fileError)).toBe(false);
    // Wrapped by whoever caught it first, it is still found.
    const refused = await pgError("postgres://postgres@127.0.0.1:1/x");
    expect(isUnavailable(new Error("query failed", { cause: refused }))).toBe(true);
    expect(isUnavailable(new AggregateError([refused], "every address failed"))).toBe(true);
  });
});
