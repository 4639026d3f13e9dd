// A report's period in the brand's zone: a calendar month (`month`, default the last whole month), or `since`/
// `until` (dates are the brand's days, `until` inclusive; times are instants), at most a year apart. The previous
// period has the same length and ends where the period starts.
import { badRequest, invalid, problem } from "../../lib/errors.ts";
import { localParts, zonedToUtc } from "../../lib/zoned.ts";

export interface Period {
  month: string | null;
  since: number;
  until: number;
  previousSince: number;
  previousUntil: number;
}

const YEAR_MS = 366 * 86400_000;
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^\d{4}-\d{2}-\d{2}T.+(Z|[+-]\d{2}:\d{2})$/;

const withPrevious = (month: string | null, since: number, until: number): Period => ({
  month,
  since,
  until,
  previousSince: since - (until - since),
  previousUntil: since,
});

/** The first instant of a local month in the zone. */
const monthStart = (year: number, month: number, tz: string) =>
  zonedToUtc(month > 12 ? year + 1 : year, month > 12 ? 1 : month, 1, 0, 0, tz);

/** A YYYY-MM month in the zone; month_invalid for anything else. */
export function monthPeriod(month: string, tz: string): Period {
  const m = MONTH.exec(month);
  if (!m) throw badRequest("month_invalid", "month is YYYY-MM (01-12).", "month");
  const y = Number(m[1]);
  const mo = Number(m[2]);
  return withPrevious(month, monthStart(y, mo, tz), monthStart(y, mo + 1, tz));
}

/** The month before the one `now` falls in, in the zone (the default report, and the monthly email's). */
export function lastMonth(now: number, tz: string): string {
  const p = localParts(now, tz);
  const y = p.month === 1 ? p.year - 1 : p.year;
  const m = p.month === 1 ? 12 : p.month - 1;
  return `${y}-${String(m).padStart(2, "0")}`;
}

function instant(value: string, param: "since" | "until", tz: string): number {
  const d = DATE.exec(value);
  if (d) {
    const [y, m, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
    const check = new Date(Date.UTC(y, m - 1, day));
    if (check.getUTCMonth() !== m - 1 || check.getUTCDate() !== day)
      throw invalid([problem("window_invalid", `${param} is not a date.`, param)]);
    // `until` as a date includes that day: the period ends at the next local midnight.
    if (param === "since") return zonedToUtc(y, m, day, 0, 0, tz);
    const next = new Date(Date.UTC(y, m - 1, day + 1));
    return zonedToUtc(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), 0, 0, tz);
  }
  const ms = TIME.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms))
    throw invalid([
      problem("window_invalid", `${param} must be a date (YYYY-MM-DD) or an RFC 3339 time.`, param),
    ]);
  return ms;
}

/** The period a query asks for; `now` picks the default month. */
export function periodOf(
  q: { month?: string | undefined; since?: string | undefined; until?: string | undefined },
  tz: string,
  now: number,
): Period {
  const hasWindow = q.since !== undefined || q.until !== undefined;
  if (q.month !== undefined && hasWindow)
    throw badRequest("parameter_conflict", "Give month or since/until, not both.", "month");
  if (q.month !== undefined) return monthPeriod(q.month, tz);
  if (!hasWindow) return monthPeriod(lastMonth(now, tz), tz);
  if (q.since === undefined || q.until === undefined)
    throw invalid([
      problem("window_invalid", "since and until go together.", q.since === undefined ? "since" : "until"),
    ]);
  const since = instant(q.since, "since", tz);
  const until = instant(q.until, "until", tz);
  if (since >= until || until - since > YEAR_MS)
    throw invalid([
      problem("window_invalid", "since must precede until, and they may be at most a year apart.", "since"),
    ]);
  return withPrevious(null, since, until);
}
