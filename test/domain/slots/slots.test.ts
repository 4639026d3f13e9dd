// Posting slots as a client meets them (reference §6): `publish_at: "next_slot"` takes the earliest free slot at
// least one minute ahead, in the brand's zone, searching 56 days; an RFC 3339 time on a slot instant takes that
// slot; a taken slot is 409 slot_taken naming its holder; daylight saving moves a skipped wall-clock time forward;
// and parallel creates on Postgres each get their own slot.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { describeEachDialect } from "../../helpers/db.ts";
import { schemaErrors } from "../../helpers/schemas.ts";
import {
  at,
  brandWithChannel,
  codes,
  counts,
  createPost,
  iso,
  mustPost,
  START,
  setBrand,
  slotsOf,
  type World,
  world,
} from "../posts/helpers.ts";

const now = at(START); // Monday 5 January 2026, 11:00 in Berlin (UTC+1 in winter)

describeEachDialect("slots", (dialect) => {
  let w: World;
  beforeAll(async () => {
    w = await world(dialect);
    await setBrand(w.t, w.a.testKey, w.a.brandId, {
      timezone: "Europe/Berlin",
      slots: [
        { weekday: "monday", time: "11:00" }, // exactly now: less than a minute ahead, never chosen
        { weekday: "monday", time: "11:01" }, // one minute ahead: the first slot
        { weekday: "tuesday", time: "09:00" },
        { weekday: "monday", time: "14:00" },
      ],
    });
  });
  afterAll(() => w.t.close());

  const post = (body: Record<string, unknown>) =>
    createPost(w.t, w.a.testKey, { brand: w.a.brandId, content: { body: "Slot test." }, ...body });

  test("next_slot takes the earliest free slot at least a minute ahead, in the brand's zone", async () => {
    const first = await post({ publish_at: "next_slot" });
    expect(first.status).toBe(201);
    expect(schemaErrors("Post", first.body)).toBe("");
    // Monday 11:01 Berlin = 10:01 UTC; the deadline is a day later.
    expect([first.body.publish_at, first.body.publish_by, first.body.slot]).toEqual([
      "2026-01-05T10:01:00.000Z",
      "2026-01-06T10:01:00.000Z",
      true,
    ]);
    expect(first.body.targets[0].next_attempt_at).toBe("2026-01-05T10:01:00.000Z");
    expect(await slotsOf(w.t, first.body.id)).toEqual(["2026-01-05T10:01:00.000Z"]);

    const second = await post({ publish_at: "next_slot" });
    expect(second.body.publish_at).toBe("2026-01-05T13:00:00.000Z"); // Monday 14:00 Berlin
    const third = await post({ publish_at: "next_slot" });
    expect(third.body.publish_at).toBe("2026-01-06T08:00:00.000Z"); // Tuesday 09:00 Berlin
  });

  test("an RFC 3339 time on a slot instant takes it; a second post there is 409 slot_taken", async () => {
    // Tuesday 13 January 09:00 Berlin, given as a Berlin offset.
    const r = await post({ publish_at: "2026-01-13T09:00:00+01:00" });
    expect(r.status).toBe(201);
    expect([r.body.publish_at, r.body.slot]).toEqual(["2026-01-13T08:00:00.000Z", true]);
    expect(await slotsOf(w.t, r.body.id)).toEqual(["2026-01-13T08:00:00.000Z"]);

    const before = await counts(w.t, w.a.orgId);
    const taken = await post({ publish_at: "2026-01-13T08:00:00Z" });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      code: "slot_taken",
      param: "publish_at",
      details: { post: r.body.id },
    });
    expect(await counts(w.t, w.a.orgId)).toEqual(before); // nothing of the refused post stays

    // A time off the slots takes nothing.
    const off = await post({ publish_at: "2026-01-13T08:30:00Z" });
    expect([off.status, off.body.slot]).toEqual([201, false]);
    expect(await slotsOf(w.t, off.body.id)).toEqual([]);
  });

  test("next_slot passes over a slot an exact-time post holds", async () => {
    // The free slots after those taken above are Monday 12th 11:00 Berlin (a week ahead), 11:01, 14:00 ...
    // An exact-time post takes 11:00, so next_slot gets 11:01.
    await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "x" },
      publish_at: "2026-01-12T10:00:00Z",
    });
    const next = await post({ publish_at: "next_slot" });
    expect(next.body.publish_at).toBe("2026-01-12T10:01:00.000Z");
  });

  test("no_slots (422) for a brand without slots", async () => {
    const b = await brandWithChannel(w.t, w.a.testKey, { name: "No Slots", slots: [] });
    const r = await createPost(w.t, w.a.testKey, {
      brand: b.brand,
      content: { body: "x" },
      publish_at: "next_slot",
    });
    expect(r.status).toBe(422);
    expect(codes(r)).toEqual(["no_slots publish_at"]);
  });

  test("slots_full (409) once every slot of the 56 days is taken: one weekly slot fits 8 posts", async () => {
    const b = await brandWithChannel(w.t, w.a.testKey, {
      name: "Weekly",
      timezone: "Europe/Berlin",
      slots: [{ weekday: "wednesday", time: "12:00" }],
    });
    const times: string[] = [];
    for (let i = 0; i < 8; i++) {
      const p = await mustPost(w.t, w.a.testKey, {
        brand: b.brand,
        content: { body: `weekly ${i}` },
        publish_at: "next_slot",
      });
      times.push(p.publish_at);
    }
    expect(times).toEqual([
      "2026-01-07T11:00:00.000Z",
      "2026-01-14T11:00:00.000Z",
      "2026-01-21T11:00:00.000Z",
      "2026-01-28T11:00:00.000Z",
      "2026-02-04T11:00:00.000Z",
      "2026-02-11T11:00:00.000Z",
      "2026-02-18T11:00:00.000Z",
      "2026-02-25T11:00:00.000Z",
    ]);
    const before = await counts(w.t, w.a.orgId);
    const ninth = await createPost(w.t, w.a.testKey, {
      brand: b.brand,
      content: { body: "weekly 8" },
      publish_at: "next_slot",
    });
    expect(ninth.status).toBe(409);
    expect([ninth.body.code, ninth.body.param]).toEqual(["slots_full", "publish_at"]);
    expect(await counts(w.t, w.a.orgId)).toEqual(before);
    // An exact time beyond the 56 days still takes its slot, and a day later the window has moved on.
    w.clock.set("2026-01-08T12:00:00Z");
    const later = await createPost(w.t, w.a.testKey, {
      brand: b.brand,
      content: { body: "weekly 9" },
      publish_at: "next_slot",
    });
    expect(later.body.publish_at).toBe("2026-03-04T11:00:00.000Z");
    w.clock.set(now);
  });

  test("slots are per brand: the same wall-clock slot of two brands is two slots", async () => {
    const b1 = await brandWithChannel(w.t, w.a.testKey, {
      name: "Twin A",
      slots: [{ weekday: "friday", time: "10:00" }],
    });
    const b2 = await brandWithChannel(w.t, w.a.testKey, {
      name: "Twin B",
      slots: [{ weekday: "friday", time: "10:00" }],
    });
    const p1 = await mustPost(w.t, w.a.testKey, {
      brand: b1.brand,
      content: { body: "a" },
      publish_at: "next_slot",
    });
    const p2 = await mustPost(w.t, w.a.testKey, {
      brand: b2.brand,
      content: { body: "b" },
      publish_at: "next_slot",
    });
    expect([p1.publish_at, p2.publish_at]).toEqual(["2026-01-09T10:00:00.000Z", "2026-01-09T10:00:00.000Z"]);
  });

  test("DST: 02:30 on the spring-forward Sunday in Berlin does not exist and maps to 03:30 CEST", async () => {
    const b = await brandWithChannel(w.t, w.a.testKey, {
      name: "Night Owls",
      timezone: "Europe/Berlin",
      slots: [{ weekday: "sunday", time: "02:30" }],
    });
    w.clock.set("2026-03-28T12:00:00Z"); // Saturday before the change (29 March 2026)
    const first = await mustPost(w.t, w.a.testKey, {
      brand: b.brand,
      content: { body: "dst" },
      publish_at: "next_slot",
    });
    // 03:30 CEST (UTC+2) = 01:30 UTC; the week after, 02:30 CEST = 00:30 UTC.
    expect(first.publish_at).toBe("2026-03-29T01:30:00.000Z");
    const second = await mustPost(w.t, w.a.testKey, {
      brand: b.brand,
      content: { body: "dst" },
      publish_at: "next_slot",
    });
    expect(second.publish_at).toBe("2026-04-05T00:30:00.000Z");
    // The shifted instant is that slot: an exact time there is taken and a second one refused.
    const clash = await createPost(w.t, w.a.testKey, {
      brand: b.brand,
      content: { body: "dst" },
      publish_at: "2026-03-29T03:30:00+02:00",
    });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ code: "slot_taken", details: { post: first.id } });
    w.clock.set(now);
  });

  test("DST: in autumn a repeated wall-clock slot is taken once, at its first occurrence", async () => {
    const b = await brandWithChannel(w.t, w.a.testKey, {
      name: "Autumn",
      timezone: "Europe/Berlin",
      slots: [{ weekday: "sunday", time: "02:30" }],
    });
    w.clock.set("2026-10-24T12:00:00Z"); // Saturday before 25 October 2026, when 03:00 CEST becomes 02:00 CET
    const p = await mustPost(w.t, w.a.testKey, {
      brand: b.brand,
      content: { body: "x" },
      publish_at: "next_slot",
    });
    expect(p.publish_at).toBe("2026-10-25T00:30:00.000Z"); // 02:30 CEST, the first 02:30
    const q = await mustPost(w.t, w.a.testKey, {
      brand: b.brand,
      content: { body: "y" },
      publish_at: "next_slot",
    });
    expect(q.publish_at).toBe("2026-11-01T01:30:00.000Z"); // a week later, 02:30 CET
    w.clock.set(now);
  });

  test("DST: late on the Saturday before spring forward, Sunday's slots are still found", async () => {
    const b = await brandWithChannel(w.t, w.a.testKey, {
      name: "Sunday Lunch",
      timezone: "Europe/Berlin",
      slots: [{ weekday: "sunday", time: "12:00" }],
    });
    // Saturday 28 March 23:30 CET. Sunday is a 23-hour day: a day-by-24-hours walk from here lands on Monday.
    w.clock.set("2026-03-28T22:30:00Z");
    const p = await mustPost(w.t, w.a.testKey, {
      brand: b.brand,
      content: { body: "x" },
      publish_at: "next_slot",
    });
    expect(p.publish_at).toBe("2026-03-29T10:00:00.000Z"); // 12:00 CEST
    w.clock.set(now);
  });

  if (dialect === "postgres") {
    test("10 parallel next_slot creates each get a distinct slot, none slot_contention", async () => {
      const b = await brandWithChannel(w.t, w.a.testKey, {
        name: "Busy",
        timezone: "UTC",
        slots: [
          { weekday: "monday", time: "12:00" },
          { weekday: "tuesday", time: "12:00" },
          { weekday: "wednesday", time: "12:00" },
        ],
      });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          createPost(w.t, w.a.testKey, {
            brand: b.brand,
            content: { body: `parallel ${i}` },
            publish_at: "next_slot",
          }),
        ),
      );
      expect(results.map((r) => [r.status, r.body.code ?? null])).toEqual(
        Array.from({ length: 10 }, () => [201, null]),
      );
      const times = results.map((r) => r.body.publish_at as string).sort();
      expect(times).toEqual([
        "2026-01-05T12:00:00.000Z",
        "2026-01-06T12:00:00.000Z",
        "2026-01-07T12:00:00.000Z",
        "2026-01-12T12:00:00.000Z",
        "2026-01-13T12:00:00.000Z",
        "2026-01-14T12:00:00.000Z",
        "2026-01-19T12:00:00.000Z",
        "2026-01-20T12:00:00.000Z",
        "2026-01-21T12:00:00.000Z",
        "2026-01-26T12:00:00.000Z",
      ]);
      const rows = await w.t.app.db
        .selectFrom("post_slots")
        .select(["slot_time", "post_id"])
        .where("brand_id", "=", b.brand)
        .orderBy("slot_time")
        .execute();
      expect(rows.map((r) => iso(Number(r.slot_time)))).toEqual(times);
      expect(new Set(rows.map((r) => r.post_id)).size).toBe(10);
    });
  }
});
