// Webhooks: endpoints (secrets sealed), the delivery outbox and its attempt log; and on events the committing
// transaction's ID, which lets the SSE stream resume with no gap on Postgres (see src/domain/events/feed.ts).
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "webhooks",
  up: (d) => [
    `CREATE TABLE webhook_endpoints (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      livemode INTEGER NOT NULL,
      url TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      enabled_events TEXT NOT NULL,
      status TEXT NOT NULL,
      disabled_reason TEXT,
      secret TEXT NOT NULL,
      previous_secret TEXT,
      previous_secret_until BIGINT,
      failing_since BIGINT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    )`,
    `CREATE INDEX webhook_endpoints_org ON webhook_endpoints (org_id, livemode, id)`,
    `CREATE INDEX webhook_endpoints_failing ON webhook_endpoints (failing_since)`,
    // The outbox: one row per event and subscribed endpoint, written in the event's transaction.
    `CREATE TABLE webhook_deliveries (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      livemode INTEGER NOT NULL,
      endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
      event_id TEXT NOT NULL,
      event_type TEXT NOT NULL,
      status TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at BIGINT,
      leased_until BIGINT,
      lease_owner TEXT,
      response_status INTEGER,
      response_body TEXT,
      error TEXT,
      duration_ms INTEGER,
      last_attempt_at BIGINT,
      created_at BIGINT NOT NULL
    )`,
    `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at)`,
    `CREATE INDEX webhook_deliveries_lease ON webhook_deliveries (status, leased_until)`,
    `CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id)`,
    `CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at)`,
    `CREATE TABLE webhook_attempts (
      id TEXT PRIMARY KEY,
      delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
      org_id TEXT NOT NULL,
      attempt INTEGER NOT NULL,
      started_at BIGINT NOT NULL,
      response_status INTEGER,
      response_body TEXT,
      error TEXT,
      duration_ms INTEGER NOT NULL
    )`,
    `CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, id)`,
    // Postgres: the inserting transaction's ID (rows before this migration read 0). Setting the default after
    // adding the column keeps both steps instant: no table rewrite.
    `ALTER TABLE events ADD COLUMN tx BIGINT NOT NULL DEFAULT 0`,
    ...(d === "postgres"
      ? [
          `ALTER TABLE events ALTER COLUMN tx SET DEFAULT (pg_current_xact_id()::text::bigint)`,
          `CREATE INDEX events_feed ON events (org_id, livemode, tx, seq)`,
        ]
      : []),
  ],
} satisfies Migration;
