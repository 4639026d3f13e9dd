// Newsletters: the mail accounts a brand sends its newsletters through (the provider keeps the subscribers; svc
// stores no address, interface.md rule 4). Provider secrets are sealed with the org's data key, bound to the row.
// Expand only: a new table the previous release ignores.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "newsletters",
  up: () => [
    `CREATE TABLE mail_accounts (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      livemode INTEGER NOT NULL,
      brand_id TEXT NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
      provider TEXT NOT NULL,
      account_ref TEXT NOT NULL,
      display_name TEXT NOT NULL,
      settings TEXT NOT NULL,
      secrets TEXT,
      from_name TEXT NOT NULL,
      from_email TEXT NOT NULL,
      reply_to TEXT,
      default_audiences TEXT NOT NULL,
      status TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    )`,
    // One provider account once per brand and mode (mail_account_connected).
    "CREATE UNIQUE INDEX mail_accounts_account ON mail_accounts (org_id, livemode, brand_id, provider, account_ref)",
  ],
} satisfies Migration;
