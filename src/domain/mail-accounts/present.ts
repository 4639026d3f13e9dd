import type { MailAccountsTable } from "../../db/tables/newsletters.ts";
import { iso } from "../../lib/clock.ts";

export const presentMailAccount = (r: MailAccountsTable) => ({
  id: r.id,
  object: "mail_account" as const,
  brand: r.brand_id,
  livemode: r.livemode === 1,
  provider: r.provider,
  display_name: r.display_name,
  settings: JSON.parse(r.settings) as Record<string, string>,
  from_name: r.from_name,
  from_email: r.from_email,
  reply_to: r.reply_to,
  default_audiences: JSON.parse(r.default_audiences) as string[],
  status: r.status,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});
