// Table types of sign-in connections: developer apps (migration 0017), sign-ins under way and what a channel
// connected by sign-in keeps (0018), with the claim of a renewal in flight (0023).
import type { ColumnType } from "kysely";

/** Nullable, and left out of an insert (null). */
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface DeveloperAppsTable {
  id: string;
  /** The org that registered it; null for an install app, offered to every org. */
  org_id: string | null;
  provider: string;
  name: string;
  client_id: string;
  /** Sealed: with the org's data key for an org app, with the master key for an install app. */
  client_secret: string;
  created_at: number;
  updated_at: number;
}

export interface ConnectStatesTable {
  /** A random handle for the account-choice page (never the state itself). */
  id: string;
  /** SHA-256 (hex) of the `state` sent to the network; the state itself is never stored. */
  state_hash: string;
  org_id: string;
  user_id: string;
  brand_id: string;
  provider: string;
  app_id: string;
  /** The channel being reconnected, if the sign-in was started from one. */
  channel_id: string | null;
  /** The PKCE verifier, sealed to (connect_states, id, code_verifier); null where the network takes no PKCE. */
  code_verifier: string | null;
  /** The network's tokens, sealed, once the callback exchanged the code. */
  tokens: string | null;
  /** JSON list of the accounts offered (SignInAccount[]), once the callback listed them. */
  accounts: string | null;
  expires_at: number;
  /** Set when the callback claimed the state: a second callback with it is connect_expired. */
  used_at: number | null;
  created_at: number;
}

/** Units of a network's daily quota an app has spent on one day (migration 0030). */
export interface AppQuotaTable {
  app_id: string;
  /** The network's day, YYYY-MM-DD in its time zone. */
  day: string;
  units: number;
  updated_at: number;
}

export interface ChannelGrantsTable {
  channel_id: string;
  org_id: string;
  provider: string;
  app_id: string;
  /** The network's ID of the account (user, Page, board). */
  account_key: string;
  /** When the stored access token expires; null when it does not. */
  token_expires_at: number | null;
  refreshed_at: number | null;
  /** The fencing token of the renewal in flight (migration 0023), null when none is. */
  renew_claim: Optional<string>;
  /** When that renewal's claim lapses, so a worker killed mid-renewal does not hold the channel for ever. */
  renew_claimed_until: Optional<number>;
  created_at: number;
  updated_at: number;
}

export interface ConnectTables {
  developer_apps: DeveloperAppsTable;
  app_quota: AppQuotaTable;
  connect_states: ConnectStatesTable;
  channel_grants: ChannelGrantsTable;
}
