// POST /v1/posts/:id/reschedule (reference §6): a new publish_at (and publish_by) moves the post and its
// targets; a time on a slot takes it unless another post holds it (409 slot_taken names the holder); swap_with
// trades times, deadlines and slot rows of two posts of one brand at once; a post that has started publishing
// (or is finished) cannot move.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { newId } from "../../../src/lib/ids.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { schemaErrors } from "../../helpers/schemas.ts";
import {
  at,
  auditRows,
  brandWithChannel,
  codes,
  events,
  getPost,
  HOUR,
  iso,
  MIN,
  mustPost,
  START,
  setBrand,
  setTargets,
  slotsOf,
  type World,
  world,
} from "./helpers.ts";

const now = at(START); // Monday 5 January 2026, 10:00 UTC
const MON = "2026-01-05T12:00:00.000Z";
const TUE = "2026-01-06T12:00:00.000Z";
const WED = "2026-01-07T12:00:00.000Z";

describeEachDialect("reschedule and swap", (dialect) => {
  let w: World;
  beforeAll(async () => {
    w = await world(dialect);
    await setBrand(w.t, w.a.testKey, w.a.brandId, {
      timezone: "UTC",
      slots: [
        { weekday: "monday", time: "12:00" },
        { weekday: "tuesday", time: "12:00" },
        { weekday: "wednesday", time: "12:00" },
      ],
    });
  });
  afterAll(() => w.t.close());

  const make = (body: Record<string, unknown> = {}) =>
    mustPost(w.t, w.a.testKey, { brand: w.a.brandId, content: { body: "Movable." }, ...body });
  const move = (id: string, body: Record<string, unknown>, k = w.a.testKey) =>
    w.t.request("POST", `/v1/posts/${id}/reschedule`, { key: k, body });
  const cancel = (id: string) => w.t.request("POST", `/v1/posts/${id}/cancel`, { key: w.a.testKey });

  test("a new publish_at moves the post and its targets' next attempt; the deadline follows", async () => {
    const p = await make({ publish_at: iso(now + 2 * HOUR + 7 * MIN) });
    const to = iso(now + 5 * HOUR + 7 * MIN);
    const r = await move(p.id, { publish_at: to });
    expect(r.status).toBe(200);
    expect(schemaErrors("Post", r.body)).toBe("");
    expect([r.body.status, r.body.publish_at, r.body.publish_by, r.body.slot]).toEqual([
      "scheduled",
      to,
      iso(at(to) + 24 * HOUR),
      false,
    ]);
    expect(r.body.targets[0]).toMatchObject({
      status: "queued",
      next_attempt_at: to,
      publish_by: iso(at(to) + 24 * HOUR),
    });
    expect(await getPost(w.t, w.a.testKey, p.id)).toEqual(r.body);
    // The event carries the moved post and the request's ID; the audit row the input.
    const evs = (await events(w.t, w.a.orgId, p.id)).filter((e) => e.type === "post.rescheduled");
    expect(evs).toHaveLength(1);
    expect(evs[0]!.data.object).toEqual(r.body);
    expect(evs[0]!.request_id).toBe(r.headers.get("request-id"));
    const audit = (await auditRows(w.t, w.a.orgId, "post.reschedule")).filter((x) => x.target === p.id);
    expect(audit.map((x) => x.detail)).toEqual([{ publish_at: to }]);

    // publish_by alone moves only the deadline; with publish_at both move.
    const by = iso(now + 10 * HOUR);
    const r2 = await move(p.id, { publish_by: by });
    expect([r2.body.publish_at, r2.body.publish_by, r2.body.targets[0].publish_by]).toEqual([to, by, by]);
    const to3 = iso(now + 3 * HOUR + 1 * MIN);
    const by3 = iso(now + 4 * HOUR);
    const r3 = await move(p.id, { publish_at: to3, publish_by: by3 });
    expect([r3.body.publish_at, r3.body.publish_by, r3.body.targets[0].next_attempt_at]).toEqual([
      to3,
      by3,
      to3,
    ]);
    // "now" is now.
    const r4 = await move(p.id, { publish_at: "now" });
    expect([r4.body.publish_at, r4.body.targets[0].next_attempt_at]).toEqual([START, START]);
    await cancel(p.id);
  });

  test("times are checked as on create: publish_at_invalid, publish_by_invalid", async () => {
    const p = await make({ publish_at: iso(now + HOUR + 3 * MIN) });
    const bad = await move(p.id, { publish_at: "whenever" });
    expect([bad.status, codes(bad)]).toEqual([422, ["publish_at_invalid publish_at"]]);
    const early = await move(p.id, { publish_at: iso(now + 3 * HOUR), publish_by: iso(now + 2 * HOUR) });
    expect(codes(early)).toEqual(["publish_by_invalid publish_by"]);
    const past = await move(p.id, { publish_by: iso(now - MIN) });
    expect(codes(past)).toEqual(["publish_by_invalid publish_by"]);
    expect((await getPost(w.t, w.a.testKey, p.id)).publish_at).toBe(iso(now + HOUR + 3 * MIN));
    await cancel(p.id);
  });

  test("moving onto a free slot instant takes it, onto a held one is 409 slot_taken naming the holder", async () => {
    const holder = await make({ publish_at: "next_slot" });
    expect(holder.publish_at).toBe(MON);
    const p = await make({ publish_at: "next_slot" });
    expect(p.publish_at).toBe(TUE);

    const taken = await move(p.id, { publish_at: MON });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      code: "slot_taken",
      param: "publish_at",
      details: { post: holder.id },
    });
    // Nothing moved: the refused post keeps its time and its slot.
    const still = await getPost(w.t, w.a.testKey, p.id);
    expect([still.publish_at, still.slot]).toEqual([TUE, true]);
    expect(await slotsOf(w.t, p.id)).toEqual([TUE]);

    const free = await move(p.id, { publish_at: WED });
    expect([free.status, free.body.publish_at, free.body.slot]).toEqual([200, WED, true]);
    expect(await slotsOf(w.t, p.id)).toEqual([WED]);
    // Its old slot is free again: next_slot now finds Tuesday.
    const next = await make({ publish_at: "next_slot" });
    expect(next.publish_at).toBe(TUE);

    // Off the slots, a post holds none; back to next_slot, it takes the next free one.
    const off = await move(p.id, { publish_at: iso(now + 30 * HOUR) });
    expect([off.body.slot, await slotsOf(w.t, p.id)]).toEqual([false, []]);
    const back = await move(p.id, { publish_at: "next_slot" });
    expect([back.body.publish_at, back.body.slot]).toEqual([WED, true]);
    for (const x of [holder, p, next]) await cancel(x.id);
  });

  test("swap_with trades times, deadlines and slot rows; both posts get post.rescheduled", async () => {
    const a = await make({ publish_at: "next_slot" }); // Monday's slot, deadline a day later
    const y = iso(now + 50 * HOUR + 11 * MIN);
    const z = iso(now + 60 * HOUR);
    const b = await make({ publish_at: y, publish_by: z }); // off the slots, its own deadline
    expect([a.publish_at, a.slot, b.slot]).toEqual([MON, true, false]);

    const r = await move(a.id, { swap_with: b.id });
    expect(r.status).toBe(200);
    expect([r.body.publish_at, r.body.publish_by, r.body.slot]).toEqual([y, z, false]);
    expect(r.body.targets[0]).toMatchObject({ next_attempt_at: y, publish_by: z });
    const other = await getPost(w.t, w.a.testKey, b.id);
    expect([other.publish_at, other.publish_by, other.slot]).toEqual([MON, iso(at(MON) + 24 * HOUR), true]);
    expect(other.targets[0]).toMatchObject({ next_attempt_at: MON, publish_by: iso(at(MON) + 24 * HOUR) });
    expect(await slotsOf(w.t, a.id)).toEqual([]);
    expect(await slotsOf(w.t, b.id)).toEqual([MON]);
    for (const id of [a.id, b.id]) {
      const moved = (await events(w.t, w.a.orgId, id)).filter((e) => e.type === "post.rescheduled");
      expect(moved.map((e) => (e.data.object as { id: string }).id)).toEqual([id]);
    }
    // Two slot posts swap their slot rows.
    const c = await make({ publish_at: "next_slot" }); // Tuesday
    const s = await move(b.id, { swap_with: c.id });
    expect(s.status).toBe(200);
    expect(await slotsOf(w.t, b.id)).toEqual([TUE]);
    expect(await slotsOf(w.t, c.id)).toEqual([MON]);
    for (const x of [a, b, c]) await cancel(x.id);
  });

  test("swap refusals: other brand, a post without a time, publish_by or publish_at with swap_with, empty", async () => {
    const a = await make({ publish_at: iso(now + 4 * HOUR + 1 * MIN) });
    const elsewhere = await brandWithChannel(w.t, w.a.testKey, { name: "Elsewhere" });
    const foreign = await mustPost(w.t, w.a.testKey, { brand: elsewhere.brand, content: { body: "f" } });
    const other = await move(a.id, { swap_with: foreign.id });
    expect([other.status, codes(other)]).toEqual([422, ["swap_other_brand swap_with"]]);

    // A pending next_slot post has no time yet.
    await setBrand(w.t, w.a.testKey, w.a.brandId, { approval_policy: "required_for_all" });
    const pending = await make({ publish_at: "next_slot" });
    await setBrand(w.t, w.a.testKey, w.a.brandId, { approval_policy: "none" });
    expect(pending.publish_at).toBeNull();
    const unscheduled = await move(a.id, { swap_with: pending.id });
    expect([unscheduled.status, unscheduled.body.code]).toEqual([409, "post_unscheduled"]);
    const reverse = await move(pending.id, { swap_with: a.id });
    expect(reverse.body.code).toBe("post_unscheduled");

    const withBy = await move(a.id, { swap_with: foreign.id, publish_by: iso(now + 40 * HOUR) });
    expect([withBy.status, codes(withBy)]).toEqual([422, ["reschedule_invalid swap_with"]]);
    const withAt = await move(a.id, { swap_with: foreign.id, publish_at: "now" });
    expect(codes(withAt)).toEqual(["reschedule_invalid swap_with"]);
    const empty = await move(a.id, {});
    expect([empty.status, empty.body.code]).toEqual([422, "reschedule_invalid"]);
    const missing = await move(a.id, { swap_with: newId("post") });
    expect([missing.status, missing.body.code, missing.body.param]).toEqual([
      404,
      "resource_missing",
      "swap_with",
    ]);
    // The refused swaps changed nothing.
    expect((await getPost(w.t, w.a.testKey, a.id)).publish_at).toBe(iso(now + 4 * HOUR + 1 * MIN));
    for (const x of [a, pending]) await cancel(x.id);
  });

  test("post_not_movable (409) once an attempt was made, or when the post is finished", async () => {
    const p = await make({ publish_at: iso(now + 2 * HOUR + 5 * MIN) });
    await setTargets(w.t, p.id, { attempts: 1 });
    const tried = await move(p.id, { publish_at: iso(now + 3 * HOUR) });
    expect([tried.status, tried.body.code]).toEqual([409, "post_not_movable"]);
    const q = await make({ publish_at: iso(now + 2 * HOUR + 5 * MIN) });
    const swap = await move(q.id, { swap_with: p.id });
    expect(swap.body.code).toBe("post_not_movable");
    expect((await getPost(w.t, w.a.testKey, q.id)).publish_at).toBe(iso(now + 2 * HOUR + 5 * MIN));
    await cancel(q.id);
    const canceled = await move(q.id, { publish_at: iso(now + 3 * HOUR) });
    expect([canceled.status, canceled.body.code]).toEqual([409, "post_not_movable"]);
  });
});
