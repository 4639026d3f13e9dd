// The report's `ads` section: spend per currency beside the previous period, spend by campaign, and — when the
// brand's analytics count goals — signups from paid visits (utm_medium=paid) and the cost per signup per
// currency. Null when no ad account of the brand spent in either period. Registered in src/boot.ts.
import type { App } from "../../app/context.ts";
import { analyticsGroups } from "../analytics/summary.ts";
import { dayRange, type Pair, pair } from "../insights/report-period.ts";
import type { ReportSectionInput } from "../reports/sections.ts";
import { adRows, totalsByCurrency } from "./summary.ts";

/** How many campaigns the section lists (the biggest spenders of the period). */
const TOP_CAMPAIGNS = 10;

export async function adsReportSection(app: App, i: ReportSectionInput): Promise<object | null> {
  const actor = { orgId: i.orgId, livemode: i.livemode };
  const now = dayRange(i.since, i.until, i.timezone);
  const before = dayRange(i.previousSince, i.previousUntil, i.timezone);
  const [campaigns, previousCampaigns] = await Promise.all([
    adRows(app, actor, { ...now, brandId: i.brandId, groupBy: "campaign" }),
    adRows(app, actor, { ...before, brandId: i.brandId, groupBy: "campaign" }),
  ]);
  if (campaigns.length === 0 && previousCampaigns.length === 0) return null;
  const totals = totalsByCurrency(campaigns);
  const previousTotals = totalsByCurrency(previousCampaigns);
  const currencies = [...new Set([...totals, ...previousTotals].map((t) => t.currency))].sort();
  const of = (list: typeof totals, c: string) => list.find((t) => t.currency === c);

  const [signups, previousSignups] = await Promise.all([
    analyticsGroups(app, actor, { ...now, brandId: i.brandId, groupBy: "day", medium: "paid" }),
    analyticsGroups(app, actor, { ...before, brandId: i.brandId, groupBy: "day", medium: "paid" }),
  ]);
  const hasGoals = await app.db
    .selectFrom("analytics_sources")
    .select("goals")
    .where("org_id", "=", i.orgId)
    .where("livemode", "=", i.livemode ? 1 : 0)
    .where("brand_id", "=", i.brandId)
    .execute()
    .then((rows) => rows.some((r) => (JSON.parse(r.goals) as string[]).length > 0));
  const conversions = pair(signups.totals.conversions_total, previousSignups.totals.conversions_total);
  /** Minor units per signup, rounded; null when there was no signup to divide by. */
  const per = (spend: number, n: number) => (n > 0 ? Math.round(spend / n) : null);

  return {
    spend: currencies.map((c) => ({
      currency: c,
      ...pair(of(totals, c)?.spend ?? 0, of(previousTotals, c)?.spend ?? 0),
    })),
    clicks: pair(
      totals.reduce((n, t) => n + t.clicks, 0),
      previousTotals.reduce((n, t) => n + t.clicks, 0),
    ) satisfies Pair,
    impressions: pair(
      totals.reduce((n, t) => n + t.impressions, 0),
      previousTotals.reduce((n, t) => n + t.impressions, 0),
    ) satisfies Pair,
    campaigns: campaigns.slice(0, TOP_CAMPAIGNS).map((r) => {
      const prev = previousCampaigns.find((p) => p.key === r.key && p.currency === r.currency);
      return {
        campaign: r.key,
        campaign_name: r.campaign_name,
        account: r.account,
        currency: r.currency,
        spend: pair(r.spend, prev?.spend ?? 0),
        clicks: pair(r.clicks, prev?.clicks ?? 0),
      };
    }),
    ...(hasGoals
      ? {
          signups: conversions,
          cost_per_signup: currencies.map((c) => ({
            currency: c,
            value: per(of(totals, c)?.spend ?? 0, conversions.value),
            previous: per(of(previousTotals, c)?.spend ?? 0, conversions.previous),
          })),
        }
      : {}),
  };
}
