// Engagement (and the settlement of uncertain attempts): one row per published target (its state, its latest counts, when it is read next) and one row per
// reading. A row is written when the target is published; `engagement.collect` reads the due ones 1 h, 6 h, 1 d,
// 3 d, 7 d and 30 d after publishing. Kept beside post_targets rather than in it, so the publish queue's rows and
// their prepared statements do not change, and reading never touches a row the queue is claiming.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "engagement",
  up: () => [
    `CREATE TABLE target_engagement (
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
    )`,
    // The collector's walk: rows still collecting, by when they are due.
    `CREATE INDEX target_engagement_due ON target_engagement (next_read_at) WHERE state = 'collecting'`,
    // Summaries: an org and mode's targets published in a window.
    `CREATE INDEX target_engagement_org ON target_engagement (org_id, livemode, published_at)`,
    `CREATE TABLE engagement_readings (
      id TEXT PRIMARY KEY,
      target_id TEXT NOT NULL REFERENCES post_targets(id) ON DELETE CASCADE,
      org_id TEXT NOT NULL,
      read_at BIGINT NOT NULL,
      likes BIGINT NOT NULL,
      reposts BIGINT NOT NULL,
      replies BIGINT NOT NULL,
      quotes BIGINT NOT NULL,
      views BIGINT
    )`,
    `CREATE INDEX engagement_readings_target ON engagement_readings (target_id, read_at)`,
    // How an uncertain attempt was settled by looking for the post on the network (JSON; null when it was not).
    `ALTER TABLE post_attempts ADD COLUMN settlement TEXT`,
  ],
} satisfies Migration;
