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

export function localParts(ms: number, tz: string): LocalParts {
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

/** The zone's offset from UTC at an instant, in ms. */
function offsetAt(ms: number, tz: string): number {
  const p = localParts(ms, tz);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
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
