// The pure rules behind posts: status derived from targets (every branch of reference §3), publish_at and
// publish_by parsing, who needs approval, metadata checks, and wall-clock times across DST.
import { describe, expect, test } from "bun:test";
import type { Actor } from "../../../src/domain/actor.ts";
import { needsApproval } from "../../../src/domain/posts/approval.ts";
import { checkMetadata } from "../../../src/domain/posts/metadata.ts";
import {
  isProblem,
  parsePublishAt,
  parsePublishBy,
  parseTime,
} from "../../../src/domain/posts/publish-time.ts";
import { isSlotTime, slotTimes } from "../../../src/domain/slots/next.ts";
import { derivePostStatus, postEventFor } from "../../../src/domain/targets/post-status.ts";
import { zonedToUtc } from "../../../src/lib/zoned.ts";

const NOW = Date.parse("2026-01-05T10:00:00Z");
const DAY = 86400_000;

describe("derivePostStatus", () => {
  test("rejected is final whatever the targets say", () => {
    expect(derivePostStatus("rejected", ["queued"])).toBe("rejected");
    expect(derivePostStatus("rejected", ["published"])).toBe("rejected");
  });
  test("no targets left is canceled", () => {
    expect(derivePostStatus("scheduled", [])).toBe("canceled");
  });
  test("any held target is pending_approval", () => {
    expect(derivePostStatus("scheduled", ["held", "queued"])).toBe("pending_approval");
    expect(derivePostStatus("scheduled", ["published", "held"])).toBe("pending_approval");
  });
  test("all published is published", () => {
    expect(derivePostStatus("publishing", ["published", "published"])).toBe("published");
  });
  test("all finished: partially_published if any published, else failed if any failed, else canceled", () => {
    expect(derivePostStatus("publishing", ["published", "failed"])).toBe("partially_published");
    expect(derivePostStatus("publishing", ["canceled", "published"])).toBe("partially_published");
    expect(derivePostStatus("publishing", ["failed", "canceled"])).toBe("failed");
    expect(derivePostStatus("publishing", ["failed"])).toBe("failed");
    expect(derivePostStatus("scheduled", ["canceled", "canceled"])).toBe("canceled");
  });
  test("publishing or needs_attention, or some finished and some not, is publishing", () => {
    expect(derivePostStatus("scheduled", ["publishing", "queued"])).toBe("publishing");
    expect(derivePostStatus("scheduled", ["needs_attention"])).toBe("publishing");
    expect(derivePostStatus("scheduled", ["published", "queued"])).toBe("publishing");
    expect(derivePostStatus("scheduled", ["failed", "queued"])).toBe("publishing");
    expect(derivePostStatus("scheduled", ["canceled", "queued"])).toBe("publishing");
  });
  test("otherwise (all queued) scheduled", () => {
    expect(derivePostStatus("pending_approval", ["queued", "queued"])).toBe("scheduled");
  });
  test("final statuses name their event; others none", () => {
    expect(postEventFor("published")).toBe("post.published");
    expect(postEventFor("partially_published")).toBe("post.partially_published");
    expect(postEventFor("failed")).toBe("post.failed");
    expect(postEventFor("canceled")).toBe("post.canceled");
    for (const s of ["scheduled", "publishing", "pending_approval", "rejected"] as const)
      expect(postEventFor(s)).toBeNull();
  });
});

