// The appliance core: tenancy, credentials, audit, events, request log, idempotency, task leases.
// Times are epoch milliseconds (BIGINT) and JSON is TEXT on both dialects, so every query reads the same way.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "core",
  up: (d) => [
    `CREATE TABLE orgs (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'active',
      status_note TEXT,
      require_mfa INTEGER NOT NULL DEFAULT 0,
      require_sso INTEGER NOT NULL DEFAULT 0,
      limit_brands INTEGER,
      limit_channels INTEGER,
      limit_members INTEGER,
      limit_posts_per_month INTEGER,
      external_ref TEXT UNIQUE,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    )`,
    // One data key per org, wrapped by a master key; rotation rewraps without touching sealed values.
    `CREATE TABLE org_keys (
      org_id TEXT PRIMARY KEY REFERENCES orgs(id) ON DELETE CASCADE,
      master_key_id TEXT NOT NULL,
      wrapped TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      rotated_at BIGINT
    )`,
    `CREATE TABLE users (
      id TEXT PRIMARY KEY,
      email TEXT NOT NULL UNIQUE,
      name TEXT,
      password_hash TEXT,
      timezone TEXT NOT NULL DEFAULT 'UTC',
      disabled_at BIGINT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    )`,
    `CREATE TABLE members (
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      role TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (org_id, user_id)
    )`,
    `CREATE INDEX members_user ON members (user_id)`,
    `CREATE TABLE brands (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      slug TEXT NOT NULL,
      timezone TEXT NOT NULL,
      approval_policy TEXT NOT NULL,
      utm_domains TEXT NOT NULL,
      slots TEXT NOT NULL,
      email_theme TEXT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      UNIQUE (org_id, slug),
      UNIQUE (org_id, id)
    )`,
    `CREATE TABLE api_keys (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      livemode INTEGER NOT NULL,
      name TEXT NOT NULL,
      hash TEXT NOT NULL UNIQUE,
      hint TEXT NOT NULL,
      scopes TEXT,
      brand_id TEXT,
      expires_at BIGINT,
      revoked_at BIGINT,
      rolled_from TEXT,
      created_by_user TEXT,
      created_by_key TEXT,
      created_at BIGINT NOT NULL,
      last_used_at BIGINT,
      FOREIGN KEY (org_id, brand_id) REFERENCES brands(org_id, id) ON DELETE CASCADE
    )`,
    `CREATE INDEX api_keys_org ON api_keys (org_id, livemode, id)`,
    `CREATE TABLE user_tokens (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      livemode INTEGER NOT NULL,
      name TEXT NOT NULL,
      hash TEXT NOT NULL UNIQUE,
      hint TEXT NOT NULL,
      via_sso INTEGER NOT NULL DEFAULT 0,
      created_at BIGINT NOT NULL,
      last_used_at BIGINT,
      revoked_at BIGINT
    )`,
    `CREATE INDEX user_tokens_user ON user_tokens (user_id)`,
    `CREATE TABLE operator_keys (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      hash TEXT NOT NULL UNIQUE,
      hint TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      last_used_at BIGINT,
      revoked_at BIGINT
    )`,
    `CREATE TABLE audit_events (
      id TEXT PRIMARY KEY,
      org_id TEXT,
      livemode INTEGER,
      action TEXT NOT NULL,
      target TEXT,
      user_id TEXT,
      api_key_id TEXT,
      user_token_id TEXT,
      operator TEXT,
      outcome TEXT NOT NULL,
      request_id TEXT,
      detail TEXT,
      created_at BIGINT NOT NULL
    )`,
    `CREATE INDEX audit_events_org ON audit_events (org_id, id)`,
    // access.denied is written at most once per credential and route per minute, across processes.
    `CREATE TABLE audit_throttle (
      key TEXT PRIMARY KEY,
      created_at BIGINT NOT NULL
    )`,
    // seq orders the stream by insertion; IDs sort by creation time.
    `CREATE TABLE events (
      seq ${d === "postgres" ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY AUTOINCREMENT"},
      id TEXT NOT NULL UNIQUE,
      org_id TEXT NOT NULL,
      livemode INTEGER NOT NULL,
      type TEXT NOT NULL,
      request_id TEXT,
      data TEXT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    `CREATE INDEX events_org ON events (org_id, livemode, id)`,
    `CREATE INDEX events_created ON events (created_at)`,
    `CREATE TABLE request_log (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL,
      livemode INTEGER NOT NULL,
      method TEXT NOT NULL,
      path TEXT NOT NULL,
      status INTEGER NOT NULL,
      code TEXT,
      duration_ms INTEGER NOT NULL,
      api_key_id TEXT,
      user_token_id TEXT,
      created_at BIGINT NOT NULL
    )`,
    `CREATE INDEX request_log_org ON request_log (org_id, livemode, id)`,
    `CREATE INDEX request_log_created ON request_log (created_at)`,
    `CREATE TABLE idempotency_keys (
      credential_id TEXT NOT NULL,
      key TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      state TEXT NOT NULL,
      response_status INTEGER,
      response_body TEXT,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (credential_id, key)
    )`,
    `CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at)`,
    `CREATE TABLE task_leases (
      name TEXT PRIMARY KEY,
      owner TEXT,
      leased_until BIGINT,
      last_fire BIGINT,
      last_started_at BIGINT,
      last_success_at BIGINT,
      consecutive_failures INTEGER NOT NULL DEFAULT 0,
      last_error TEXT
    )`,
  ],
} satisfies Migration;
