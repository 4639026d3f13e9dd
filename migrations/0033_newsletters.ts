// Newsletters: the mail accounts a brand sends its newsletters through (the provider keeps the subscribers; svc
// stores no address, interface.md rule 4). Provider secrets are sealed with the org's data key, bound to the row.
// Expand only: new tables the previous release ignores.
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
    // Media kept by something other than a post: a brand's email logo, a newsletter's images. media.prune leaves
    // them, and deleting one is media_in_use while the hold lasts.
    `CREATE TABLE media_holds (
      media_id TEXT NOT NULL REFERENCES media(id) ON DELETE CASCADE,
      holder TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (media_id, holder)
    )`,
    "CREATE INDEX media_holds_holder ON media_holds (holder)",
  ],
} satisfies Migration;
