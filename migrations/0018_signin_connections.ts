// Sign-in connections (reference §5 "OAuth connect"). connect_states: one row per sign-in a person started: only
// the state's SHA-256 is stored, with the PKCE verifier sealed; it is claimed once (used_at) within 15 minutes,
// then holds the network's tokens (sealed) and the accounts offered until the person picks which become channels.
// channel_grants: what a channel connected by sign-in keeps beside its sealed tokens: the app it came through (no
// foreign key: removing the app leaves the channel working until renewal), the network's account ID (so
// reconnecting the same account keeps the channel), and when its access token expires (channels.refresh reads
// the index on it).
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "signin_connections",
  up: () => [
    `CREATE TABLE connect_states (
      id TEXT PRIMARY KEY,
      state_hash TEXT NOT NULL UNIQUE,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      user_id TEXT NOT NULL,
      brand_id TEXT NOT NULL,
      provider TEXT NOT NULL,
      app_id TEXT NOT NULL,
      channel_id TEXT,
      code_verifier TEXT,
      tokens TEXT,
      accounts TEXT,
      expires_at BIGINT NOT NULL,
      used_at BIGINT,
      created_at BIGINT NOT NULL
    )`,
    `CREATE INDEX connect_states_expires ON connect_states (expires_at)`,
    `CREATE TABLE channel_grants (
      channel_id TEXT PRIMARY KEY REFERENCES channels(id) ON DELETE CASCADE,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      provider TEXT NOT NULL,
      app_id TEXT NOT NULL,
      account_key TEXT NOT NULL,
      token_expires_at BIGINT,
      refreshed_at BIGINT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    )`,
    `CREATE INDEX channel_grants_expiry ON channel_grants (token_expires_at)`,
    `CREATE INDEX channel_grants_account ON channel_grants (org_id, provider, account_key)`,
  ],
} satisfies Migration;
