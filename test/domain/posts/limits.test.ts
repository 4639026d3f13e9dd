// The org limit posts_per_month (interface.md Limits): live posts per UTC calendar month; test-mode posts are
// never counted. Reaching it is 403 limit_reached with param posts_per_month.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { newId } from "../../../src/lib/ids.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { schemaErrors } from "../../helpers/schemas.ts";
import { counts, createPost, START, type World, world } from "./helpers.ts";

describeEachDialect("posts_per_month", (dialect) => {
  let w: World;
  let live: string; // a live Threads channel: live mode reaches only real networks
  beforeAll(async () => {
    w = await world(dialect);
    // A live Threads channel as a sign-in leaves it (the limit is about posts, not about connecting): the worker
    // never publishes in this test, so no network is involved.
    live = newId("chan");
    const now = Date.now();
    await w.t.app.db
      .insertInto("channels")
      .values({
        id: live,
        org_id: w.a.orgId,
        brand_id: w.a.brandId,
        livemode: 1,
        provider: "threads",
        emulates: null,
        display_name: "Threads",
        handle: "@limits",
        profile_url: null,
        settings: "{}",
        secrets: null,
        status: "active",
        status_note: null,
        checked_at: null,
        check_error: null,
        rate_limited_until: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await w.t.app.db
      .updateTable("orgs")
      .set({ limit_posts_per_month: 1 })
      .where("id", "=", w.a.orgId)
      .execute();
  });
  afterAll(() => w.t.close());

  const livePost = () =>
    createPost(w.t, w.a.liveKey, {
      brand: w.a.brandId,
      content: { body: "Live words." },
      publish_at: "next_slot",
    });
  const testPost = () =>
    createPost(w.t, w.a.testKey, { brand: w.a.brandId, content: { body: "Test words." } });

  test("the second live post of the month is 403 limit_reached; test posts never count", async () => {
    for (let i = 0; i < 3; i++) expect((await testPost()).status).toBe(201);
    const first = await livePost();
    expect(first.status).toBe(201);
    expect(schemaErrors("Post", first.body)).toBe("");
    expect(first.body).toMatchObject({ livemode: true, status: "scheduled", slot: true });
    expect(
      first.body.targets.map((x: { channel: string; provider: string; livemode: boolean }) => [
        x.channel,
        x.provider,
        x.livemode,
      ]),
    ).toEqual([[live, "threads", true]]);

    const before = await counts(w.t, w.a.orgId);
    const second = await livePost();
    expect(second.status).toBe(403);
    expect(second.body).toMatchObject({
      code: "limit_reached",
      param: "posts_per_month",
      details: { limit: 1, count: 1 },
    });
    expect(await counts(w.t, w.a.orgId)).toEqual(before); // nothing written, no slot taken
    expect((await testPost()).status).toBe(201);
  });

  test("a new UTC month starts a new count; a canceled post still counted in its month", async () => {
    const jan = await w.t.app.db
      .selectFrom("posts")
      .select("id")
      .where("livemode", "=", 1)
      .where("org_id", "=", w.a.orgId)
      .execute();
    expect(jan).toHaveLength(1);
    await w.t.request("POST", `/v1/posts/${jan[0]!.id}/cancel`, { key: w.a.liveKey });
    expect((await livePost()).status).toBe(403);
    w.clock.set("2026-02-01T00:00:00Z");
    const feb = await livePost();
    expect(feb.status).toBe(201);
    expect((await livePost()).body.code).toBe("limit_reached");
    // Raising the limit lets more through; null is unlimited.
    await w.t.app.db
      .updateTable("orgs")
      .set({ limit_posts_per_month: null })
      .where("id", "=", w.a.orgId)
      .execute();
    expect((await livePost()).status).toBe(201);
    w.clock.set(START);
  });
});
