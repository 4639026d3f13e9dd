// Mail accounts (migrations/0033_newsletters.ts). No subscriber address is ever stored: the provider keeps them.
import type { Bool } from "./bool.ts";

export interface MailAccountsTable {
  id: string;
  org_id: string;
  livemode: Bool;
  brand_id: string;
  provider: string;
  /** The provider's own name for the account (Brevo: the account's email), so one is connected once per brand. */
  account_ref: string;
  display_name: string;
  /** JSON object of the non-secret connection fields. */
  settings: string;
  /** JSON object of the secret fields, sealed to this row and column; null when the provider has none. */
  secrets: string | null;
  from_name: string;
  from_email: string;
  reply_to: string | null;
  /** JSON array of the provider's audience IDs (strings). */
  default_audiences: string;
  status: "active" | "needs_reauth";
  created_at: number;
  updated_at: number;
}

/** A medium kept by something other than a post (`holder`: `logo:<brand id>`, or a newsletter issue's ID). */
export interface MediaHoldsTable {
  media_id: string;
  holder: string;
  created_at: number;
}

export interface NewsletterTables {
  mail_accounts: MailAccountsTable;
  media_holds: MediaHoldsTable;
}
