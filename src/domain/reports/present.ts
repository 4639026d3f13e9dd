import type { ReportRecipientsTable, ReportShareLinksTable } from "../../db/tables/reports.ts";
import { iso, isoOrNull } from "../../lib/clock.ts";

/**
 * A share link; `secret` (the token) and `url` (the page with it) only in the answer that created it: only the
 * token's hash is stored.
 */
export const presentShareLink = (
  r: ReportShareLinksTable,
  shown: { secret: string; url: string } | null = null,
) => ({
  id: r.id,
  object: "report_share_link" as const,
  brand: r.brand_id,
  month: r.month,
  hint: r.hint,
  ...(shown ? { secret: shown.secret, url: shown.url } : {}),
  livemode: r.livemode === 1,
  created_by: r.created_by_task ? "reports.mail" : r.created_by_user ? "member" : "api_key",
  created_at: iso(r.created_at),
  expires_at: iso(r.expires_at),
  revoked_at: isoOrNull(r.revoked_at),
});

export const presentRecipient = (r: ReportRecipientsTable) => ({
  object: "report_recipient" as const,
  brand: r.brand_id,
  email: r.email,
  last_sent_month: r.last_sent_month,
  created_at: iso(r.created_at),
});