describe("publish_at and publish_by", () => {
  test("parseTime takes RFC 3339 only", () => {
    expect(parseTime("2026-01-05T10:00:00Z")).toBe(NOW);
    expect(parseTime("2026-01-05T11:00:00+01:00")).toBe(NOW);
    expect(parseTime("2026-01-05t10:00:00.250z")).toBe(NOW + 250);
    expect(parseTime("2026-01-05T10:00Z")).toBe(NOW);
    for (const bad of ["2026-01-05", "2026-01-05 10:00:00Z", "2026-01-05T10:00:00", "1736071200", "", "now"])
      expect(parseTime(bad)).toBeNull();
    // Impossible dates and times are refused, not rolled over into the next day or month.
    for (const bad of [
      "2026-02-29T10:00:00Z",
      "2026-02-30T10:00:00Z",
      "2026-04-31T10:00:00Z",
      "2026-00-10T10:00:00Z",
      "2026-01-05T24:00:00Z",
      "2026-01-05T10:60:00Z",
      "2026-01-05T10:00:60Z",
      "2026-01-05T10:00:00+24:00",
    ])
      expect(parseTime(bad)).toBeNull();
    expect(parseTime("2028-02-29T10:00:00Z")).toBe(Date.parse("2028-02-29T10:00:00Z"));
    expect(parseTime("2026-12-31T23:59:59-12:00")).toBe(Date.parse("2027-01-01T11:59:59Z"));
  });
  test("parsePublishAt: now (default), next_slot, times within 366 days ahead and 15 minutes back", () => {
    expect(parsePublishAt(undefined, NOW)).toEqual({ kind: "now" });
    expect(parsePublishAt("now", NOW)).toEqual({ kind: "now" });
    expect(parsePublishAt("next_slot", NOW)).toEqual({ kind: "next_slot" });
    expect(parsePublishAt("2026-01-06T10:00:00Z", NOW)).toEqual({ kind: "at", ms: NOW + DAY });
    expect(parsePublishAt(new Date(NOW + 366 * DAY).toISOString(), NOW)).toEqual({
      kind: "at",
      ms: NOW + 366 * DAY,
    });
    // Up to 15 minutes back counts as now.
    expect(parsePublishAt(new Date(NOW - 15 * 60_000).toISOString(), NOW)).toEqual({ kind: "at", ms: NOW });
    const problems = [
      parsePublishAt(new Date(NOW + 366 * DAY + 1).toISOString(), NOW),
      parsePublishAt(new Date(NOW - 15 * 60_000 - 1).toISOString(), NOW),
      parsePublishAt("tomorrow", NOW),
      parsePublishAt(42, NOW),
    ];
    for (const p of problems) {
      expect(isProblem(p)).toBe(true);
      expect(p).toMatchObject({ code: "publish_at_invalid", param: "publish_at" });
    }
  });
  test("parsePublishBy: absent is null; must be in the future and after publish_at", () => {
    expect(parsePublishBy(undefined, NOW, NOW)).toBeNull();
    expect(parsePublishBy(null, NOW, NOW)).toBeNull();
    expect(parsePublishBy("2026-01-05T11:00:00Z", NOW, NOW)).toBe(NOW + 3600_000);
    expect(parsePublishBy("2026-01-05T11:00:00Z", NOW, null)).toBe(NOW + 3600_000);
    for (const [v, after] of [
      ["2026-01-05T10:00:00Z", null], // not in the future
      ["2026-01-05T11:00:00Z", NOW + 3600_000], // not after publish_at
      ["2026-01-05T11:00:00Z", NOW + 7200_000],
      ["soon", null],
    ] as const)
      expect(parsePublishBy(v, NOW, after)).toMatchObject({
        code: "publish_by_invalid",
        param: "publish_by",
      });
  });
});

describe("needsApproval", () => {
  const key = { kind: "api_key", role: null } as unknown as Actor;
  const person = (role: string) => ({ kind: "user", role }) as unknown as Actor;
  test("a template's required or not_required wins over the brand", () => {
    expect(needsApproval("required", "none", person("owner"))).toBe(true);
    expect(needsApproval("not_required", "required_for_all", key)).toBe(false);
  });
  test("inherit (or no template) follows the brand", () => {
    for (const t of ["inherit", null]) {
      expect(needsApproval(t, "none", key)).toBe(false);
      expect(needsApproval(t, "required_for_all", person("owner"))).toBe(true);
      expect(needsApproval(t, "required_for_editors_and_keys", key)).toBe(true);
      expect(needsApproval(t, "required_for_editors_and_keys", person("editor"))).toBe(true);
      expect(needsApproval(t, "required_for_editors_and_keys", person("viewer"))).toBe(true);
      expect(needsApproval(t, "required_for_editors_and_keys", person("admin"))).toBe(false);
      expect(needsApproval(t, "required_for_editors_and_keys", person("owner"))).toBe(false);
    }
  });
});

