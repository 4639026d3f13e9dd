// GET /v1/analytics/summary: visitors and goal conversions of the org's analytics sources in the caller's mode,
// summed per post, UTM source, medium, campaign, content or day. Per post comes from the tags svc writes on its
// links (utm_medium=social, utm_content=<post ID>); visits without any tag are the group `untagged`. Visitors are
// summed daily visitors (a person who came on two days counts twice): the tools report days, svc keeps no visits.
import type { App } from "../../app/context.ts";
import { analyticsGroupKey } from "../../db/insight-keys.ts";
import { invalid, problem } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadBrand } from "../brands/service.ts";
import { dayWindow } from "../insights/window.ts";
import { ANALYTICS_GROUP_BY, type AnalyticsGroupBy } from "./schema.ts";

export const UNTAGGED = "untagged";

export interface AnalyticsGroup {
  key: string;
  visitors: number;
  conversions: Record<string, number>;
  conversions_total: number;
}

export async function analyticsSummary(app: App, actor: Actor, query: Record<string, string | undefined>) {
  requireScope(actor, "brands:read");
  const groupBy = (query.group_by || "post") as AnalyticsGroupBy;
  if (!ANALYTICS_GROUP_BY.includes(groupBy))
    throw invalid([
      problem("group_by_invalid", `group_by must be one of ${ANALYTICS_GROUP_BY.join(", ")}.`, "group_by"),
    ]);
  const window = dayWindow(query, app.clock.now());
  const brandId = query.brand ? (await loadBrand(app.db, actor, query.brand)).id : actor.brandId;
  const { groups, totals } = await analyticsGroups(app, actor, { ...window, brandId, groupBy });
  return {
    object: "analytics_summary" as const,
    group_by: groupBy,
    brand: brandId,
    since: window.since,
    until: window.until,
    data: groups.map(({ key, ...rest }) => ({ [groupBy]: key, ...rest })),
    totals,
  };
}

/** Grouped visitors and conversions and the window's totals (also what the report's analytics section reads). */
export async function analyticsGroups(
  app: App,
  actor: Pick<Actor, "orgId" | "livemode">,
  o: { since: string; until: string; brandId: string | null; groupBy: AnalyticsGroupBy; medium?: string },
) {
  const key = analyticsGroupKey[o.groupBy];
  let q = app.db
    .selectFrom("analytics_daily")
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0)
    .where("day", ">=", o.since)
    .where("day", "<=", o.until)
    .select((eb) => [
      key.as("key"),
      "goal",
      eb.fn.sum<number>("visitors").as("visitors"),
      eb.fn.sum<number>("conversions").as("conversions"),
    ])
    .groupBy([key, "goal"]);
  if (o.brandId) q = q.where("brand_id", "=", o.brandId);
  if (o.medium !== undefined) q = q.where("utm_medium", "=", o.medium);
  const rows = await q.execute();
  const by = new Map<string, AnalyticsGroup>();
  const totals = { visitors: 0, conversions: {} as Record<string, number>, conversions_total: 0 };
  for (const r of rows) {
    const visitors = Number(r.visitors);
    const conversions = Number(r.conversions);
    if (r.goal === "") totals.visitors += visitors;
    else {
      totals.conversions[r.goal] = (totals.conversions[r.goal] ?? 0) + conversions;
      totals.conversions_total += conversions;
    }
    if (r.key === null) continue;
    const k = r.key === "" ? UNTAGGED : String(r.key);
    const g = by.get(k) ?? { key: k, visitors: 0, conversions: {}, conversions_total: 0 };
    if (r.goal === "") g.visitors += visitors;
    else {
      g.conversions[r.goal] = (g.conversions[r.goal] ?? 0) + conversions;
      g.conversions_total += conversions;
    }
    by.set(k, g);
  }
  const groups = [...by.values()].sort((a, b) =>
    o.groupBy === "day" ? a.key.localeCompare(b.key) : b.visitors - a.visitors || a.key.localeCompare(b.key),
  );
  return { groups, totals };
}
