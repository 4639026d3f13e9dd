// publish_at: "now" (default), "next_slot" or RFC 3339, at most 366 days ahead and 15 minutes back (a time up to
// 15 minutes past counts as now); publish_by: after publish_at and in the future, default publish_at + 24 h.
import { type Problem, problem } from "../../lib/errors.ts";

export const MAX_AHEAD_MS = 366 * 86400_000;
export const MAX_BACK_MS = 15 * 60_000;
export const DEFAULT_WINDOW_MS = 24 * 3600_000;

export type PublishAt = { kind: "now" } | { kind: "next_slot" } | { kind: "at"; ms: number };

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

/**
 * An RFC 3339 time as epoch ms, or null. Each field is range-checked first: Date.parse rolls an impossible date
 * over (2026-02-30 becomes 2 March, T24:00 the next midnight) instead of refusing it.
 */
export function parseTime(v: string): number | null {
  const m = RFC3339.exec(v);
  if (!m) return null;
  const [year, month, day, hour, minute, second, offH, offM] = m
    .slice(1)
    .map((x) => Number(x ?? 0)) as number[];
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth) return null;
  if (hour! > 23 || minute! > 59 || second! > 59 || offH! > 23 || offM! > 59) return null;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? null : ms;
}

export function parsePublishAt(v: unknown, now: number, param = "publish_at"): PublishAt | Problem {
  if (v === undefined || v === null || v === "now") return { kind: "now" };
  if (v === "next_slot") return { kind: "next_slot" };
  const ms = typeof v === "string" ? parseTime(v) : null;
  if (ms === null)
    return problem("publish_at_invalid", "publish_at must be now, next_slot or an RFC 3339 time.", param);
  if (ms > now + MAX_AHEAD_MS)
    return problem("publish_at_invalid", "publish_at is more than a year ahead.", param);
  if (ms < now - MAX_BACK_MS)
    return problem("publish_at_invalid", "publish_at is more than 15 minutes in the past.", param);
  return { kind: "at", ms: Math.max(ms, now) === now && ms < now ? now : ms };
}

export function parsePublishBy(
  v: unknown,
  now: number,
  after: number | null,
  param = "publish_by",
): number | null | Problem {
  if (v === undefined || v === null) return null;
  const ms = typeof v === "string" ? parseTime(v) : null;
  if (ms === null) return problem("publish_by_invalid", "publish_by must be an RFC 3339 time.", param);
  if (ms <= now) return problem("publish_by_invalid", "publish_by must be in the future.", param);
  if (after !== null && ms <= after)
    return problem("publish_by_invalid", "publish_by must be after publish_at.", param);
  return ms;
}

export const isProblem = (x: unknown): x is Problem =>
  typeof x === "object" && x !== null && "code" in x && "message" in x;
