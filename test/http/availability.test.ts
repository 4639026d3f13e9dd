// A lost database (Postgres only): a real TCP proxy stands between the App and Postgres. With the proxy stopped,
// /v1 answers 503 database_unavailable with Retry-After; with it back on the same port, requests succeed again
// without any restart.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import net from "node:net";
import { type TestApp, testApp } from "../helpers/app.ts";
import { dialects } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";

/** A TCP proxy to 127.0.0.1:5432 that can be stopped (dropping every connection) and started again. */
class TcpProxy {
  private server: net.Server | null = null;
  private sockets = new Set<net.Socket>();
  port = 0;

  async start(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(5432, "127.0.0.1");
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on("close", () => this.sockets.delete(s));
        s.on("error", () => {});
      }
      client.pipe(upstream).pipe(client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

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
