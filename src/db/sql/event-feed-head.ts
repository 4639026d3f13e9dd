// Where a new SSE stream starts: just past everything already committed (domain/events/feed.ts).
import { statement } from "./statement.ts";

/**
 * One row per event to skip, or one row with a null id; every row carries the cursor (tx, seq).
 *
 * SQLite has one writer at a time, so seq order is commit order: the cursor is the highest seq (tx is 0 on every
 * row), nothing to skip, and the org and mode are not needed.
 *
 * Postgres reads in (tx, seq) order only below the oldest running transaction (the snapshot's xmin): the cursor
 * sits just below it, after every seq of that tx (9007199254740991 is Number.MAX_SAFE_INTEGER), and the org's and
 * mode's events visible already at or above it are listed to skip. One statement, so the bound and the visible
 * rows come from the same snapshot.
 */
export const eventFeedHead = statement<
  [orgId: string, livemode: number],
  { tx: number; seq: number | null; id: string | null }
>({
  sqlite: "SELECT 0 AS tx, MAX(seq) AS seq, NULL AS id FROM events",
  postgres: `WITH s AS (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS xmin)
    SELECT s.xmin - 1 AS tx, 9007199254740991 AS seq, e.id FROM s
    LEFT JOIN events e ON e.org_id = ? AND e.livemode = ? AND e.tx >= s.xmin`,
});
