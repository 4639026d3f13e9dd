// What a collection's outcome does to an ad account or analytics source: rows stored (the next read in a day), a
// refusal (needs reauth: no more reads until it is connected again) or an outage (retried after 1, 2, 4 … hours,
// at most a day apart). The first read covers 30 days, every later one the last 7: late corrections overwrite.
import type { Refusal } from "../../platforms/insights/types.ts";

const HOUR = 3_600_000;
export const FIRST_DAYS = 30;
export const REREAD_DAYS = 7;
export const COLLECT_EVERY_MS = 24 * HOUR;
/** Rows claimed per task run, so one run stays well inside its timeout. */
export const BATCH = 50;

export const daysToRead = (collectedAt: number | null) => (collectedAt === null ? FIRST_DAYS : REREAD_DAYS);

export function afterSuccess(now: number) {
  return {
    collected_at: now,
    next_collect_at: now + COLLECT_EVERY_MS,
    collect_failures: 0,
    last_error: null,
    updated_at: now,
  };
}

export function afterRefusal(now: number, failures: number, r: Refusal) {
  if (r.kind === "refused")
    return {
      status: "needs_reauth",
      status_note: r.message.slice(0, 500),
      next_collect_at: null,
      collect_failures: failures + 1,
      last_error: r.message.slice(0, 1000),
      updated_at: now,
    };
  return {
    next_collect_at: now + Math.min(2 ** failures * HOUR, COLLECT_EVERY_MS),
    collect_failures: failures + 1,
    last_error: r.message.slice(0, 1000),
    updated_at: now,
  };
}

/** Rows in chunks small enough for either database's bound-parameter limit. */
export function chunks<T>(rows: T[], size = 400): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}
