// At most once, proven with real processes: a worker killed with SIGKILL mid-batch, then reclaim — no target is
// received twice and none is lost; and two worker processes on one queue deliver every target exactly once.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Subprocess } from "bun";
import { createApp } from "../../../src/app/context.ts";
import { silentLogger } from "../../../src/app/log.ts";
import { openDatabase } from "../../../src/db/index.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { reclaimExpired } from "../../../src/queue/tasks/publish-reclaim.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

/** Receives what the adapters send: target → how many times. */
function receiver() {
  const received = new Map<string, number>();
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const { target } = (await req.json()) as { target: string };
      received.set(target, (received.get(target) ?? 0) + 1);
      return new Response("ok");
    },
  });
  return { received, url: `http://127.0.0.1:${server.port}/`, stop: () => server.stop(true) };
}

async function spawnWorker(t: TestApp, url: string, delayMs: number): Promise<Subprocess> {
  const proc = Bun.spawn(["bun", "test/e2e/counting-worker.ts"], {
    env: {
      ...process.env,
      SVC_DATABASE_URL: t.dbUrl,
      SVC_MASTER_KEYS: t.masterKeys,
      RECEIVER_URL: url,
      ADAPTER_DELAY_MS: String(delayMs),
      SVC_LOG_LEVEL: "error",
    },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = proc.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  if (!new TextDecoder().decode(value).includes("ready")) throw new Error("worker did not start");
  return proc;
}

/** Many channels, each with several targets: creates posts through the API, each with `perChannel` channels. */
async function queue(t: TestApp, a: Tenant, channels: number, posts: number): Promise<number> {
  const ids: string[] = [];
  for (let i = 0; i < channels; i++) {
    const r = await t.request("POST", "/v1/channels", {
      key: a.testKey,
      body: { brand: a.brandId, provider: "sandbox" },
    });
    ids.push(r.body.id);
  }
  for (let i = 0; i < posts; i++) {
    const r = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: { brand: a.brandId, content: { body: `Crash test ${i}` }, channels: ids },
    });
    expect(r.status).toBe(201);
  }
  return posts * channels;
}

async function statuses(t: TestApp) {
  const rows = await t.app.db.selectFrom("post_targets").select(["id", "status", "error_code"]).execute();
  return rows;
}

describeEachDialect("at most once across processes", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
  });
  afterAll(() => t.close());

  test("SIGKILL mid-batch, then reclaim: nothing received twice, nothing lost", async () => {
    const r = receiver();
    // Only the channels made here: turn off the bootstrap channel so every target goes through the counter.
    await t.app.db
      .updateTable("channels")
      .set({ status: "disabled" })
      .where("org_id", "=", a.orgId)
      .execute();
    const total = await queue(t, a, 8, 10);
    const w = await spawnWorker(t, r.url, 40);
    // Let it publish some, then kill it while a batch is in flight.
    while ([...r.received.values()].length < total / 3) await Bun.sleep(5);
    w.kill("SIGKILL");
    await w.exited;

    // Leases last 3 minutes: the reclaimer runs as if that much time had passed.
    const later = createApp(t.app.config, {
      database: openDatabase(t.dbUrl),
      log: silentLogger,
      clock: new FakeClock(Date.now() + 4 * 60_000),
    });
    const reclaimed = await reclaimExpired(later);
    await later.close();
    const lost = (await statuses(t)).filter((s) => s.status === "needs_attention");
    expect(lost.length).toBe(reclaimed);
    expect(lost.every((s) => s.error_code === "worker_lost")).toBe(true);

    // A new worker finishes the rest.
    const w2 = await spawnWorker(t, r.url, 1);
    for (let i = 0; i < 400; i++) {
      const left = (await statuses(t)).filter((s) => s.status === "queued" || s.status === "publishing");
      if (left.length === 0) break;
      await Bun.sleep(25);
    }
    w2.kill("SIGTERM");
    await w2.exited;
    r.stop();

    const final = await statuses(t);
    expect(final).toHaveLength(total + 0);
    for (const s of final) {
      const n = r.received.get(s.id) ?? 0;
      // Received at most once, ever.
      expect(n).toBeLessThanOrEqual(1);
      // Published means received; needs_attention (worker_lost) is the only other end, and may or may not have been received.
      if (s.status === "published") expect(n).toBe(1);
      else expect([s.status, s.error_code]).toEqual(["needs_attention", "worker_lost"]);
    }
    expect(final.filter((s) => s.status === "published").length).toBeGreaterThan(total / 3);
  });

  test("two worker processes on one queue: every target exactly once", async () => {
    const b = await tenant(t.app);
    await t.app.db
      .updateTable("channels")
      .set({ status: "disabled" })
      .where("org_id", "=", b.orgId)
      .execute();
    const r = receiver();
    const total = await queue(t, b, 12, 10);
    const [w1, w2] = [await spawnWorker(t, r.url, 5), await spawnWorker(t, r.url, 5)];
    for (let i = 0; i < 600; i++) {
      const left = await t.app.db
        .selectFrom("post_targets")
        .select("id")
        .where("org_id", "=", b.orgId)
        .where("status", "in", ["queued", "publishing"])
        .execute();
      if (left.length === 0) break;
      await Bun.sleep(25);
    }
    w1!.kill("SIGTERM");
    w2!.kill("SIGTERM");
    await Promise.all([w1!.exited, w2!.exited]);
    r.stop();
    const rows = await t.app.db
      .selectFrom("post_targets")
      .select(["id", "status"])
      .where("org_id", "=", b.orgId)
      .execute();
    expect(rows).toHaveLength(total);
    expect(rows.every((x) => x.status === "published")).toBe(true);
    expect(rows.every((x) => r.received.get(x.id) === 1)).toBe(true);
  });
});
