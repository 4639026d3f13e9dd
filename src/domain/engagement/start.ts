// Engagement starts when a target is published: its row is written in the transaction that records the
// publication (the worker's outcome, a settled uncertain attempt, or a person marking it published).
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { type PendingWrites, raw } from "../../db/raw.ts";
import type { PostTargetsTable } from "../../db/tables/posts.ts";
import { adapterFor } from "../../platforms/adapter-registry.ts";
import { readingDueAt } from "./schedule.ts";

type Published = Pick<
  PostTargetsTable,
  "id" | "org_id" | "livemode" | "post_id" | "channel_id" | "provider" | "published_at"
>;

// Plain SQL text: the publish worker writes these for every batch of outcomes, and building the query builder's
// tree for 19 columns a row cost more than the insert. Counts start at zero, with no reading taken yet.
const COLUMNS = `target_id, org_id, livemode, post_id, channel_id, provider, state, published_at, next_read_at, updated_at,
  likes, reposts, replies, quotes, views, readings, failures, last_error, read_at`;
const ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, 0, NULL, 0, 0, NULL, NULL)";
const texts = new Map<number, string>();
function insertText(rows: number): string {
  let t = texts.get(rows);
  if (t === undefined) {
    t = `INSERT INTO target_engagement (${COLUMNS}) VALUES ${Array.from({ length: rows }, () => ROW).join(", ")}
      ON CONFLICT (target_id) DO NOTHING`;
    texts.set(rows, t);
  }
  return t;
}
/** Postgres: arrays rather than rows, so one prepared text serves any number of targets. */
const INSERT_PG = `INSERT INTO target_engagement (${COLUMNS})
  SELECT *, 0, 0, 0, 0, NULL::bigint, 0, 0, NULL::text, NULL::bigint
  FROM unnest(?::text[], ?::text[], ?::int[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::bigint[])
  ON CONFLICT (target_id) DO NOTHING`;

export async function startEngagement(
  tx: Tx,
  app: App,
  targets: Published[],
  /** Postgres: hand the insert to the transaction's next statement (see PendingWrites). */
  pending?: PendingWrites,
): Promise<void> {
  if (targets.length === 0) return;
  const now = app.clock.now();
  const cols: unknown[][] = [[], [], [], [], [], [], [], [], [], []];
  for (const t of targets) {
    const publishedAt = t.published_at ?? now;
    // A network whose adapter reads nothing reports nothing: its targets are `unsupported` from the start.
    const reads = adapterFor(t.provider)?.engagement !== undefined;
    const row = [
      t.id,
      t.org_id,
      t.livemode,
      t.post_id,
      t.channel_id,
      t.provider,
      reads ? "collecting" : "unsupported",
      publishedAt,
      reads ? readingDueAt(publishedAt, 0) : null,
      now,
    ];
    for (let i = 0; i < row.length; i++) cols[i]!.push(row[i]);
  }
  if (app.dialect === "postgres") {
    if (pending) {
      pending.texts.push(INSERT_PG);
      pending.params.push(...cols);
    } else await raw(tx, app.dialect, INSERT_PG, cols);
    return;
  }
  const params: unknown[] = [];
  for (let r = 0; r < targets.length; r++) for (const c of cols) params.push(c[r]);
  await raw(tx, app.dialect, insertText(targets.length), params);
}
