import type { Bool } from "./bool.ts";

/** A share link to one brand's month: only the token's SHA-256 is kept. */
export interface ReportShareLinksTable {
  id: string;
  org_id: string;
  brand_id: string;
  livemode: Bool;
  /** YYYY-MM in the brand's zone. */
  month: string;
  token_hash: string;
  /** The token's last 4 characters, so a person can tell links apart. */
  hint: string;
  created_by_user: string | null;
  created_by_key: string | null;
  /** "reports.mail" for the links the monthly email makes. */
  created_by_task: string | null;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** An address that gets the brand's monthly report email. */
export interface ReportRecipientsTable {
  org_id: string;
  brand_id: string;
  email: string;
  /** The month (YYYY-MM) whose report was last emailed here; one email per month. */
  last_sent_month: string | null;
  created_at: number;
}

export interface ReportTables {
  report_share_links: ReportShareLinksTable;
  report_recipients: ReportRecipientsTable;
}
