// YouTube's quota, as data: an upload (videos.insert) costs 1,600 of the 10,000 units a developer app gets a day,
// and the day is Pacific time: the units come back at midnight in Los Angeles
// (developers.google.com/youtube/v3/determine_quota_cost; /youtube/v3/getting-started#quota).
export interface UploadQuota {
  /** Units one upload costs. */
  units: number;
  /** Units an app has a day. */
  daily: number;
  /** The time zone whose midnight gives the units back. */
  timeZone: string;
  /** The least a held channel waits (reference §5: retry after at least an hour). */
  minWaitMs: number;
}

export const youtubeQuota: UploadQuota = {
  units: 1600,
  daily: 10_000,
  timeZone: "America/Los_Angeles",
  minWaitMs: 3600_000,
};

const HOUR = 3600_000;

/** The quota's day at `now`, as YYYY-MM-DD in its time zone. */
export function quotaDay(now: number, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(now);
}

/** Epoch ms of the next midnight in the time zone (daylight saving days are 23 or 25 hours long). */
export function nextReset(now: number, timeZone: string): number {
  const today = quotaDay(now, timeZone);
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(now);
  const n = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const sinceMidnight = ((n("hour") * 60 + n("minute")) * 60 + n("second")) * 1000 + (now % 1000);
  let at = now - sinceMidnight + 24 * HOUR;
  while (quotaDay(at, timeZone) === today) at += HOUR;
  while (quotaDay(at - HOUR, timeZone) !== today) at -= HOUR;
  return at;
}

/** How long a channel waits for the quota to come back: until the reset, and at least `minWaitMs`. */
export function waitForReset(now: number, q: UploadQuota): number {
  return Math.max(q.minWaitMs, nextReset(now, q.timeZone) - now);
}
