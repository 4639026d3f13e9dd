// GET /v1/analytics_sources: the org's sources in the caller's mode, optionally of one brand, newest first.
import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadBrand } from "../brands/service.ts";
import { listParams, page } from "../pagination.ts";
import { presentAnalyticsSource } from "./present.ts";

export async function listAnalyticsSources(app: App, actor: Actor, query: Record<string, unknown>) {
  requireScope(actor, "brands:read");
  const p = listParams(query, "anlsrc");
  let q = app.db
    .selectFrom("analytics_sources")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0);
  if (typeof query.brand === "string" && query.brand !== "")
    q = q.where("brand_id", "=", (await loadBrand(app.db, actor, query.brand)).id);
  if (actor.brandId) q = q.where("brand_id", "=", actor.brandId);
  return page(q, p, "/v1/analytics_sources", presentAnalyticsSource);
}
