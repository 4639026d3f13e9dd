// Channels (accounts on networks, one brand and one mode each) and the sandbox network's published posts.
// Secret connect fields are sealed into `secrets`; `settings` holds only the fields that may be shown.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "channels",
  up: () => [
    `CREATE TABLE channels (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      brand_id TEXT NOT NULL,
      livemode INTEGER NOT NULL,
      provider TEXT NOT NULL,
      emulates TEXT,
      display_name TEXT NOT NULL,
      handle TEXT,
      profile_url TEXT,
      settings TEXT NOT NULL,
      secrets TEXT,
      status TEXT NOT NULL,
      status_note TEXT,
      checked_at BIGINT,
      check_error TEXT,
      rate_limited_until BIGINT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      FOREIGN KEY (org_id, brand_id) REFERENCES brands(org_id, id) ON DELETE CASCADE
    )`,
    // Every read is by org and mode, usually by brand; id last so a list pages without a sort.
    `CREATE INDEX channels_org ON channels (org_id, livemode, brand_id, id)`,
    // A retry after an uncertain attempt may post a part again, as a real network without idempotency would:
    // the attempt is part of the key so that second copy is kept, not refused.
    `CREATE TABLE sandbox_posts (
      target_id TEXT NOT NULL,
      attempt INTEGER NOT NULL,
      part_index INTEGER NOT NULL,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      channel_id TEXT NOT NULL,
      text TEXT NOT NULL,
      media TEXT NOT NULL,
      remote_id TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (target_id, attempt, part_index)
    )`,
  ],
} satisfies Migration;
