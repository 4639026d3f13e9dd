// Slots: weekday + HH:MM in the brand's zone. next_slot = the earliest free slot at least one minute from now,
// searching 56 days (reference §6).

import { localParts, zonedToUtc } from "../../lib/zoned.ts";
import type { Slot } from "../brands/schema.ts";

const DAY = 86400_000;
export const SEARCH_DAYS = 56;

const WEEKDAY_OF_UTC_DAY = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/** Every slot instant from `from` (inclusive) for `days` days, in time order. */
export function slotTimes(slots: Slot[], tz: string, from: number, days = SEARCH_DAYS): number[] {
  const byDay = new Map<string, string[]>();
  for (const s of slots) byDay.set(s.weekday, [...(byDay.get(s.weekday) ?? []), s.time]);
  const out: number[] = [];
  // Walk calendar days of the zone, not 24-hour steps: a day with a DST change is 23 or 25 hours long, so
  // stepping by 24 hours from late evening would skip the spring-forward day (or visit a day twice).
  const start = localParts(from, tz);
  for (let d = -1; d <= days; d++) {
    const date = new Date(Date.UTC(start.year, start.month - 1, start.day + d));
    const weekday = WEEKDAY_OF_UTC_DAY[date.getUTCDay()]!;
    for (const time of byDay.get(weekday) ?? []) {
      const [hh, mm] = time.split(":").map(Number) as [number, number];
      const t = zonedToUtc(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), hh, mm, tz);
      if (t >= from && t < from + days * DAY) out.push(t);
    }
  }
  return [...new Set(out)].sort((a, b) => a - b);
}

/**
 * True when `ms` is exactly one of the brand's slot instants (a create or reschedule there takes the slot). The
 * instant is compared with the slot instants themselves, not its wall-clock reading: on a spring-forward day a
 * slot at 02:30 falls at 03:30, which reads as no slot.
 */
export function isSlotTime(slots: Slot[], tz: string, ms: number): boolean {
  if (ms % 60_000 !== 0) return false;
  return slotTimes(slots, tz, ms, 1).includes(ms);
}
