// Local times read through the per-hour offset cache agree with Intl itself, in zones with daylight saving,
// half- and quarter-hour offsets, a southern-hemisphere half-hour change, and across changes to the second.
import { describe, expect, test } from "bun:test";
import { localParts, offsetName, zonedClock, zonedStamp, zonedToUtc } from "../../src/lib/zoned.ts";
import { dateLabel, whenIn } from "../../views/parts.tsx";

const ZONES = [
  "UTC",
  "Europe/Berlin",
  "America/New_York",
  "America/St_Johns", // -03:30 with daylight saving
  "Australia/Lord_Howe", // changes by half an hour
  "Asia/Kathmandu", // +05:45
  "Pacific/Chatham", // +12:45 / +13:45
  "Pacific/Apia", // skipped a whole day in 2011
];

const formats = new Map<string, Intl.DateTimeFormat>();
function fromIntl(ms: number, tz: string) {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      weekday: "long",
    });
    formats.set(tz, f);
  }
  const o: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(ms))) o[p.type] = p.value;
  return {
    year: Number(o.year),
    month: Number(o.month),
    day: Number(o.day),
    hour: Number(o.hour),
    minute: Number(o.minute),
    second: Number(o.second),
    weekday: o.weekday!.toLowerCase(),
  };
}

describe("localParts", () => {
  test("matches Intl at random instants from 1990 to 2040, read twice (the second from the cache)", () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const from = Date.UTC(1990, 0, 1);
    const to = Date.UTC(2040, 0, 1);
    for (const tz of ZONES)
      for (let i = 0; i < 400; i++) {
        const ms = Math.floor(from + rand() * (to - from));
        expect(localParts(ms, tz)).toEqual(fromIntl(ms, tz));
        expect(localParts(ms, tz)).toEqual(fromIntl(ms, tz));
      }
  });

  test("matches Intl on each second around a change, in the hour it happens", () => {
    const cases: [string, number][] = [
      ["Europe/Berlin", Date.parse("2026-03-29T01:00:00Z")],
      ["Europe/Berlin", Date.parse("2026-10-25T01:00:00Z")],
      ["Australia/Lord_Howe", Date.parse("2026-04-04T15:00:00Z")],
      ["Australia/Lord_Howe", Date.parse("2026-10-03T15:30:00Z")],
      ["Pacific/Apia", Date.parse("2011-12-30T10:00:00Z")],
    ];
    for (const [tz, change] of cases)
      for (let ms = change - 3600_000; ms <= change + 3600_000; ms += 997)
        expect(localParts(ms, tz)).toEqual(fromIntl(ms, tz));
  });

  test("milliseconds before 1970 and within a second read the same second as Intl", () => {
    for (const ms of [-1, -999, -1001, Date.parse("1969-07-20T20:17:40.5Z"), 1_700_000_000_999])
      expect(localParts(ms, "America/New_York")).toEqual(fromIntl(ms, "America/New_York"));
  });

  test("an unknown zone is refused as before", () => {
    expect(() => localParts(0, "Mars/Olympus")).toThrow(RangeError);
  });
});

describe("zonedToUtc", () => {
  test("round-trips every quarter hour of a year in Lord Howe (half-hour daylight saving)", () => {
    const tz = "Australia/Lord_Howe";
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 900_000) {
      const p = localParts(ms, tz);
      const back = zonedToUtc(p.year, p.month, p.day, p.hour, p.minute, tz);
      // A repeated half hour maps to its first occurrence; everything else to itself.
      expect(back === ms || (back < ms && ms - back <= 1800_000)).toBe(true);
      expect(localParts(back, tz)).toEqual(p);
    }
  });
});

// What the dashboard printed with Intl before the offset cache: the views now format from the cache, and must read
// the same.
describe("the dashboard's time labels", () => {
  const stampFormats = new Map<string, Intl.DateTimeFormat>();
  function intlStamp(ms: number, tz: string) {
    let f = stampFormats.get(tz);
    if (!f) {
      f = new Intl.DateTimeFormat("en-GB", {
        timeZone: tz,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
        timeZoneName: "shortOffset",
      });
      stampFormats.set(tz, f);
    }
    const o: Record<string, string> = {};
    for (const p of f.formatToParts(new Date(ms))) o[p.type] = p.value;
    return {
      stamp: `${o.year}-${o.month}-${o.day} ${o.hour}:${o.minute} ${o.timeZoneName}`,
      zone: o.timeZoneName ?? "",
    };
  }

  test("a stamp, its offset's name and the clock match Intl at instants from 1990 to 2040 and around changes", () => {
    let seed = 11;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const from = Date.UTC(1990, 0, 1);
    const to = Date.UTC(2040, 0, 1);
    const instants = Array.from({ length: 300 }, () => Math.floor(from + rand() * (to - from)));
    const change = Date.parse("2026-10-25T01:00:00Z");
    for (let ms = change - 3600_000; ms <= change + 3600_000; ms += 59_999) instants.push(ms);
    for (const tz of ZONES)
      for (const ms of instants) {
        const intl = intlStamp(ms, tz);
        expect(zonedStamp(ms, tz)).toBe(intl.stamp);
        expect(offsetName(ms, tz)).toBe(intl.zone);
        expect(zonedClock(ms, tz)).toBe(intl.stamp.slice(11, 16));
        expect(whenIn(new Date(ms).toISOString(), tz)).toBe(intl.stamp);
      }
    expect(whenIn("2026-11-24T15:00:00.000Z", "America/New_York")).toBe("2026-11-24 10:00 GMT-5");
    expect(whenIn("2026-07-01T06:15:00.000Z", "Asia/Kathmandu")).toBe("2026-07-01 12:00 GMT+5:45");
    expect(whenIn(null, "UTC")).toBe("—");
  });

  test("a date's label is Intl's, from the first call and from the kept one", () => {
    const f = new Intl.DateTimeFormat("en-GB", {
      timeZone: "UTC",
      weekday: "long",
      day: "numeric",
      month: "long",
    });
    for (const date of ["2026-11-30", "2026-2-1", "2024-02-29", "2027-01-01"])
      for (let i = 0; i < 2; i++) {
        const [y, m, d] = date.split("-").map(Number) as [number, number, number];
        expect(dateLabel(date, { weekday: "long", day: "numeric", month: "long" })).toBe(
          f.format(new Date(Date.UTC(y, m - 1, d))),
        );
      }
    expect(dateLabel("2026-11-30", { weekday: "long", day: "numeric", month: "long" })).toBe(
      "Monday 30 November",
    );
    expect(dateLabel("2026-11-01", { month: "long", year: "numeric" })).toBe("November 2026");
    expect(dateLabel("2026-11-30", { weekday: "short", day: "numeric", month: "short" })).toBe("Mon 30 Nov");
  });
});
