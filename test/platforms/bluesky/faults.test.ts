// Bluesky's failures, made by a fault-injecting HTTP proxy in front of a real local PDS: a connection reset after
// the PDS took a post (uncertain, settled at once by looking the record up: published, never twice), a 429 with
// `ratelimit-reset` (rate_limited: the channel is held until then), and a 500 before the PDS saw anything
// (transient: retried later, nothing posted). Both databases.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { FakeClock } from "../../../src/lib/clock.ts";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import { startPublishWorker } from "../../../src/queue/publish/worker.ts";
import { reclaimExpired } from "../../../src/queue/tasks/publish-reclaim.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { type Pds, startPds } from "../../helpers/bluesky/pds.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

type Fault = "reset_after_send" | "rate_limited" | "server_error" | "hold_after_send";
let pds: Pds;
let proxy: http.Server;
let proxyUrl: string;
/** What the next com.atproto.repo.createRecord meets (counted from now: `faultAt` creates later). */
let nextFault: Fault | null = null;
let faultAt = 0;
/** Called when a held create has reached the PDS. */
let onHeld: (() => void) | null = null;
let creates = 0;
const RESET_AT = Math.floor(Date.now() / 1000) + 120;

beforeAll(async () => {
  pds = await startPds();
  proxy = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const isCreate = req.url!.includes("com.atproto.repo.createRecord");
    let fault: Fault | null = null;
    if (isCreate) {
      creates++;
      if (nextFault && faultAt-- <= 0) {
        fault = nextFault;
        nextFault = null;
      }
    }
    if (fault === "server_error") {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "InternalServerError", message: "Internal Server Error" }));
      return;
    }
    if (fault === "rate_limited") {
      res.writeHead(429, {
        "content-type": "application/json",
        "ratelimit-limit": "5000",
        "ratelimit-remaining": "0",
        "ratelimit-reset": String(RESET_AT),
        "ratelimit-policy": "5000;w=3600",
      });
      res.end(JSON.stringify({ error: "RateLimitExceeded", message: "Rate Limit Exceeded" }));
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === "string" && !/^(host|content-length|connection)$/i.test(k)) headers[k] = v;
    const body = Buffer.concat(chunks);
    const up = await fetch(`${pds.url}${req.url}`, {
      method: req.method,
      headers,
      body: body.length ? body : undefined,
    });
    const text = await up.text();
    // The PDS did the write; its answer never arrives.
    if (fault === "reset_after_send") {
      req.socket.destroy();
      return;
    }
    // The PDS did the write; the answer is held until the caller is gone.
    if (fault === "hold_after_send") {
      onHeld?.();
      return;
    }
    // Sessions name the PDS in the DID document: point them at the proxy so every call passes through it.
    res.writeHead(up.status, { "content-type": up.headers.get("content-type") ?? "application/json" });
    res.end(text.replaceAll(pds.url, proxyUrl));
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  proxy.close();
  await pds.stop();
});

