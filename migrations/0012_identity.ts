// Identity: CLI device sign-in (RFC 8628), password reset links, invitations, and the outbox of account notices.
// Every secret (device code, user code, reset and invitation tokens) is stored only as its SHA-256 hash.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "identity",
  up: () => [
    `CREATE TABLE device_authorizations (
      id TEXT PRIMARY KEY,
      device_code_hash TEXT NOT NULL UNIQUE,
      user_code_hash TEXT NOT NULL UNIQUE,
      device_name TEXT NOT NULL,
      livemode INTEGER NOT NULL,
      client_ip TEXT,
      status TEXT NOT NULL,
      interval_s INTEGER NOT NULL,
      last_polled_at BIGINT,
      user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
      org_id TEXT REFERENCES orgs(id) ON DELETE CASCADE,
      via_sso INTEGER NOT NULL DEFAULT 0,
      token_id TEXT,
      decided_at BIGINT,
      expires_at BIGINT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    `CREATE INDEX device_authorizations_expires ON device_authorizations (expires_at)`,
    `CREATE TABLE password_resets (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      token_hash TEXT NOT NULL UNIQUE,
      expires_at BIGINT NOT NULL,
      used_at BIGINT,
      created_at BIGINT NOT NULL
    )`,
    `CREATE INDEX password_resets_user ON password_resets (user_id)`,
    `CREATE TABLE invitations (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      email TEXT NOT NULL,
      role TEXT NOT NULL,
      token_hash TEXT NOT NULL UNIQUE,
      invited_by TEXT,
      emailed INTEGER NOT NULL DEFAULT 0,
      expires_at BIGINT NOT NULL,
      accepted_at BIGINT,
      accepted_by TEXT,
      revoked_at BIGINT,
      created_at BIGINT NOT NULL
    )`,
    `CREATE INDEX invitations_org ON invitations (org_id, id)`,
    // Account notices: written in the transaction of the change they report, sent right after it commits and
    // retried by the mail.send task. They carry no secret (reset and invitation mails are sent directly).
    `CREATE TABLE mail_outbox (
      id TEXT PRIMARY KEY,
      user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
      to_address TEXT NOT NULL,
      kind TEXT NOT NULL,
      subject TEXT NOT NULL,
      body_text TEXT NOT NULL,
      body_html TEXT NOT NULL,
      status TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at BIGINT,
      last_error TEXT,
      created_at BIGINT NOT NULL,
      sent_at BIGINT
    )`,
    `CREATE INDEX mail_outbox_due ON mail_outbox (status, next_attempt_at)`,
  ],
} satisfies Migration;
