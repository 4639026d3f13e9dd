// A report's period (UTC instants in the brand's zone, until exclusive) as the inclusive day range daily ad and
// analytics rows are kept in.
import { localParts } from "../../lib/zoned.ts";

const localDate = (t: number, tz: string) => {
  const p = localParts(t, tz);
  return `${p.year}-${String(p.month).padStart(2, "0")}-${String(p.day).padStart(2, "0")}`;
};

export const dayRange = (since: number, until: number, tz: string) => ({
  since: localDate(since, tz),
  until: localDate(until - 1, tz),
});

export interface Pair {
  value: number;
  previous: number;
}
export const pair = (value: number, previous: number): Pair => ({ value, previous });
