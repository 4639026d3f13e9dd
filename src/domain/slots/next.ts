// Slots: weekday + HH:MM in the brand's zone. next_slot = the earliest free slot at least one minute from now,
// searching 56 days (reference §6).

import { localParts, zonedToUtc } from "../../lib/zoned.ts";
import type { Slot } from "../brands/schema.ts";

const DAY = 86400_000;
export const SEARCH_DAYS = 56;

/** Every slot instant from `from` (inclusive) for `days` days, in time order. */
export function slotTimes(slots: Slot[], tz: string, from: number, days = SEARCH_DAYS): number[] {
  const byDay = new Map<string, string[]>();
  for (const s of slots) byDay.set(s.weekday, [...(byDay.get(s.weekday) ?? []), s.time]);
  const out: number[] = [];
  for (let d = -1; d <= days; d++) {
    const p = localParts(from + d * DAY, tz);
    for (const time of byDay.get(p.weekday) ?? []) {
      const [hh, mm] = time.split(":").map(Number) as [number, number];
      const t = zonedToUtc(p.year, p.month, p.day, hh, mm, tz);
      if (t >= from && t < from + days * DAY) out.push(t);
    }
  }
  return [...new Set(out)].sort((a, b) => a - b);
}

/** True when `ms` is exactly one of the brand's slot instants (a reschedule onto it takes the slot). */
export function isSlotTime(slots: Slot[], tz: string, ms: number): boolean {
  const p = localParts(ms, tz);
  if (p.second !== 0 || ms % 60_000 !== 0) return false;
  const hhmm = `${String(p.hour).padStart(2, "0")}:${String(p.minute).padStart(2, "0")}`;
  return slots.some((s) => s.weekday === p.weekday && s.time === hhmm);
}
