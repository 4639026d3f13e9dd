// Device sign-in, password resets, invitations and the account-notice outbox (migrations/0012_identity.ts).
import type { Bool } from "./bool.ts";

export type DeviceStatus = "pending" | "approved" | "denied" | "used";

export interface DeviceAuthorizationsTable {
  id: string;
  /** SHA-256 of the device code the CLI polls with. */
  device_code_hash: string;
  /** SHA-256 of the normalised user code (XXXXXXXX, no dash) the person types. */
  user_code_hash: string;
  device_name: string;
  livemode: Bool;
  client_ip: string | null;
  status: DeviceStatus;
  /** Polling interval in seconds; raised by 5 after each slow_down (RFC 8628 §3.5). */
  interval_s: number;
  last_polled_at: number | null;
  /** Who approved or denied, in which org (for the audit row). */
  user_id: string | null;
  org_id: string | null;
  via_sso: Bool;
  /** The user token handed out when the CLI collected it. */
  token_id: string | null;
  decided_at: number | null;
  expires_at: number;
  created_at: number;
}

export interface PasswordResetsTable {
  id: string;
  user_id: string;
  token_hash: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface InvitationsTable {
  id: string;
  org_id: string;
  email: string;
  role: string;
  token_hash: string;
  invited_by: string | null;
  emailed: Bool;
  expires_at: number;
  accepted_at: number | null;
  accepted_by: string | null;
  revoked_at: number | null;
  created_at: number;
  /** SHA-256 of the address proof mailed to the invited address; null until one is mailed. */
  proof_hash: string | null;
  proof_sent_at: number | null;
}

export type MailStatus = "pending" | "sent" | "failed";

export interface MailOutboxTable {
  id: string;
  user_id: string | null;
  to_address: string;
  kind: string;
  subject: string;
  body_text: string;
  body_html: string;
  status: MailStatus;
  attempts: number;
  next_attempt_at: number | null;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
  /** Extra headers as a JSON object (List-Unsubscribe on notification emails); null for none. */
  headers?: string | null;
}

export interface IdentityTables {
  device_authorizations: DeviceAuthorizationsTable;
  password_resets: PasswordResetsTable;
  invitations: InvitationsTable;
  mail_outbox: MailOutboxTable;
}
