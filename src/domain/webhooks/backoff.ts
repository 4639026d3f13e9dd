// When a failed delivery is tried again (reference §7): after attempt n wait 1 min, 5 min, 15 min, 30 min,
// 1 h, 2 h, 4 h, then 8 h each time; give up when the next attempt would fall more than 72 h after creation.
const MIN = 60_000;
const SCHEDULE_MS = [1, 5, 15, 30, 60, 120, 240].map((m) => m * MIN);
const LATER_MS = 8 * 60 * MIN;
export const GIVE_UP_AFTER_MS = 72 * 60 * MIN;
/** An endpoint whose every attempt failed for this long is disabled (webhooks.disable_failing). */
export const DISABLE_AFTER_MS = 72 * 60 * MIN;

/** The wait after the n-th attempt (n from 1). */
export const retryDelay = (n: number): number => SCHEDULE_MS[n - 1] ?? LATER_MS;

/** When to try again after `attempts` failed attempts, or null to give up. */
export function nextAttemptAt(createdAt: number, attempts: number, now: number): number | null {
  const next = now + retryDelay(attempts);
  return next > createdAt + GIVE_UP_AFTER_MS ? null : next;
}
