// Posts, their targets (one per channel, the queue rows), attempts, slots and per-channel publish locks.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "posts",
  up: () => [
    `CREATE TABLE posts (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      brand_id TEXT NOT NULL,
      livemode INTEGER NOT NULL,
      status TEXT NOT NULL,
      template_id TEXT,
      template_key TEXT,
      template_version INTEGER,
      data TEXT,
      content TEXT,
      publish_at BIGINT,
      publish_by BIGINT,
      slot INTEGER NOT NULL DEFAULT 0,
      metadata TEXT NOT NULL,
      media TEXT NOT NULL,
      approval_required INTEGER NOT NULL DEFAULT 0,
      reviewed_by TEXT,
      reviewed_by_key TEXT,
      reviewed_at BIGINT,
      review_note TEXT,
      created_by_key TEXT,
      created_by_user TEXT,
      search_text TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      FOREIGN KEY (org_id, brand_id) REFERENCES brands(org_id, id) ON DELETE CASCADE
    )`,
    `CREATE INDEX posts_org ON posts (org_id, livemode, id)`,
    `CREATE INDEX posts_brand ON posts (org_id, livemode, brand_id, id)`,
    `CREATE INDEX posts_month ON posts (org_id, livemode, created_at)`,
    `CREATE TABLE post_targets (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL,
      livemode INTEGER NOT NULL,
      post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
      channel_id TEXT NOT NULL,
      provider TEXT NOT NULL,
      channel_name TEXT NOT NULL,
      parts TEXT NOT NULL,
      status TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at BIGINT,
      publish_by BIGINT,
      permalink TEXT,
      error_code TEXT,
      error_message TEXT,
      published_at BIGINT,
      leased_until BIGINT,
      lease_owner TEXT,
      remote_parts TEXT NOT NULL DEFAULT '[]',
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    )`,
    // The queue: due queued targets in due order; expired leases for reclaim.
    `CREATE INDEX post_targets_due ON post_targets (status, next_attempt_at, id)`,
    `CREATE INDEX post_targets_post ON post_targets (post_id)`,
    `CREATE INDEX post_targets_lease ON post_targets (status, leased_until)`,
    `CREATE TABLE post_attempts (
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
    )`,
    // A slot instant is held by one post per brand and mode: the unique key is what makes next_slot safe.
    `CREATE TABLE post_slots (
      brand_id TEXT NOT NULL,
      livemode INTEGER NOT NULL,
      slot_time BIGINT NOT NULL,
      post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
      PRIMARY KEY (brand_id, livemode, slot_time)
    )`,
    `CREATE INDEX post_slots_post ON post_slots (post_id)`,
    // One target per channel publishes at a time: a claim takes the channel's row here first.
    `CREATE TABLE channel_locks (
      channel_id TEXT PRIMARY KEY,
      target_id TEXT NOT NULL,
      leased_until BIGINT NOT NULL
    )`,
  ],
} satisfies Migration;
