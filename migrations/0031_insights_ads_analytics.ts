// Ad accounts and web-analytics sources (interface.md "Engagement, ads, analytics, newsletters, reports"): the
// connected accounts with their sealed credentials, and the daily aggregates read from them. No visitor record is
// kept: a row is one day's count for one combination of UTM tags (and goal), never a visit. Re-reading a day
// replaces its rows (late corrections overwrite). Expand only: new tables and their indexes.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "insights_ads_analytics",
  up: () => [
    `CREATE TABLE ad_accounts (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      livemode INTEGER NOT NULL,
      brand_id TEXT NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
      network TEXT NOT NULL,
      external_id TEXT NOT NULL,
      name TEXT NOT NULL,
      currency TEXT NOT NULL,
      settings TEXT NOT NULL,
      secrets TEXT,
      status TEXT NOT NULL,
      status_note TEXT,
      collected_at BIGINT,
      next_collect_at BIGINT,
      collect_failures INTEGER NOT NULL DEFAULT 0,
      last_error TEXT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    )`,
    // One connection of an account per org and mode (ad_account_connected).
    `CREATE UNIQUE INDEX ad_accounts_external ON ad_accounts (org_id, livemode, network, external_id)`,
    `CREATE INDEX ad_accounts_org ON ad_accounts (org_id, livemode, id)`,
    `CREATE INDEX ad_accounts_due ON ad_accounts (next_collect_at) WHERE status = 'active'`,
    `CREATE TABLE ad_daily (
      account_id TEXT NOT NULL REFERENCES ad_accounts(id) ON DELETE CASCADE,
      day TEXT NOT NULL,
      campaign_id TEXT NOT NULL,
      org_id TEXT NOT NULL,
      livemode INTEGER NOT NULL,
      brand_id TEXT NOT NULL,
      campaign_name TEXT NOT NULL,
      currency TEXT NOT NULL,
      spend BIGINT NOT NULL,
      impressions BIGINT NOT NULL,
      clicks BIGINT NOT NULL,
      PRIMARY KEY (account_id, day, campaign_id)
    )`,
    `CREATE INDEX ad_daily_brand_day ON ad_daily (org_id, livemode, brand_id, day)`,
    `CREATE TABLE analytics_sources (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      livemode INTEGER NOT NULL,
      brand_id TEXT NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
      provider TEXT NOT NULL,
      external_id TEXT NOT NULL,
      name TEXT NOT NULL,
      goals TEXT NOT NULL,
      settings TEXT NOT NULL,
      secrets TEXT,
      status TEXT NOT NULL,
      status_note TEXT,
      collected_at BIGINT,
      next_collect_at BIGINT,
      collect_failures INTEGER NOT NULL DEFAULT 0,
      last_error TEXT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    )`,
    `CREATE UNIQUE INDEX analytics_sources_external ON analytics_sources (org_id, livemode, provider, external_id)`,
    `CREATE INDEX analytics_sources_org ON analytics_sources (org_id, livemode, id)`,
    `CREATE INDEX analytics_sources_due ON analytics_sources (next_collect_at) WHERE status = 'active'`,
    // goal '' is the visitors row of a tag combination; a goal's name is its conversions row. Missing tags are ''.
    `CREATE TABLE analytics_daily (
      source_id TEXT NOT NULL REFERENCES analytics_sources(id) ON DELETE CASCADE,
      day TEXT NOT NULL,
      utm_source TEXT NOT NULL,
      utm_medium TEXT NOT NULL,
      utm_campaign TEXT NOT NULL,
      utm_content TEXT NOT NULL,
      goal TEXT NOT NULL,
      org_id TEXT NOT NULL,
      livemode INTEGER NOT NULL,
      brand_id TEXT NOT NULL,
      visitors BIGINT NOT NULL,
      conversions BIGINT NOT NULL,
      PRIMARY KEY (source_id, day, utm_source, utm_medium, utm_campaign, utm_content, goal)
    )`,
    `CREATE INDEX analytics_daily_brand_day ON analytics_daily (org_id, livemode, brand_id, day)`,
  ],
} satisfies Migration;
