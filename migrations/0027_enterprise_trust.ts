// Enterprise trust. install_keys: secrets of the install itself (the key media links and pre-sessions are derived
// from when the master key sits in a key service that hands out no key material), wrapped like data keys. Single
// sign-on: an org's OIDC provider (secret sealed with the org's data key), its domains proven by a TXT record, the
// sign-ins under way (state, nonce, PKCE verifier; one use), whether the org requires it, and which sessions and
// CLI tokens came through it. Expand only: new tables and nullable or defaulted columns the previous release
// ignores.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "enterprise_trust",
  up: () => [
    `CREATE TABLE install_keys (
      id TEXT PRIMARY KEY,
      master_key_id TEXT NOT NULL,
      wrapped TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      rotated_at BIGINT
    )`,
    `CREATE TABLE sso_providers (
      org_id TEXT PRIMARY KEY REFERENCES orgs(id) ON DELETE CASCADE,
      issuer TEXT NOT NULL,
      client_id TEXT NOT NULL,
      client_secret TEXT NOT NULL,
      default_role TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    )`,
    `CREATE TABLE sso_domains (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      domain TEXT NOT NULL,
      token TEXT NOT NULL,
      verified_at BIGINT,
      created_at BIGINT NOT NULL,
      UNIQUE (org_id, domain)
    )`,
    // A domain signs in to one org: at most one verified row per domain across the install.
    "CREATE UNIQUE INDEX sso_domains_verified ON sso_domains (domain) WHERE verified_at IS NOT NULL",
    `CREATE TABLE sso_logins (
      state_hash TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      email TEXT NOT NULL,
      nonce TEXT NOT NULL,
      code_verifier TEXT NOT NULL,
      break_glass INTEGER NOT NULL DEFAULT 0,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL
    )`,
    "CREATE INDEX sso_logins_expires ON sso_logins (expires_at)",
    "ALTER TABLE web_sessions ADD COLUMN sso_org_id TEXT",
    // An owner's audited password sign-in to an org that requires single sign-on (break-glass).
    "ALTER TABLE web_sessions ADD COLUMN sso_break_glass INTEGER NOT NULL DEFAULT 0",
  ],
} satisfies Migration;
