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

export type IssueStatus =
  | "draft"
  | "pending_approval"
  | "scheduled"
  | "sending"
  | "sent"
  | "partially_sent"
  | "canceled"
  | "failed";

export interface NewslettersTable {
  id: string;
  org_id: string;
  livemode: Bool;
  brand_id: string;
  status: IssueStatus;
  subject: string;
  preview_text: string;
  /** Markdown (raw HTML is not taken: it shows as text). */
  body: string;
  send_at: number | null;
  /** When newsletters.handoff gives the deliveries to their providers; null when nothing is due. */
  handoff_due_at: number | null;
  /** While a worker hands the deliveries off: until then no other worker takes it and changes wait. */
  handoff_lease_until: number | null;
  approval_required: Bool;
  reviewed_by: string | null;
  reviewed_by_key: string | null;
  reviewed_at: number | null;
  review_note: string | null;
  created_by_user: string | null;
  created_by_key: string | null;
  created_at: number;
  updated_at: number;
}

export type DeliveryStatus =
  | "draft"
  | "held"
  | "queued"
  | "handed_off"
  | "sent"
  | "canceled"
  | "failed"
  | "needs_attention";

export interface NewsletterDeliveriesTable {
  id: string;
  newsletter_id: string;
  org_id: string;
  livemode: Bool;
  mail_account_id: string;
  /** Order as given. */
  position: number;
  /** JSON array of the provider's audience IDs. */
  audiences: string;
  status: DeliveryStatus;
  campaign_id: string | null;
  handoff_started_at: number | null;
  error: string | null;
  /** JSON of the last results read. */
  results: string | null;
  /** When newsletters.read reads the results next (1 h, 1, 3, 7 and 30 days after sending); null when done. */
  results_next_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface SandboxMailCampaignsTable {
  id: string;
  mail_account_id: string;
  marker: string;
  subject: string;
  audiences: string;
  send_at: number;
  status: "scheduled" | "canceled";
  created_at: number;
}

export interface NewsletterTables {
  sandbox_mail_campaigns: SandboxMailCampaignsTable;
  newsletters: NewslettersTable;
  newsletter_deliveries: NewsletterDeliveriesTable;
  mail_accounts: MailAccountsTable;
  media_holds: MediaHoldsTable;
}
