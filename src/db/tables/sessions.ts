// The dashboard's sessions, the sign-in lockout and the second factors (migration 0011).
import type { Bool } from "./bool.ts";

/** stage: anonymous (before sign-in: holds the CSRF binding and a passkey challenge), second_factor (password
 * right, code or passkey still due), enrol (an org requires two-factor the person has not set up), active. */
export type SessionStage = "anonymous" | "second_factor" | "enrol" | "active";

export interface WebSessionsTable {
  id: string;
  hash: string;
  user_id: string | null;
  stage: SessionStage;
  org_id: string | null;
  livemode: Bool;
  confirmed_at: number | null;
  challenge: string | null;
  ip: string | null;
  user_agent: string | null;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** The org whose single sign-on this session came through (migration 0027). */
  sso_org_id?: string | null;
  /** 1: an owner's audited password sign-in past required single sign-on (break-glass). */
  sso_break_glass?: Bool;
}

export interface SignInFailuresTable {
  user_id: string;
  failures: number;
  locked_until: number | null;
  updated_at: number;
}

/** Guesses at a secret (migration 0016): see domain/identity/guesses/guard.ts. */
export interface SecretGuessesTable {
  kind: string;
  subject: string;
  /** The client address, or '*' for the count over every address. */
  address: string;
  failures: number;
  window_start: number;
  locked_until: number | null;
  updated_at: number;
}

export interface UserTotpTable {
  user_id: string;
  secret: string;
  enabled_at: number | null;
  last_step: number | null;
  created_at: number;
}

export interface RecoveryCodesTable {
  user_id: string;
  hash: string;
  used_at: number | null;
  created_at: number;
}

export interface PasskeysTable {
  id: string;
  user_id: string;
  name: string;
  public_key: string;
  counter: number;
  transports: string | null;
  created_at: number;
  last_used_at: number | null;
}

export interface SessionTables {
  web_sessions: WebSessionsTable;
  sign_in_failures: SignInFailuresTable;
  secret_guesses: SecretGuessesTable;
  user_totp: UserTotpTable;
  recovery_codes: RecoveryCodesTable;
  passkeys: PasskeysTable;
}
