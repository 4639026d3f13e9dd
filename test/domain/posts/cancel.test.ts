// POST /v1/posts/:id/cancel (reference §6): every target not yet published or publishing is canceled, the post's
// slot is freed for others, post.canceled is written; with nothing left to cancel it is 409 post_not_cancelable.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { describeEachDialect } from "../../helpers/db.ts";
import { schemaErrors } from "../../helpers/schemas.ts";
import {
  at,
  auditRows,
  events,
  eventTypes,
  getPost,
  MIN,
  mustPost,
  START,
  setBrand,
  slotsOf,
  type World,
  world,
} from "./helpers.ts";

const now = at(START);

describeEachDialect("cancel", (dialect) => {
  let w: World;
  let second: string; // a second sandbox channel of the brand, so a post can have two targets
  beforeAll(async () => {
    w = await world(dialect);
    await setBrand(w.t, w.a.testKey, w.a.brandId, {
      timezone: "UTC",
      slots: [{ weekday: "monday", time: "12:00" }],
    });
    const c = await w.t.request("POST", "/v1/channels", {
      key: w.a.testKey,
      body: { brand: w.a.brandId, provider: "sandbox", emulates: "mastodon" },
    });
    second = c.body.id;
  });
  afterAll(() => w.t.close());

  const make = (body: Record<string, unknown> = {}) =>
    mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      channels: [w.channel, second],
      content: { body: "Cancel me." },
      ...body,
    });
  const cancel = (id: string) => w.t.request("POST", `/v1/posts/${id}/cancel`, { key: w.a.testKey });
  const targetStatus = async (postId: string, status: string[]) => {
    const rows = await w.t.app.db
      .selectFrom("post_targets")
      .select("id")
      .where("post_id", "=", postId)
      .orderBy("id")
      .execute();
    for (const [i, r] of rows.entries())
      await w.t.app.db
        .updateTable("post_targets")
        .set({ status: status[i]! })
        .where("id", "=", r.id)
        .execute();
  };

  test("cancels queued targets, frees the slot for another post, writes post.canceled", async () => {
    const p = await make({ publish_at: "next_slot" });
    expect([p.publish_at, p.slot]).toEqual(["2026-01-05T12:00:00.000Z", true]);
    w.clock.advance(5 * MIN);
    const r = await cancel(p.id);
    expect(r.status).toBe(200);
    expect(schemaErrors("Post", r.body)).toBe("");
    expect(r.body.status).toBe("canceled");
    expect(r.body.updated_at).toBe(new Date(now + 5 * MIN).toISOString());
    expect(
      r.body.targets.map((x: { status: string; next_attempt_at: null }) => [x.status, x.next_attempt_at]),
    ).toEqual([
      ["canceled", null],
      ["canceled", null],
    ]);
    expect(await slotsOf(w.t, p.id)).toEqual([]);
    const evs = await events(w.t, w.a.orgId, p.id);
    expect(evs.map((e) => e.type)).toEqual(["post.created", "post.canceled"]);
    expect(evs[1]!.data.object).toEqual(r.body);
    expect((await auditRows(w.t, w.a.orgId, "post.cancel")).map((x) => x.target)).toContain(p.id);
    // Another post takes the freed slot.
    const q = await make({ publish_at: "next_slot" });
    expect(q.publish_at).toBe("2026-01-05T12:00:00.000Z");
    await cancel(q.id);
    w.clock.set(now);
  });

  test("cancel twice is 409 post_not_cancelable", async () => {
    const p = await make();
    expect((await cancel(p.id)).status).toBe(200);
    const again = await cancel(p.id);
    expect([again.status, again.body.code]).toEqual([409, "post_not_cancelable"]);
    expect(await eventTypes(w.t, w.a.orgId, p.id)).toEqual(["post.created", "post.canceled"]);
  });

  test("a post whose targets are all published, failed or publishing is 409", async () => {
    for (const finished of [
      ["published", "published"],
      ["failed", "published"],
      ["publishing", "failed"],
    ]) {
      const p = await make();
      await targetStatus(p.id, finished);
      const r = await cancel(p.id);
      expect([r.status, r.body.code]).toEqual([409, "post_not_cancelable"]);
      expect(
        (await getPost(w.t, w.a.testKey, p.id)).targets.map((x: { status: string }) => x.status),
      ).toEqual(finished);
    }
  });

  test("only what is left is canceled; the post's status is derived from all its targets", async () => {
    const p = await make();
    await targetStatus(p.id, ["published", "queued"]);
    const r = await cancel(p.id);
    expect(r.status).toBe(200);
    expect(r.body.targets.map((x: { status: string }) => x.status)).toEqual(["published", "canceled"]);
    expect(r.body.status).toBe("partially_published");
    expect(await eventTypes(w.t, w.a.orgId, p.id)).toEqual([
      "post.created",
      "post.partially_published",
      "post.canceled",
    ]);

    const inFlight = await make();
    await targetStatus(inFlight.id, ["publishing", "needs_attention"]);
    const f = await cancel(inFlight.id);
    expect(f.body.targets.map((x: { status: string }) => x.status)).toEqual(["publishing", "canceled"]);
    expect(f.body.status).toBe("publishing");
  });

  test("a pending post's held targets are canceled", async () => {
    await setBrand(w.t, w.a.testKey, w.a.brandId, { approval_policy: "required_for_all" });
    const p = await make({ publish_at: "next_slot" });
    await setBrand(w.t, w.a.testKey, w.a.brandId, { approval_policy: "none" });
    expect(p.status).toBe("pending_approval");
    const r = await cancel(p.id);
    expect([r.status, r.body.status]).toEqual([200, "canceled"]);
    expect(r.body.targets.map((x: { status: string }) => x.status)).toEqual(["canceled", "canceled"]);
    const approve = await w.t.request("POST", `/v1/posts/${p.id}/approve`, { key: w.a.liveKey });
    expect(approve.status).toBe(404); // another mode's key does not see it
  });
});
