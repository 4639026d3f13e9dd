// The publish worker's events reach exactly the webhook endpoints that subscribe to them, of their own org and
// mode. On Postgres the worker's outcomes statement reads the endpoints on the side and the outbox uses what it
// read (src/domain/webhooks/known-endpoints.ts), so this checks that path against the events actually written.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { seedQueue } from "../../../bench/seed-queue.ts";
import { type App, createApp } from "../../../src/app/context.ts";
import { silentLogger } from "../../../src/app/log.ts";
import { openDatabase } from "../../../src/db/index.ts";
import { subscribes } from "../../../src/domain/webhooks/outbox.ts";
import type { Adapter } from "../../../src/platforms/adapter.ts";
import { startPublishWorker } from "../../../src/queue/publish/worker.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { ADMIN, INTEGRATION, key } from "../../helpers/factories.ts";
import { runUntilDone, targetsLeft } from "../../helpers/queue.ts";

const instant: Adapter = {
  provider: "sandbox",
  idempotent: false,
  publish: async () => ({ kind: "published", permalink: null }),
};

describeEachDialect("webhook deliveries of the publish worker's events", (dialect) => {
  let t: TestApp;
  let workers: App[] = [];
  beforeAll(async () => {
    t = await testApp(dialect);
    // Postgres: two workers with their own connections, as two processes; SQLite: one App (see
    // concurrent-finish.test.ts).
    workers =
      dialect === "postgres"
        ? [
            t.app,
            createApp(t.app.config, { database: openDatabase(t.dbUrl, { poolSize: 2 }), log: silentLogger }),
          ]
        : [t.app];
  });
  afterAll(async () => {
    for (const w of workers) if (w !== t.app) await w.close();
    await t.close();
  });

  async function endpoint(apiKey: string, url: string, events: string[]): Promise<string> {
    const r = await t.request("POST", "/v1/webhook_endpoints", {
      key: apiKey,
      body: { url, enabled_events: events },
    });
    expect(r.status).toBe(201);
    return r.body.id;
  }

  test("each endpoint gets one delivery per event it subscribes to, of its org and mode only", async () => {
    // Two orgs with test-mode posts of three targets each.
    const a = await seedQueue(t.app, 12, 12, Date.now() - 1000, 3);
    const b = await seedQueue(t.app, 6, 6, Date.now() - 1000, 3);
    const scopes = [...INTEGRATION, ...ADMIN];
    const aTest = await key(t.app, a.orgId, { name: "hooks", scopes });
    const aLive = await key(t.app, a.orgId, { name: "hooks live", scopes }, true);
    const bTest = await key(t.app, b.orgId, { name: "hooks", scopes });
    const since = Date.now();
    const ids = {
      aAll: await endpoint(aTest, "http://example.com/all", ["*"]),
      aPosts: await endpoint(aTest, "http://example.com/posts", ["post.published"]),
      aLive: await endpoint(aLive, "https://example.com/live", ["*"]),
      bTargets: await endpoint(bTest, "http://example.com/targets", ["post_target.published"]),
    };
    // A disabled endpoint gets nothing either.
    const aOff = await endpoint(aTest, "http://example.com/off", ["*"]);
    expect(
      (await t.request("POST", `/v1/webhook_endpoints/${aOff}`, { key: aTest, body: { disabled: true } }))
        .status,
    ).toBe(200);

    // Two in flight per worker: a step records a few outcomes of several posts, of both orgs.
    const running = workers.map((w) =>
      startPublishWorker(w, { adapterFor: () => instant, pollMs: 5, maxInFlight: 2 }),
    );
    await runUntilDone(t.app, running, 30_000);
    expect(await targetsLeft(t.app)).toEqual([]);

    const events = await t.app.db
      .selectFrom("events")
      .select(["id", "org_id", "livemode", "type"])
      .where("org_id", "in", [a.orgId, b.orgId])
      .where("created_at", ">=", since)
      .execute();
    const deliveries = await t.app.db
      .selectFrom("webhook_deliveries")
      .select(["endpoint_id", "event_id", "event_type", "org_id"])
      .where("org_id", "in", [a.orgId, b.orgId])
      .execute();
    const got = (endpointId: string) =>
      deliveries
        .filter((d) => d.endpoint_id === endpointId)
        .map((d) => d.event_id)
        .sort();
    const expected = (orgId: string, livemode: number, enabled: string[]) =>
      events
        .filter(
          (e) =>
            e.org_id === orgId &&
            Number(e.livemode) === livemode &&
            subscribes(JSON.stringify(enabled), e.type),
        )
        .map((e) => e.id)
        .sort();

    expect(got(ids.aAll)).toEqual(expected(a.orgId, 0, ["*"]));
    expect(got(ids.aPosts)).toEqual(expected(a.orgId, 0, ["post.published"]));
    expect(got(ids.bTargets)).toEqual(expected(b.orgId, 0, ["post_target.published"]));
    expect(got(ids.aLive)).toEqual([]);
    expect(got(aOff)).toEqual([]);
    // The figures behind those lists: 12 and 6 targets published, 4 posts of org A.
    expect(got(ids.aPosts).length).toBe(4);
    expect(got(ids.bTargets).length).toBe(6);
    expect(
      deliveries.filter((d) => d.endpoint_id === ids.aAll && d.event_type === "post_target.published").length,
    ).toBe(12);
    // One delivery per endpoint and event.
    expect(new Set(deliveries.map((d) => `${d.endpoint_id}|${d.event_id}`)).size).toBe(deliveries.length);
  }, 60_000);
});
