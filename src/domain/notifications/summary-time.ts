// When a daily summary is due: the first 08:00 in the person's time zone after the oldest notification it holds.
import { localParts, zonedToUtc } from "../../lib/zoned.ts";
import { SUMMARY_HOUR } from "./types.ts";

export function nextSummaryAt(afterMs: number, timezone: string): number {
  let tz = timezone;
  try {
    localParts(afterMs, tz);
  } catch {
    // A zone this runtime no longer knows: UTC rather than never.
    tz = "UTC";
  }
  const p = localParts(afterMs, tz);
  const today = zonedToUtc(p.year, p.month, p.day, SUMMARY_HOUR, 0, tz);
  if (today > afterMs) return today;
  const next = new Date(Date.UTC(p.year, p.month - 1, p.day + 1));
  return zonedToUtc(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), SUMMARY_HOUR, 0, tz);
}
