// The order the SSE stream reads events in, with a cursor that resumes with no gap and no duplicate.
//
// SQLite has one writer at a time, so `seq` order is commit order. On Postgres a transaction can take a lower
// seq and commit after a higher one is already visible, so seq alone would skip it. Each event row records its
// inserting transaction's ID (`tx`), and the feed reads in (tx, seq) order only the rows of transactions older
// than the oldest one still running (the snapshot's xmin). Every transaction below that bound has ended, so no row
// can later appear behind the cursor. The price: an event waits while an older transaction is still open.
import type { App } from "../../app/context.ts";
import { eventCursor } from "../../db/sql/event-cursor.ts";
import { eventFeedAfter, type FeedRow } from "../../db/sql/event-feed-after.ts";
import { eventFeedHead } from "../../db/sql/event-feed-head.ts";
import { run } from "../../db/sql/statement.ts";

export type { FeedRow };

export interface Cursor {
  tx: number;
  seq: number;
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
  const rows = await run(app.db, app.dialect, eventFeedHead, [orgId, livemode ? 1 : 0]);
  const head = rows[0]!;
  const skip = new Set(rows.flatMap((row) => (row.id ? [row.id] : [])));
  return { cursor: { tx: num(head.tx), seq: num(head.seq ?? 0) }, skip };
}

/** The cursor of one event of this org and mode, or null when there is none. */
export async function cursorOf(
  app: App,
  orgId: string,
  livemode: boolean,
  eventId: string,
): Promise<Cursor | null> {
  const [row] = await run(app.db, app.dialect, eventCursor, [eventId, orgId, livemode ? 1 : 0]);
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
  const rows = await run(app.db, app.dialect, eventFeedAfter, [
    orgId,
    livemode ? 1 : 0,
    c.tx,
    c.tx,
    c.seq,
    limit,
  ]);
  return rows.map((row) => ({
    ...row,
    tx: num(row.tx),
    seq: num(row.seq),
    created_at: num(row.created_at),
  }));
}
