// The order the SSE stream reads events in, with a cursor that resumes with no gap and no duplicate.
//
// SQLite has one writer at a time, so `seq` order is commit order. On Postgres a transaction can take a lower
// seq and commit after a higher one is already visible, so seq alone would skip it. Each event row records its
// inserting transaction's ID (`tx`), and the feed reads in (tx, seq) order only the rows of transactions older
// than the oldest one still running (the snapshot's xmin). Every transaction below that bound has ended, so no row
// can later appear behind the cursor. The price: an event waits while an older transaction is still open.
import { sql } from "kysely";
import type { App } from "../../app/context.ts";

export interface Cursor {
  tx: number;
  seq: number;
}

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

const num = (v: unknown) => Number(v);

/**
 * Where a new stream starts: just past everything already committed. On Postgres the cursor sits below the oldest
 * running transaction, so `skip` names this org's and mode's events that are visible already but lie above it.
 */
export async function headCursor(
  app: App,
  orgId: string,
  livemode: boolean,
): Promise<{ cursor: Cursor; skip: Set<string> }> {
  if (app.dialect === "postgres") {
    // One statement, so the bound and the visible rows come from the same snapshot.
    const r = await sql<{ xmin: number; id: string | null }>`
      WITH s AS (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS xmin)
      SELECT s.xmin, e.id FROM s
      LEFT JOIN events e ON e.org_id = ${orgId} AND e.livemode = ${livemode ? 1 : 0} AND e.tx >= s.xmin`.execute(
      app.db,
    );
    const skip = new Set(r.rows.flatMap((row) => (row.id ? [row.id] : [])));
    return { cursor: { tx: num(r.rows[0]!.xmin) - 1, seq: Number.MAX_SAFE_INTEGER }, skip };
  }
  const r = await sql<{ seq: number | null }>`SELECT MAX(seq) AS seq FROM events`.execute(app.db);
  return { cursor: { tx: 0, seq: num(r.rows[0]?.seq ?? 0) }, skip: new Set() };
}

/** The cursor of one event of this org and mode, or null when there is none. */
export async function cursorOf(
  app: App,
  orgId: string,
  livemode: boolean,
  eventId: string,
): Promise<Cursor | null> {
  const r = await sql<{ tx: number; seq: number }>`
    SELECT tx, seq FROM events WHERE id = ${eventId} AND org_id = ${orgId} AND livemode = ${livemode ? 1 : 0}`.execute(
    app.db,
  );
  const row = r.rows[0];
  return row ? { tx: num(row.tx), seq: num(row.seq) } : null;
}

/** Up to `limit` events of the org and mode after the cursor, in feed order. */
export async function readAfter(
  app: App,
  orgId: string,
  livemode: boolean,
  c: Cursor,
  limit: number,
): Promise<FeedRow[]> {
  const settled =
    app.dialect === "postgres" ? sql`AND tx < pg_snapshot_xmin(pg_current_snapshot())::text::bigint` : sql``;
  const r = await sql<FeedRow>`
    SELECT tx, seq, id, type, livemode, request_id, created_at, data FROM events
    WHERE org_id = ${orgId} AND livemode = ${livemode ? 1 : 0}
      AND (tx > ${c.tx} OR (tx = ${c.tx} AND seq > ${c.seq})) ${settled}
    ORDER BY tx, seq
    LIMIT ${limit}`.execute(app.db);
  return r.rows.map((row) => ({
    ...row,
    tx: num(row.tx),
    seq: num(row.seq),
    created_at: num(row.created_at),
  }));
}
