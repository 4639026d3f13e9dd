import type { Bool } from "./bool.ts";

/** A connected ad account (read-only): its network's account ID, currency and sealed credentials. */
export interface AdAccountsTable {
  id: string;
  org_id: string;
  livemode: Bool;
  brand_id: string;
  network: string;
  external_id: string;
  name: string;
  currency: string;
  /** Non-secret connect fields, JSON. */
  settings: string;
  /** Secret connect fields, sealed to this row and column. */
  secrets: string | null;
  /** active | needs_reauth */
  status: string;
  status_note: string | null;
  /** The last successful collection; null until the first (which reads 30 days, later ones 7). */
  collected_at: number | null;
  next_collect_at: number | null;
  collect_failures: number;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

/** One campaign's day in one ad account; amounts in the currency's minor unit. */
export interface AdDailyTable {
  account_id: string;
  /** YYYY-MM-DD in the ad account's reporting day. */
  day: string;
  campaign_id: string;
  org_id: string;
  livemode: Bool;
  brand_id: string;
  campaign_name: string;
  currency: string;
  spend: number;
  impressions: number;
  clicks: number;
}

/** A connected web-analytics source (a site or property) with the goals it reports. */
export interface AnalyticsSourcesTable {
  id: string;
  org_id: string;
  livemode: Bool;
  brand_id: string;
  provider: string;
  external_id: string;
  name: string;
  /** JSON array of goal names. */
  goals: string;
  settings: string;
  secrets: string | null;
  status: string;
  status_note: string | null;
  collected_at: number | null;
  next_collect_at: number | null;
  collect_failures: number;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

/** One day's count for one combination of UTM tags: visitors (goal '') or a goal's conversions. */
export interface AnalyticsDailyTable {
  source_id: string;
  day: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  utm_content: string;
  goal: string;
  org_id: string;
  livemode: Bool;
  brand_id: string;
  visitors: number;
  conversions: number;
}

export interface InsightTables {
  ad_accounts: AdAccountsTable;
  ad_daily: AdDailyTable;
  analytics_sources: AnalyticsSourcesTable;
  analytics_daily: AnalyticsDailyTable;
}
