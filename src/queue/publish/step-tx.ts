// The transaction a publish step runs in. On Postgres it starts with planner settings local to it: the claim must
// walk the due index in order and probe each candidate's channel lock, channel and org by key, and the planner
// chooses otherwise when statistics lag a queue's churn (channel_locks turns over every batch; a bulk-loaded queue
// has none yet): a sequential scan and sort of every queued row, seconds per claim (measured: 100,000 queued
// targets drained at 136/s). The settings go in the same round trip as BEGIN, and the step's statements are
// prepared (src/db/raw.ts), so their plans are made under these settings.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { raw } from "../../db/raw.ts";

export const BEGIN_PG =
  "BEGIN; SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off; SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off";

// Our IDs (prefix, underscore, base32): safe to write into the statement as literals.
const ID = /^[a-z]+_[0-9a-z]+$/;

/**
 * Runs a step. `lockPosts`: posts whose row locks the step needs before it reads their targets
 * (domain/posts/lock.ts); on Postgres they are taken in the same message as BEGIN, one round trip less, and `fn`
 * is told so (`postsLocked`). SQLite needs no lock (BEGIN IMMEDIATE).
 */
export async function inStepTx<T>(
  app: App,
  fn: (tx: Tx, postsLocked: boolean) => Promise<T>,
  lockPosts: readonly string[] = [],
): Promise<T> {
  if (app.dialect !== "postgres") return app.db.transaction().execute((tx) => fn(tx, true));
  const ids = [...new Set(lockPosts)].sort();
  const inline = ids.length > 0 && ids.every((id) => ID.test(id));
  const begin = inline
    ? `${BEGIN_PG}; SELECT id FROM posts WHERE id IN (${ids.map((id) => `'${id}'`).join(", ")}) ORDER BY id FOR NO KEY UPDATE`
    : BEGIN_PG;
  return app.db.connection().execute(async (db) => {
    // No parameters: one simple-protocol message carries BEGIN, the settings and the posts' locks.
    await raw(db, "postgres", begin, []);
    try {
      // A connection we opened a transaction on ourselves: to the step's functions it is their transaction.
      const out = await fn(db as unknown as Tx, inline || ids.length === 0);
      await raw(db, "postgres", "COMMIT", []);
      return out;
    } catch (e) {
      await raw(db, "postgres", "ROLLBACK", []).catch(() => {});
      throw e;
    }
  });
}
