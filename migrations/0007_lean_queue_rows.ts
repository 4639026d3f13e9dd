// Fewer B-trees to write for each published target on SQLite, where every page a publish step dirties is copied
// into the WAL at its commit (COMMIT was a fifth of a publish step's SQLite time):
// - channel_locks and post_attempts become WITHOUT ROWID tables keyed by their primary key: a row is stored once,
//   in the key's B-tree, instead of in the table and again in the key's index. The rebuild copies every attempt
//   row with the write lock held (a million rows: 0.8 s in memory on the project machine, more on disk), so
//   writers wait for it during the upgrade.
// - events loses its created_at index: IDs sort by creation time, so events.prune deletes by ID range. (The
//   previous release's prune still works without it, by a scan, once an hour.)
// - The due index carries the channel and org of each queued target, so the claim's candidate scan reads the
//   index alone; channels and orgs that cannot be published to get small partial indexes, so the claim reads them
//   once per claim instead of probing both tables for every candidate.
// Postgres keeps its tables (it has no rowid to save) and its due index (its claim is planned differently), and
// drops events_created like SQLite.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "lean_queue_rows",
  up: (d) => [
    `DROP INDEX events_created`,
    ...(d === "sqlite"
      ? [
          `CREATE TABLE channel_locks_new (
            channel_id TEXT PRIMARY KEY,
            target_id TEXT NOT NULL,
            leased_until BIGINT NOT NULL
          ) WITHOUT ROWID`,
          `INSERT INTO channel_locks_new (channel_id, target_id, leased_until)
            SELECT channel_id, target_id, leased_until FROM channel_locks`,
          `DROP TABLE channel_locks`,
          `ALTER TABLE channel_locks_new RENAME TO channel_locks`,
          `CREATE TABLE post_attempts_new (
            id TEXT PRIMARY KEY,
            org_id TEXT NOT NULL,
            target_id TEXT NOT NULL REFERENCES post_targets(id) ON DELETE CASCADE,
            attempt INTEGER NOT NULL,
            started_at BIGINT NOT NULL,
            finished_at BIGINT,
            outcome TEXT NOT NULL,
            error_code TEXT,
            error_message TEXT,
            UNIQUE (target_id, attempt)
          ) WITHOUT ROWID`,
          `INSERT INTO post_attempts_new (id, org_id, target_id, attempt, started_at, finished_at, outcome, error_code, error_message)
            SELECT id, org_id, target_id, attempt, started_at, finished_at, outcome, error_code, error_message FROM post_attempts`,
          `DROP TABLE post_attempts`,
          `ALTER TABLE post_attempts_new RENAME TO post_attempts`,
          `DROP INDEX post_targets_due`,
          `CREATE INDEX post_targets_due ON post_targets (next_attempt_at, id, channel_id, org_id) WHERE status = 'queued'`,
          `CREATE INDEX channels_unavailable ON channels (id) WHERE status <> 'active' OR rate_limited_until IS NOT NULL`,
          `CREATE INDEX orgs_suspended ON orgs (id) WHERE status = 'suspended'`,
        ]
      : []),
  ],
} satisfies Migration;