describe("checkMetadata", () => {
  const sims = ["slow", "rejected"];
  test("string pairs pass through; each broken rule is a problem at its key", () => {
    expect(checkMetadata({ a: "1" }, false, sims)).toEqual({ metadata: { a: "1" }, problems: [] });
    const r = checkMetadata(
      { "": "x", ["k".repeat(41)]: "x", v: "x".repeat(501), n: 1, ok: "x".repeat(500) },
      false,
      sims,
    );
    expect(r.metadata).toEqual({ ok: "x".repeat(500) });
    expect(r.problems.map((p) => p.param)).toEqual([
      "metadata.",
      `metadata.${"k".repeat(41)}`,
      "metadata.v",
      "metadata.n",
    ]);
  });
  test("svc_simulate: known values in test mode; any in live mode is simulation_in_live_mode", () => {
    expect(checkMetadata({ svc_simulate: "slow" }, false, sims).problems).toEqual([]);
    expect(checkMetadata({ svc_simulate: "fast" }, false, sims).problems[0]?.code).toBe("simulation_invalid");
    expect(checkMetadata({ svc_simulate: "slow" }, true, sims).problems[0]?.code).toBe(
      "simulation_in_live_mode",
    );
  });
});

describe("wall-clock times across DST (Europe/Berlin, 2026)", () => {
  const tz = "Europe/Berlin";
  test("ordinary times use the zone's offset of that date", () => {
    expect(zonedToUtc(2026, 1, 5, 9, 0, tz)).toBe(Date.parse("2026-01-05T08:00:00Z"));
    expect(zonedToUtc(2026, 7, 6, 9, 0, tz)).toBe(Date.parse("2026-07-06T07:00:00Z"));
  });
  test("a time skipped in spring moves forward by the jump", () => {
    expect(zonedToUtc(2026, 3, 29, 2, 30, tz)).toBe(Date.parse("2026-03-29T01:30:00Z")); // 03:30 CEST
    expect(zonedToUtc(2026, 3, 29, 1, 59, tz)).toBe(Date.parse("2026-03-29T00:59:00Z"));
    expect(zonedToUtc(2026, 3, 29, 3, 0, tz)).toBe(Date.parse("2026-03-29T01:00:00Z"));
  });
  test("a time repeated in autumn is its first occurrence", () => {
    expect(zonedToUtc(2026, 10, 25, 2, 30, tz)).toBe(Date.parse("2026-10-25T00:30:00Z")); // 02:30 CEST
    expect(zonedToUtc(2026, 10, 25, 3, 0, tz)).toBe(Date.parse("2026-10-25T02:00:00Z"));
  });
  test("zones west of UTC and without DST", () => {
    expect(zonedToUtc(2026, 3, 8, 2, 30, "America/New_York")).toBe(Date.parse("2026-03-08T07:30:00Z"));
    expect(zonedToUtc(2026, 11, 1, 1, 30, "America/New_York")).toBe(Date.parse("2026-11-01T05:30:00Z"));
    expect(zonedToUtc(2026, 1, 5, 9, 0, "Asia/Kolkata")).toBe(Date.parse("2026-01-05T03:30:00Z"));
  });
  test("slotTimes lists every weekly instant of the window; isSlotTime recognises them", () => {
    const slots = [{ weekday: "sunday" as const, time: "02:30" }];
    const from = Date.parse("2026-03-20T00:00:00Z");
    const times = slotTimes(slots, tz, from, 21).map((t) => new Date(t).toISOString());
    expect(times).toEqual([
      "2026-03-22T01:30:00.000Z",
      "2026-03-29T01:30:00.000Z",
      "2026-04-05T00:30:00.000Z",
    ]);
    expect(isSlotTime(slots, tz, Date.parse("2026-03-29T01:30:00Z"))).toBe(true);
    expect(isSlotTime(slots, tz, Date.parse("2026-04-05T00:30:00Z"))).toBe(true);
    expect(isSlotTime(slots, tz, Date.parse("2026-04-05T00:30:30Z"))).toBe(false);
    expect(isSlotTime(slots, tz, Date.parse("2026-04-05T01:30:00Z"))).toBe(false);
  });
});
