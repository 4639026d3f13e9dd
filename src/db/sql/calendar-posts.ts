// The calendar's reads (domain/posts/month.ts, calendar-rows.ts). A month shows each day's first few posts and how
// many the day has: on a busy brand thousands, so each day's count is taken from posts_brand_time by the database
// (one scalar subquery a day, all in one statement) and only the shown posts' rows come back, also in one
// statement. Reading every time in the month to count them here cost more than the rest of the page.
// Hand-written: the query builder's trees for hundreds of parameters cost more than the reads themselves.
import { marks } from "../raw.ts";
import { shaped } from "./statement.ts";

const DAY_POSTS =
  "FROM posts WHERE org_id = ? AND livemode = ? AND brand_id = ? AND publish_at >= ? AND publish_at < ?";

/** How many of the brand's posts each of `days` days holds: (org, mode, brand, start, end) per day; c0, c1, … */
export const monthDayCounts = shaped<[days: number], unknown[], Record<string, number>>(
  (days) =>
    `SELECT ${Array.from({ length: days }, (_, i) => `(SELECT count(*) ${DAY_POSTS}) AS c${i}`).join(", ")}`,
  [2],
);

/**
 * What a calendar shows of the brand's posts at each of `days` days' first `per` times, in time and ID order:
 * (org, mode, brand), then (org, mode, brand, start, end) per day. The times come from the index alone; ordering
 * a day's rows by ID as well would read every row of the day. Posts sharing a time come together (more than `per`
 * a day when they tie): the caller cuts each day to its first `per`.
 */
export const monthDayFirsts = shaped<
  [days: number, per: number],
  unknown[],
  { id: string; status: string; publish_at: number; slot: number }
>(
  (days, per) =>
    `SELECT id, status, publish_at, slot FROM posts WHERE org_id = ? AND livemode = ? AND brand_id = ?
      AND publish_at IN (${Array.from(
        { length: days },
        (_, i) =>
          `SELECT publish_at FROM (SELECT publish_at ${DAY_POSTS} ORDER BY publish_at LIMIT ${per}) AS d${i}`,
      ).join(" UNION ALL ")})
    ORDER BY publish_at, id`,
  [2, 4],
);

/** What a calendar shows of the targets of `n` posts, in ID order: (…post IDs). */
export const calendarTargetsOf = shaped<
  [n: number],
  string[],
  { post_id: string; channel_id: string; channel_name: string; parts: string; attempts: number }
>(
  (n) => `SELECT post_id, channel_id, channel_name, parts, attempts FROM post_targets
    WHERE post_id IN (${marks(n)}) ORDER BY id`,
  [3],
);
