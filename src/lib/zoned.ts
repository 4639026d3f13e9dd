// Local wall-clock time in an IANA zone ↔ UTC instants, with Intl only (no time zone library needed).

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
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
    formatters.set(tz, f);
  }
  return f;
}

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: string;
}

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/** The wall-clock time at an instant, read from Intl (about 10 µs a call; `localParts` avoids it). */
function intlParts(ms: number, tz: string): LocalParts {
  const out: Record<string, string> = {};
  for (const p of formatter(tz).formatToParts(new Date(ms))) out[p.type] = p.value;
  return {
    year: Number(out.year),
    month: Number(out.month),
    day: Number(out.day),
    hour: Number(out.hour),
    minute: Number(out.minute),
    second: Number(out.second),
    weekday: (out.weekday ?? "").toLowerCase(),
  };
}

const DAY_MS = 86400_000;
const HOUR_MS = 3600_000;

/** The zone's offset from UTC at an instant, in ms, read from Intl. */
function intlOffset(ms: number, tz: string): number {
  const p = intlParts(ms, tz);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

// A zone's offset per UTC hour, kept only for hours it does not change in. A week's calendar reads the local time
// of every post and slot in it, hundreds a request; Intl costs about 10 µs a reading.
const hourOffsets = new Map<string, Map<number, number>>();
const HOURS_KEPT = 20_000; // across zones: about 2 MB at most
let hoursKept = 0;

/** The zone's offset from UTC at an instant, in ms. */
function offsetAt(ms: number, tz: string): number {
  const hour = Math.floor(ms / HOUR_MS);
  let hours = hourOffsets.get(tz);
  const kept = hours?.get(hour);
  if (kept !== undefined) return kept;
  const first = intlOffset(hour * HOUR_MS, tz);
  // Zones change offset at most once an hour, on a whole second: the same offset at the hour's first and last
  // second means the whole hour has it. An hour with a change is read from Intl each time.
  if (first !== intlOffset(hour * HOUR_MS + HOUR_MS - 1000, tz)) return intlOffset(ms, tz);
  if (hoursKept >= HOURS_KEPT) {
    hourOffsets.clear();
    hoursKept = 0;
    hours = undefined;
  }
  if (!hours) {
    hours = new Map();
    hourOffsets.set(tz, hours);
  }
  hours.set(hour, first);
  hoursKept++;
  return first;
}

export function localParts(ms: number, tz: string): LocalParts {
  const d = new Date(ms + offsetAt(ms, tz));
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: WEEKDAYS[d.getUTCDay()]!,
  };
}

/**
 * The UTC instant of a local wall-clock time. A time skipped by a DST jump maps forward by the jump; a repeated
 * time maps to its first occurrence.
 */
export function zonedToUtc(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  tz: string,
): number {
  const guess = Date.UTC(year, month - 1, day, hour, minute);
  // Every offset the zone uses around that day: two when a DST change is near. Reading the wall-clock time with
  // only the offset at `guess` misses the first occurrence of a repeated hour (it lies in the other offset).
  const offsets = new Set([DAY_MS, 0, -DAY_MS].map((d) => offsetAt(guess + d, tz)));
  const readings = [...offsets].map((o) => guess - o);
  // Prefer the earlier of two valid readings (the first occurrence of a repeated hour).
  const valid = readings.filter((c) => {
    const p = localParts(c, tz);
    return p.hour === hour && p.minute === minute && p.day === day;
  });
  // None valid: the time falls in a gap; reading it with the offset before the jump moves it forward by the jump.
  return valid.length ? Math.min(...valid) : Math.max(...readings);
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * The zone's offset at an instant as Intl's `timeZoneName: "shortOffset"` names it in en-GB ("GMT+0", "GMT-5",
 * "GMT+5:30"), from the offset cache: Intl formatting with a zone name costs about 50 µs a call, and a list of
 * posts names one per row.
 */
export function offsetName(ms: number, tz: string): string {
  const offset = Math.round(offsetAt(ms, tz) / 1000);
  const abs = Math.abs(offset);
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const s = abs % 60;
  return `GMT${offset < 0 ? "-" : "+"}${h}${m || s ? `:${pad2(m)}` : ""}${s ? `:${pad2(s)}` : ""}`;
}

/** `2026-11-24 10:00 GMT-5`: an instant as the brand's people read it, in its zone with the offset. */
export function zonedStamp(ms: number, tz: string): string {
  const p = localParts(ms, tz);
  return `${p.year}-${pad2(p.month)}-${pad2(p.day)} ${pad2(p.hour)}:${pad2(p.minute)} ${offsetName(ms, tz)}`;
}

/** `10:00`: the wall-clock hour and minute in the zone (24-hour). */
export function zonedClock(ms: number, tz: string): string {
  const p = localParts(ms, tz);
  return `${pad2(p.hour)}:${pad2(p.minute)}`;
}
