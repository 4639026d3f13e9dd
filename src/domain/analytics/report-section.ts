// The report's `analytics` section: visitors and goal conversions beside the previous period, the posts that
// brought the most visitors (from svc's UTM tags) and the untagged visits. Null when the brand's analytics
// reported nothing in either period. Registered in src/boot.ts.
import type { App } from "../../app/context.ts";
import { dayRange, pair } from "../insights/report-period.ts";
import type { ReportSectionInput } from "../reports/sections.ts";
import { analyticsGroups, UNTAGGED } from "./summary.ts";

const TOP_POSTS = 10;

export async function analyticsReportSection(app: App, i: ReportSectionInput): Promise<object | null> {
  const actor = { orgId: i.orgId, livemode: i.livemode };
  const [now, before] = await Promise.all([
    analyticsGroups(app, actor, {
      ...dayRange(i.since, i.until, i.timezone),
      brandId: i.brandId,
      groupBy: "post",
    }),
    analyticsGroups(app, actor, {
      ...dayRange(i.previousSince, i.previousUntil, i.timezone),
      brandId: i.brandId,
      groupBy: "post",
    }),
  ]);
  if (
    now.totals.visitors === 0 &&
    before.totals.visitors === 0 &&
    now.totals.conversions_total === 0 &&
    before.totals.conversions_total === 0
  )
    return null;
  const goals = [
    ...new Set([...Object.keys(now.totals.conversions), ...Object.keys(before.totals.conversions)]),
  ].sort();
  const untaggedNow = now.groups.find((g) => g.key === UNTAGGED);
  const untaggedBefore = before.groups.find((g) => g.key === UNTAGGED);
  return {
    visitors: pair(now.totals.visitors, before.totals.visitors),
    conversions: pair(now.totals.conversions_total, before.totals.conversions_total),
    goals: goals.map((goal) => ({
      goal,
      ...pair(now.totals.conversions[goal] ?? 0, before.totals.conversions[goal] ?? 0),
    })),
    top_posts: now.groups
      .filter((g) => g.key !== UNTAGGED)
      .slice(0, TOP_POSTS)
      .map((g) => ({ post: g.key, visitors: g.visitors, conversions: g.conversions_total })),
    untagged: pair(untaggedNow?.visitors ?? 0, untaggedBefore?.visitors ?? 0),
  };
}
