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
    // Newsletter issues. created_by_* say who asked (no self-approval); handoff_due_at is when newsletters.handoff
    // gives the deliveries to their providers (one day before send_at, or at once when sooner).
    `CREATE TABLE newsletters (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      livemode INTEGER NOT NULL,
      brand_id TEXT NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
      status TEXT NOT NULL,
      subject TEXT NOT NULL,
      preview_text TEXT NOT NULL,
      body TEXT NOT NULL,
      send_at BIGINT,
      handoff_due_at BIGINT,
      handoff_lease_until BIGINT,
      approval_required INTEGER NOT NULL DEFAULT 0,
      reviewed_by TEXT,
      reviewed_by_key TEXT,
      reviewed_at BIGINT,
      review_note TEXT,
      created_by_user TEXT,
      created_by_key TEXT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    )`,
    "CREATE INDEX newsletters_org ON newsletters (org_id, livemode, id)",
    "CREATE INDEX newsletters_handoff_due ON newsletters (handoff_due_at) WHERE handoff_due_at IS NOT NULL",
    // One per mail account of an issue. An account an unfinished issue uses cannot be deleted
    // (mail_account_in_use); deleting one takes finished issues' deliveries with it. campaign_id is the provider's; handoff_started_at records the intent before the call.
    `CREATE TABLE newsletter_deliveries (
      id TEXT PRIMARY KEY,
      newsletter_id TEXT NOT NULL REFERENCES newsletters(id) ON DELETE CASCADE,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      livemode INTEGER NOT NULL,
      mail_account_id TEXT NOT NULL REFERENCES mail_accounts(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      audiences TEXT NOT NULL,
      status TEXT NOT NULL,
      campaign_id TEXT,
      handoff_started_at BIGINT,
      error TEXT,
      results TEXT,
      results_next_at BIGINT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      UNIQUE (newsletter_id, mail_account_id)
    )`,
    "CREATE INDEX newsletter_deliveries_account ON newsletter_deliveries (mail_account_id)",
    // newsletters.read finds the deliveries whose next reading of results is due.
    "CREATE INDEX newsletter_deliveries_results_next ON newsletter_deliveries (results_next_at) WHERE results_next_at IS NOT NULL",
    // What the sandbox mail provider (test mode) was given: its scheduled campaigns, found again by marker.
    `CREATE TABLE sandbox_mail_campaigns (
      id TEXT PRIMARY KEY,
      mail_account_id TEXT NOT NULL REFERENCES mail_accounts(id) ON DELETE CASCADE,
      marker TEXT NOT NULL,
      subject TEXT NOT NULL,
      audiences TEXT NOT NULL,
      send_at BIGINT NOT NULL,
      status TEXT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    "CREATE INDEX sandbox_mail_campaigns_marker ON sandbox_mail_campaigns (mail_account_id, marker)",
  ],
} satisfies Migration;
