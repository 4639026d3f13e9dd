// When a published target's engagement is read (reference §5): 1 h, 6 h, 1 d, 3 d, 7 d and 30 d after publishing.
// A failed reading is tried again later, a bounded number of times, then that reading is skipped.
const HOUR = 3600_000;
const DAY = 24 * HOUR;

export const READING_OFFSETS_MS = [HOUR, 6 * HOUR, DAY, 3 * DAY, 7 * DAY, 30 * DAY] as const;
/** Tries per scheduled reading before it is skipped. */
export const MAX_FAILURES = 5;
const RETRY_BASE_MS = 5 * 60_000;
const RETRY_CAP_MS = 2 * HOUR;

/** When reading number `taken` (0-based: how many are done) is due; null when all are taken. */
export function readingDueAt(publishedAt: number, taken: number): number | null {
  const offset = READING_OFFSETS_MS[taken];
  return offset === undefined ? null : publishedAt + offset;
}

/** When to try a failed reading again: 5 min doubling, capped at 2 h. */
export function retryAt(now: number, failures: number): number {
  return now + Math.min(RETRY_BASE_MS * 2 ** Math.max(0, failures - 1), RETRY_CAP_MS);
}
