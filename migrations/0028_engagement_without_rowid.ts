// One B-tree fewer for each published target on SQLite: target_engagement becomes a WITHOUT ROWID table keyed by
// its target, so a row is stored once, in the key's B-tree, instead of in the table and again in the key's index
// (as 0007 did for attempt rows and channel locks). The publish worker writes a row for every target it
// publishes, and every page a step dirties is copied into the log at its commit and synced before the step's
// adapter calls. The rebuild copies every row with the write lock held, so writers wait for it during the
// upgrade. Postgres keeps its table (it has no rowid to save).
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "engagement_without_rowid",
  up: (d) =>
    d === "sqlite"
      ? [
          `CREATE TABLE target_engagement_new (
            target_id TEXT PRIMARY KEY REFERENCES post_targets(id) ON DELETE CASCADE,
            org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
            livemode INTEGER NOT NULL,
            post_id TEXT NOT NULL,
            channel_id TEXT NOT NULL,
            provider TEXT NOT NULL,
            state TEXT NOT NULL,
            likes BIGINT NOT NULL DEFAULT 0,
            reposts BIGINT NOT NULL DEFAULT 0,
            replies BIGINT NOT NULL DEFAULT 0,
            quotes BIGINT NOT NULL DEFAULT 0,
            views BIGINT,
            published_at BIGINT NOT NULL,
            readings INTEGER NOT NULL DEFAULT 0,
            failures INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            read_at BIGINT,
            next_read_at BIGINT,
            updated_at BIGINT NOT NULL
          ) WITHOUT ROWID`,
          `INSERT INTO target_engagement_new (target_id, org_id, livemode, post_id, channel_id, provider, state, likes,
            reposts, replies, quotes, views, published_at, readings, failures, last_error, read_at, next_read_at, updated_at)
            SELECT target_id, org_id, livemode, post_id, channel_id, provider, state, likes, reposts, replies, quotes,
              views, published_at, readings, failures, last_error, read_at, next_read_at, updated_at
            FROM target_engagement`,
          `DROP TABLE target_engagement`,
          `ALTER TABLE target_engagement_new RENAME TO target_engagement`,
          `CREATE INDEX target_engagement_due ON target_engagement (next_read_at) WHERE state = 'collecting'`,
          `CREATE INDEX target_engagement_org ON target_engagement (org_id, livemode, published_at)`,
        ]
      : [],
} satisfies Migration;
