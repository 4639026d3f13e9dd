// The dashboard's reads beside the API's: a brand's week (getWeek: local days, slots with their holders, the
// week's posts only, DST, scoping) and the next free slot (nextFreeSlot: the instant a next_slot create takes).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { getWeek } from "../../../src/domain/posts/week.ts";
import { nextFreeSlot } from "../../../src/domain/slots/free.ts";
import { ServiceError } from "../../../src/lib/errors.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { member } from "../../helpers/factories.ts";
import { personActor } from "../../helpers/person.ts";
import { at, DAY, mustPost, otherTenant, START, setBrand, type World, world } from "./helpers.ts";

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    if (e instanceof ServiceError) return `${e.status} ${e.code}`;
    throw e;
  }
  return "no refusal";
};

describeEachDialect("week and next free slot", (dialect) => {
  let w: World;
  beforeAll(async () => {
    w = await world(dialect);
    // Lisbon: GMT+0 in winter, GMT+1 from the last Sunday of March (29 March 2026).
    await setBrand(w.t, w.a.testKey, w.a.brandId, {
      timezone: "Europe/Lisbon",
      slots: [
        { weekday: "monday", time: "09:00" },
        { weekday: "wednesday", time: "09:00" },
        { weekday: "sunday", time: "09:00" },
      ],
    });
  });
  afterAll(() => w.t.close());
  const actor = () => personActor(w.t.app, w.a.userId, w.a.orgId);

  test("the next free slot is the instant a next_slot create takes, then the one after", async () => {
    w.clock.set(START); // Monday 5 January 2026, 10:00 UTC: today's 09:00 is past
    const free = await nextFreeSlot(w.t.app, await actor(), w.a.brandId);
    expect(new Date(free!).toISOString()).toBe("2026-01-07T09:00:00.000Z");
    const p = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "Takes Wednesday" },
      publish_at: "next_slot",
    });
    expect(p.publish_at).toBe("2026-01-07T09:00:00.000Z");
    expect(new Date((await nextFreeSlot(w.t.app, await actor(), w.a.brandId))!).toISOString()).toBe(
      "2026-01-11T09:00:00.000Z",
    );
  });

  test("a week: Monday to Sunday in the zone, slots with their holders, only the week's posts", async () => {
    w.clock.set(START);
    const b = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "Next week" },
      publish_at: "2026-01-13T15:00:00Z",
    });
    const week = await getWeek(w.t.app, await actor(), w.a.brandId, "2026-01-08");
    expect(week.days.map((d) => d.date)).toEqual([
      "2026-01-05",
      "2026-01-06",
      "2026-01-07",
      "2026-01-08",
      "2026-01-09",
      "2026-01-10",
      "2026-01-11",
    ]);
    expect(week.previous).toBe("2025-12-29");
    expect(week.next).toBe("2026-01-12");
    const wed = week.posts.find((p) => p.publish_at === "2026-01-07T09:00:00.000Z")!;
    expect(week.slots).toEqual([
      { at: "2026-01-05T09:00:00.000Z", post: null },
      { at: "2026-01-07T09:00:00.000Z", post: wed.id },
      { at: "2026-01-11T09:00:00.000Z", post: null },
    ]);
    expect(week.posts.map((p) => p.id)).not.toContain(b.id);
    const next = await getWeek(w.t.app, await actor(), w.a.brandId, week.next);
    expect(next.posts.map((p) => p.id)).toEqual([b.id]);
  });

  test("a week with the change to summer time: days start at local midnight", async () => {
    w.clock.set(at(START));
    const week = await getWeek(w.t.app, await actor(), w.a.brandId, "2026-03-29");
    expect(week.days[0]).toEqual({ date: "2026-03-23", start: "2026-03-23T00:00:00.000Z" });
    // Sunday 29 March starts at 00:00 GMT; its 09:00 slot comes after the 01:00 change, so at 09:00 GMT+1.
    expect(week.days[6]).toEqual({ date: "2026-03-29", start: "2026-03-29T00:00:00.000Z" });
    expect(week.slots.map((s) => s.at)).toEqual([
      "2026-03-23T09:00:00.000Z",
      "2026-03-25T09:00:00.000Z",
      "2026-03-29T08:00:00.000Z",
    ]);
  });

  test("another org's brand looks missing; a bad week is parameter_invalid; a viewer may read", async () => {
    w.clock.set(START);
    const other = await otherTenant(w.t);
    expect(await refusal(getWeek(w.t.app, await actor(), other.a.brandId))).toBe("404 resource_missing");
    expect(await refusal(nextFreeSlot(w.t.app, await actor(), other.a.brandId))).toBe("404 resource_missing");
    expect(await refusal(getWeek(w.t.app, await actor(), w.a.brandId, "2026-13-01"))).toBe(
      "400 parameter_invalid",
    );
    expect(await refusal(getWeek(w.t.app, await actor(), w.a.brandId, "next tuesday"))).toBe(
      "400 parameter_invalid",
    );
    // A viewer reads the week as the API lets viewers read posts.
    const viewerId = await member(w.t.app, w.a.orgId, `viewer-${dialect}@example.com`, "viewer");
    const viewer = await personActor(w.t.app, viewerId, w.a.orgId);
    expect((await getWeek(w.t.app, viewer, w.a.brandId, "2026-01-05")).slots.length).toBe(3);
    // Without a date: the week holding today in the brand's zone.
    w.clock.set(at("2026-01-11T23:30:00Z"));
    const today = await getWeek(w.t.app, await actor(), w.a.brandId);
    expect(today.days[0]!.date).toBe("2026-01-05");
    w.clock.set(at("2026-01-11T23:30:00Z") + DAY);
    expect((await getWeek(w.t.app, await actor(), w.a.brandId)).days[0]!.date).toBe("2026-01-12");
  });
});
