// Many workers finishing targets of the same posts at once: every post ends in the status derived from its
// targets, with exactly one final event. Deriving a post's status reads all its targets; two transactions that
// each finish one target of a post must not both read the other's target as still publishing (write skew on
// Postgres, where that left posts in `publishing` with no post.published event).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { seedQueue } from "../../../bench/seed-queue.ts";
import { type App, createApp } from "../../../src/app/context.ts";
import { silentLogger } from "../../../src/app/log.ts";
import { openDatabase } from "../../../src/db/index.ts";
import { checkPostConsistency } from "../../../src/domain/targets/consistency.ts";
import { RateLimiter } from "../../../src/http/ratelimit.ts";
import type { Adapter } from "../../../src/platforms/adapter.ts";
import { startPublishWorker } from "../../../src/queue/publish/worker.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { key } from "../../helpers/factories.ts";
import { runUntilDone, targetsLeft } from "../../helpers/queue.ts";

const WORKERS = 8;
const POSTS = 300;
const PER_POST = 3;

const FINAL = ["published", "partially_published", "failed", "canceled"];

// Answers after a random 0-2 ms, so the targets of one post finish on different workers in every order.
const jittery: Adapter = {
  provider: "sandbox",
  idempotent: false,
  publish: async () => {
    await Bun.sleep(Math.random() * 2);
    return { kind: "published", permalink: null };
  },
};

describeEachDialect("many workers finishing the targets of the same posts", (dialect) => {
  let t: TestApp;
  let workers: App[] = [];
  beforeAll(async () => {
    t = await testApp(dialect);
    // Postgres: each worker an App with its own connections, as separate processes have. SQLite: the workers
    // share one App (bun:sqlite waits for the file's write lock synchronously, so Apps of one process on one
    // file would block each other's event loop); their transactions still interleave with every await.
    workers = Array.from({ length: WORKERS }, () =>
      dialect === "postgres"
        ? createApp(t.app.config, { database: openDatabase(t.dbUrl, { poolSize: 2 }), log: silentLogger })
        : t.app,
    );
  });
  afterAll(async () => {
    for (const w of new Set(workers)) if (w !== t.app) await w.close();
    await t.close();
  });

  test("no post is left in publishing and each has exactly one post.published", async () => {
    const { orgId } = await seedQueue(t.app, POSTS * PER_POST, PER_POST * 4, Date.now() - 1000, PER_POST);
    // Few targets in flight per worker: a post's targets are spread over several workers.
    const running = workers.map((w) =>
      startPublishWorker(w, { adapterFor: () => jittery, pollMs: 5, maxInFlight: 2 }),
    );
    await runUntilDone(t.app, running, 60_000);
    expect(await targetsLeft(t.app)).toEqual([]);

    const statuses = await t.app.db
      .selectFrom("posts")
      .select(["status"])
      .where("org_id", "=", orgId)
      .execute();
    expect(statuses.length).toBe(POSTS);
    const check = await checkPostConsistency(t.app.db, orgId);
    expect({ stuck: check.stuck.length, missing: check.missingEvent.length }).toEqual({
      stuck: 0,
      missing: 0,
    });
    expect(check.duplicateEvent).toEqual([]);
    expect(statuses.filter((p) => p.status === "published").length).toBe(POSTS);
    expect(check.finalEvents).toBe(POSTS);
  }, 120_000);

  test("cancels and channel deletions racing the workers: no deadlock, no post out of step", async () => {
    const { orgId } = await seedQueue(t.app, POSTS * PER_POST, PER_POST * 4, Date.now() - 1000, PER_POST);
    const apiKey = await key(t.app, orgId, { name: "race" });
    // The requests come in one burst; the rate limiter is tested elsewhere.
    t.http.ctx.limiter = new RateLimiter(1e9, 1e9);
    const posts = await t.app.db.selectFrom("posts").select("id").where("org_id", "=", orgId).execute();
    const channels = await t.app.db.selectFrom("channels").select("id").where("org_id", "=", orgId).execute();
    const running = workers.map((w) =>
      startPublishWorker(w, { adapterFor: () => jittery, pollMs: 5, maxInFlight: 2 }),
    );
    // Every other post canceled, ten at a time, and two channels deleted, while the workers publish.
    const answers: number[] = [];
    const cancels = (async () => {
      const chosen = posts.filter((_, i) => i % 2 === 0);
      for (let i = 0; i < chosen.length; i += 10)
        for (const r of await Promise.all(
          chosen
            .slice(i, i + 10)
            .map((p) => t.request("POST", `/v1/posts/${p.id}/cancel`, { key: apiKey, body: {} })),
        ))
          answers.push(r.status);
    })();
    const deletes = Promise.all(
      channels
        .slice(0, 2)
        .map((c) => t.request("DELETE", `/v1/channels/${c.id}`, { key: apiKey }).then((r) => r.status)),
    );
    await cancels;
    expect(await deletes).toEqual([200, 200]);
    await runUntilDone(t.app, running, 60_000);
    expect(await targetsLeft(t.app)).toEqual([]);

    // 200, or 409 when the workers had taken every target already; never a deadlock's 500.
    expect([...new Set(answers)].filter((s) => s !== 200 && s !== 409)).toEqual([]);
    expect(answers.length).toBe(POSTS / 2);
    const statuses = await t.app.db
      .selectFrom("posts")
      .select("status")
      .where("org_id", "=", orgId)
      .execute();
    expect(statuses.filter((p) => !FINAL.includes(p.status))).toEqual([]);
    const check = await checkPostConsistency(t.app.db, orgId);
    expect({ stuck: check.stuck, missing: check.missingEvent, duplicate: check.duplicateEvent }).toEqual({
      stuck: [],
      missing: [],
      duplicate: [],
    });
  }, 120_000);
});
