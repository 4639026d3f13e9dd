// A time typed into a dashboard form (datetime-local, "2026-11-26T10:00") is read in the brand's zone and sent to
// the domain as RFC 3339, the API's form of a time.
import { zonedToUtc } from "../../lib/zoned.ts";

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2})?$/;

/** A datetime-local value read in `tz`, as RFC 3339 UTC, or null when it is not one. */
export function localToIso(value: string, tz: string): string | null {
  const m = LOCAL.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null;
  return new Date(zonedToUtc(y, mo, d, h, mi, tz)).toISOString();
}
