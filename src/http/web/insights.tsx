// /insights: the ad accounts and analytics sources of this mode with the last 30 days' spend per campaign and
// visitors per post. Thin over the same domain calls as GET /v1/ad_accounts, /v1/analytics_sources,
// /v1/ads/summary and /v1/analytics/summary, as the signed-in member (viewers may read).
import { InsightsPage } from "../../../views/insights.tsx";
import { listAdAccounts } from "../../domain/ads/list.ts";
import { adsSummary } from "../../domain/ads/summary.ts";
import { listAnalyticsSources } from "../../domain/analytics/list.ts";
import { analyticsSummary } from "../../domain/analytics/summary.ts";
import { frame, render, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

async function insights(w: Web) {
  const actor = w.member!.actor;
  const [accounts, sources, ads, visits] = await Promise.all([
    listAdAccounts(w.app, actor, { limit: "100" }),
    listAnalyticsSources(w.app, actor, { limit: "100" }),
    adsSummary(w.app, actor, { group_by: "campaign" }),
    analyticsSummary(w.app, actor, { group_by: "post" }),
  ]);
  return render(
    w,
    <InsightsPage
      f={frame(w, "Insights", "insights")}
      accounts={accounts.data}
      sources={sources.data}
      campaigns={ads.data.slice(0, 20)}
      posts={visits.data.slice(0, 20)}
      since={ads.since}
      until={ads.until}
    />,
  );
}

export const insightRoutes: WebRoute[] = [
  { method: "GET", path: "/insights", access: "member", org: "read", needs: "ads:read", handler: insights },
];
