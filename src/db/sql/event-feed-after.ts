// The SSE stream's next page: events of an org and mode after a cursor, in feed order (domain/events/feed.ts).
import { statement } from "./statement.ts";

export interface FeedRow {
  tx: number;
  seq: number;
  id: string;
  type: string;
  livemode: 0 | 1;
  request_id: string | null;
  created_at: number;
  data: string;
}

const AFTER = `SELECT tx, seq, id, type, livemode, request_id, created_at, data FROM events
    WHERE org_id = ? AND livemode = ? AND (tx > ? OR (tx = ? AND seq > ?))`;

/**
 * SQLite's seq order is commit order. Postgres reads only rows of transactions older than the oldest one still
 * running (the snapshot's xmin): every transaction below it has ended, so no row can later appear behind the
 * cursor (an event waits while an older transaction is still open).
 */
export const eventFeedAfter = statement<
  [orgId: string, livemode: number, tx: number, sameTx: number, seq: number, limit: number],
  FeedRow
>({
  sqlite: `${AFTER} ORDER BY tx, seq LIMIT ?`,
  postgres: `${AFTER} AND tx < pg_snapshot_xmin(pg_current_snapshot())::text::bigint ORDER BY tx, seq LIMIT ?`,
});
