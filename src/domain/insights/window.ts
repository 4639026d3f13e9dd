// The window of an ads or analytics summary: `since` and `until` as dates (YYYY-MM-DD) or RFC 3339 times, read as
// whole UTC days, both included; default the last 30 days; at most a year apart (`window_invalid`).
import { invalid, problem } from "../../lib/errors.ts";

const DAY = 86_400_000;
export const MAX_DAYS = 366;

export interface DayWindow {
  since: string;
  until: string;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function parseDay(value: string | undefined, param: string): string | null {
  if (value === undefined || value === "") return null;
  const ms = /^\d{4}-\d{2}-\d{2}(T.+)?$/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms))
    throw invalid([
      problem("window_invalid", `${param} must be a date (YYYY-MM-DD) or an RFC 3339 time.`, param),
    ]);
  return dayOf(ms);
}

/** The window asked for, or the last 30 days up to today (UTC). */
export function dayWindow(query: { since?: string; until?: string }, now: number): DayWindow {
  const until = parseDay(query.until, "until") ?? dayOf(now);
  const since = parseDay(query.since, "since") ?? dayOf(Date.parse(until) - 29 * DAY);
  const days = (Date.parse(until) - Date.parse(since)) / DAY;
  if (days < 0 || days >= MAX_DAYS)
    throw invalid([
      problem(
        "window_invalid",
        "since must not follow until, and they may be at most a year apart.",
        "since",
      ),
    ]);
  return { since, until };
}

/** The days a collection reads: `days` days up to and including today (UTC). */
export function lastDays(now: number, days: number): DayWindow {
  return { since: dayOf(now - (days - 1) * DAY), until: dayOf(now) };
}
