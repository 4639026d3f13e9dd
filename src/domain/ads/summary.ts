// GET /v1/ads/summary: spend (minor units), impressions and clicks of the org's ad accounts in the caller's mode,
// summed per brand, account, campaign or day, and always per currency (amounts in different currencies are never
// added). Window: whole days `since`..`until`, default the last 30, at most a year.
import type { App } from "../../app/context.ts";
import { invalid, problem } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadBrand } from "../brands/service.ts";
import { dayWindow } from "../insights/window.ts";
import { loadAdAccount } from "./load.ts";
import { ADS_GROUP_BY, type AdsGroupBy } from "./schema.ts";

const KEY: Record<AdsGroupBy, "brand_id" | "account_id" | "campaign_id" | "day"> = {
  brand: "brand_id",
  account: "account_id",
  campaign: "campaign_id",
  day: "day",
};

export interface AdsTotals {
  currency: string;
  spend: number;
  impressions: number;
  clicks: number;
}

export async function adsSummary(app: App, actor: Actor, query: Record<string, string | undefined>) {
  requireScope(actor, "ads:read");
  const groupBy = (query.group_by || "campaign") as AdsGroupBy;
  if (!ADS_GROUP_BY.includes(groupBy))
    throw invalid([
      problem("group_by_invalid", `group_by must be one of ${ADS_GROUP_BY.join(", ")}.`, "group_by"),
    ]);
  const window = dayWindow(query, app.clock.now());
  const brandId = query.brand ? (await loadBrand(app.db, actor, query.brand)).id : actor.brandId;
  const accountId = query.account ? (await loadAdAccount(app.db, actor, query.account, "account")).id : null;
  const rows = await adRows(app, actor, { ...window, brandId, accountId, groupBy });
  return {
    object: "ads_summary" as const,
    group_by: groupBy,
    brand: brandId,
    account: accountId,
    since: window.since,
    until: window.until,
    // Each row names its group by the group's own word: {"campaign": …}, {"day": "2026-03-01"}.
    data: rows.map(({ key, ...rest }) => ({ [groupBy]: key, ...rest })),
    totals: totalsByCurrency(rows),
  };
}

/** The grouped rows (also what the report's ads section reads). */
export async function adRows(
  app: App,
  actor: Pick<Actor, "orgId" | "livemode">,
  o: { since: string; until: string; brandId: string | null; accountId?: string | null; groupBy: AdsGroupBy },
) {
  const key = KEY[o.groupBy];
  let q = app.db
    .selectFrom("ad_daily")
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0)
    .where("day", ">=", o.since)
    .where("day", "<=", o.until)
    .select((eb) => [
      eb.ref(key).as("key"),
      "currency",
      eb.fn.max("campaign_name").as("campaign_name"),
      eb.fn.min("account_id").as("account"),
      eb.fn.min("brand_id").as("brand"),
      eb.fn.sum<number>("spend").as("spend"),
      eb.fn.sum<number>("impressions").as("impressions"),
      eb.fn.sum<number>("clicks").as("clicks"),
    ])
    .groupBy([key, "currency"]);
  if (o.brandId) q = q.where("brand_id", "=", o.brandId);
  if (o.accountId) q = q.where("account_id", "=", o.accountId);
  const rows = await q.execute();
  return rows
    .map((r) => ({
      key: String(r.key),
      ...(o.groupBy === "campaign" ? { campaign_name: r.campaign_name, account: r.account } : {}),
      ...(o.groupBy === "account" || o.groupBy === "campaign" ? { brand: r.brand } : {}),
      currency: r.currency,
      spend: Number(r.spend),
      impressions: Number(r.impressions),
      clicks: Number(r.clicks),
    }))
    .sort((a, b) =>
      o.groupBy === "day"
        ? a.key.localeCompare(b.key) || a.currency.localeCompare(b.currency)
        : b.spend - a.spend || a.key.localeCompare(b.key),
    );
}

export function totalsByCurrency(
  rows: { currency: string; spend: number; impressions: number; clicks: number }[],
): AdsTotals[] {
  const by = new Map<string, AdsTotals>();
  for (const r of rows) {
    const t = by.get(r.currency) ?? { currency: r.currency, spend: 0, impressions: 0, clicks: 0 };
    t.spend += r.spend;
    t.impressions += r.impressions;
    t.clicks += r.clicks;
    by.set(r.currency, t);
  }
  return [...by.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}
