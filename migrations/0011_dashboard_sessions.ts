// The dashboard's sign-in: browser sessions (stored by the hash of the cookie), the account lockout counted in
// the database (so every process sees the same count), and the second factors: a TOTP secret (sealed with the
// master key), one-time recovery codes (hashes) and passkeys (WebAuthn public keys).
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "dashboard_sessions",
  up: () => [
    `CREATE TABLE web_sessions (
      id TEXT PRIMARY KEY,
      hash TEXT NOT NULL UNIQUE,
      user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
      stage TEXT NOT NULL,
      org_id TEXT REFERENCES orgs(id) ON DELETE SET NULL,
      livemode INTEGER NOT NULL DEFAULT 0,
      confirmed_at BIGINT,
      challenge TEXT,
      ip TEXT,
      user_agent TEXT,
      created_at BIGINT NOT NULL,
      last_seen_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      revoked_at BIGINT
    )`,
    `CREATE INDEX web_sessions_user ON web_sessions (user_id, created_at)`,
    `CREATE INDEX web_sessions_expires ON web_sessions (expires_at)`,
    `CREATE TABLE sign_in_failures (
      user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      failures INTEGER NOT NULL,
      locked_until BIGINT,
      updated_at BIGINT NOT NULL
    )`,
    `CREATE TABLE user_totp (
      user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      secret TEXT NOT NULL,
      enabled_at BIGINT,
      last_step BIGINT,
      created_at BIGINT NOT NULL
    )`,
    `CREATE TABLE recovery_codes (
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      hash TEXT NOT NULL,
      used_at BIGINT,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (user_id, hash)
    )`,
    `CREATE TABLE passkeys (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      public_key TEXT NOT NULL,
      counter BIGINT NOT NULL,
      transports TEXT,
      created_at BIGINT NOT NULL,
      last_used_at BIGINT
    )`,
    `CREATE INDEX passkeys_user ON passkeys (user_id)`,
  ],
} satisfies Migration;