let n = 0;
describeEachDialect("Bluesky failures through a proxy", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  const clock = new FakeClock(Date.now());
  afterEach(async () => {
    nextFault = null;
    faultAt = 0;
    await t.close();
  });
  async function setUp() {
    t = await testApp(dialect, { clock, env: { SVC_ALLOW_PRIVATE_NETWORKS: "true" } });
    a = await tenant(t.app);
    const acct = await pds.createAccount(`f${Date.now().toString(36)}${(n++).toString(36)}`);
    const appPassword = await pds.appPassword(acct, "svc");
    const r = await t.request("POST", "/v1/channels", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        provider: "bluesky",
        fields: { identifier: acct.handle, app_password: appPassword, service: proxyUrl },
      },
    });
    expect(r.status).toBe(201);
    return { acct, channel: r.body.id as string };
  }
  async function publishOnce(channel: string, body: string) {
    const p = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: { brand: a.brandId, channels: [channel], content: { body } },
    });
    const w = startPublishWorker(t.app, { adapterFor, pollMs: 20 });
    for (let i = 0; i < 200; i++) {
      await Bun.sleep(20);
      await w.idle();
      const left = await t.app.db
        .selectFrom("post_targets")
        .select("id")
        .where("post_id", "=", p.body.id)
        .where("status", "in", ["publishing"])
        .execute();
      const attempts = await t.app.db
        .selectFrom("post_attempts")
        .select("id")
        .where("target_id", "=", p.body.targets[0].id)
        .execute();
      if (left.length === 0 && attempts.length > 0) break;
    }
    await w.stop();
    const target = (await t.request("GET", `/v1/posts/${p.body.id}`, { key: a.liveKey })).body.targets[0];
    const attempts = (await t.request("GET", `/v1/post_targets/${target.id}/attempts`, { key: a.liveKey }))
      .body.data;
    return { target, attempts };
  }

  test("a reset after the PDS took the post is uncertain, settled by finding the record: published once", async () => {
    const { acct, channel } = await setUp();
    nextFault = "reset_after_send";
    const before = creates;
    const { target, attempts } = await publishOnce(channel, "Answer lost on the way back");
    expect(creates - before).toBe(1);
    expect(target.status).toBe("published");
    expect(target.permalink).toContain(`https://bsky.app/profile/${acct.handle}/post/`);
    expect(attempts.length).toBe(1);
    expect(attempts[0].outcome).toBe("published");
    expect(attempts[0].settlement.decision).toBe("found");
    expect(attempts[0].settlement.uncertain).toContain("connection reset");
    expect((await pds.records(acct.did)).length).toBe(1);
    // Engagement starts with the settled publication.
    const e = await t.app.db
      .selectFrom("target_engagement")
      .select("state")
      .where("target_id", "=", target.id)
      .executeTakeFirstOrThrow();
    expect(e.state).toBe("collecting");
  });

  test("429 with ratelimit-reset holds the channel until the reset and queues the target", async () => {
    const { acct, channel } = await setUp();
    nextFault = "rate_limited";
    const { target, attempts } = await publishOnce(channel, "Too fast");
    expect(attempts[0].outcome).toBe("rate_limited");
    expect(target.status).toBe("queued");
    expect(target.error.code).toBe("rate_limited");
    const row = await t.app.db
      .selectFrom("channels")
      .select("rate_limited_until")
      .where("id", "=", channel)
      .executeTakeFirstOrThrow();
    // The reset is 120 s after the test began, measured on the real clock; the fake clock started then too.
    expect(Number(row.rate_limited_until)).toBeGreaterThan(clock.now() + 60_000);
    expect(Number(row.rate_limited_until)).toBeLessThanOrEqual(clock.now() + 121_000);
    expect((await pds.records(acct.did)).length).toBe(0);
  });

  test("a 500 is transient: retried later, nothing posted", async () => {
    const { acct, channel } = await setUp();
    nextFault = "server_error";
    const { target, attempts } = await publishOnce(channel, "Server trouble");
    expect(attempts[0].outcome).toBe("transient");
    expect(target.status).toBe("queued");
    expect(target.error.code).toBe("network");
    expect((await pds.records(acct.did)).length).toBe(0);
  });

  test("a worker process killed while the PDS holds the thread's second part: reclaimed, finished, never twice", async () => {
    const { acct, channel } = await setUp();
    nextFault = "hold_after_send";
    faultAt = 1;
    const held = new Promise<void>((r) => {
      onHeld = r;
    });
    const p = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        channels: [channel],
        content: { body: "One\n{{thread}}\nTwo\n{{thread}}\nThree" },
      },
    });
    const worker = Bun.spawn(["bun", "test/e2e/bluesky-worker.ts"], {
      env: {
        ...process.env,
        SVC_DATABASE_URL: t.dbUrl,
        SVC_MASTER_KEYS: t.masterKeys,
        SVC_BASE_URL: "http://localhost:8080",
        SVC_ALLOW_PRIVATE_NETWORKS: "true",
        SVC_LOG_LEVEL: "error",
      },
      stdout: "pipe",
      stderr: "inherit",
    });
    await held;
    worker.kill("SIGKILL");
    await worker.exited;
    // The PDS has parts one and two; svc saved only part one.
    expect((await pds.records(acct.did)).length).toBe(2);
    const targetId = p.body.targets[0].id;
    const row = await t.app.db
      .selectFrom("post_targets")
      .select(["status", "remote_parts"])
      .where("id", "=", targetId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("publishing");
    expect(JSON.parse(row.remote_parts)).toHaveLength(1);

    clock.advance(4 * 60_000);
    expect(await reclaimExpired(t.app)).toBe(1);
    const w = startPublishWorker(t.app, { adapterFor, pollMs: 20 });
    for (let i = 0; i < 100; i++) {
      await Bun.sleep(20);
      await w.idle();
      const s = await t.app.db
        .selectFrom("post_targets")
        .select("status")
        .where("id", "=", targetId)
        .executeTakeFirstOrThrow();
      if (s.status === "published") break;
    }
    await w.stop();
    const target = (await t.request("GET", `/v1/posts/${p.body.id}`, { key: a.liveKey })).body.targets[0];
    expect(target.status).toBe("published");
    const records = await pds.records(acct.did);
    expect(records.map((r) => r.value.text).sort()).toEqual(["One", "Three", "Two"]);
  }, 30_000);
});
