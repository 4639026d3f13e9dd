// GET /v1/events and /v1/events/{id}: newest first, a type filter, 30 days, scoped by org and mode.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { FakeClock } from "../../src/lib/clock.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { key, type Tenant, tenant } from "../helpers/factories.ts";
import { schemaErrors } from "../helpers/schema.ts";
import { testEvent } from "../helpers/webhooks.ts";

describeEachDialect("events", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  const clock = new FakeClock(Date.parse("2026-03-01T10:00:00Z"));
  beforeAll(async () => {
    t = await testApp(dialect, { clock });
    a = await tenant(t.app);
  });
  afterAll(() => t.close());

  test("list: newest first, filtered by type, last 30 days only", async () => {
    const old = await testEvent(t.app, a, { type: "post.created" });
    clock.advance(31 * 86400_000);
    const e1 = await testEvent(t.app, a, { type: "post.created" });
    clock.advance(1000);
    const e2 = await testEvent(t.app, a, { type: "post.published", object: { id: "post_1" } });
    clock.advance(1000);
    const e3 = await testEvent(t.app, a, { type: "post.created" });
    await testEvent(t.app, a, { type: "post.created", livemode: true });

    const all = await t.request("GET", "/v1/events", { key: a.testKey });
    expect(all.status).toBe(200);
    expect(schemaErrors("EventList", all.body)).toBeNull();
    expect(all.body.url).toBe("/v1/events");
    expect(all.body.data.map((e: { id: string }) => e.id)).toEqual([e3.id, e2.id, e1.id]);
    expect(all.body.data.map((e: { id: string }) => e.id)).not.toContain(old.id);
    expect(all.body.data[1]).toEqual({
      id: e2.id,
      object: "event",
      type: "post.published",
      livemode: false,
      request_id: "req_test",
      created_at: new Date(e2.created_at).toISOString(),
      data: { object: { id: "post_1" } },
    });
    const created = await t.request("GET", "/v1/events?type=post.created&limit=1", { key: a.testKey });
    expect(created.body.data.map((e: { id: string }) => e.id)).toEqual([e3.id]);
    expect(created.body.has_more).toBe(true);
    const next = await t.request("GET", `/v1/events?type=post.created&starting_after=${e3.id}`, {
      key: a.testKey,
    });
    expect(next.body.data.map((e: { id: string }) => e.id)).toEqual([e1.id]);
    const bad = await t.request("GET", "/v1/events?type=post.exploded", { key: a.testKey });
    expect([bad.status, bad.body.code, bad.body.param]).toEqual([400, "parameter_invalid", "type"]);
    const live = await t.request("GET", "/v1/events", { key: a.liveKey });
    expect(live.body.data.every((e: { livemode: boolean }) => e.livemode)).toBe(true);
    expect(live.body.data).toHaveLength(1);
  });

  test("get one; another org's, the other mode's and a malformed ID are missing", async () => {
    const b = await tenant(t.app);
    const e = await testEvent(t.app, a);
    const one = await t.request("GET", `/v1/events/${e.id}`, { key: a.testKey });
    expect(schemaErrors("Event", one.body)).toBeNull();
    expect(one.body.id).toBe(e.id);
    for (const [k, id] of [
      [b.testKey, e.id],
      [a.liveKey, e.id],
      [a.testKey, "evt_nope"],
    ] as const) {
      const r = await t.request("GET", `/v1/events/${id}`, { key: k });
      expect([r.status, r.body.code]).toEqual([404, "resource_missing"]);
    }
  });

  test("brand-limited keys cannot read events", async () => {
    const limited = await key(t.app, a.orgId, { name: "brand only", brand: a.brandId });
    const r = await t.request("GET", "/v1/events", { key: limited });
    expect([r.status, r.body.code]).toEqual([403, "forbidden"]);
    expect(schemaErrors("Event", { id: 1 })).not.toBeNull();
  });
});
