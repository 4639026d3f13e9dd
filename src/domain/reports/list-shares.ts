// GET /v1/reports/share_links?brand: the links of the caller's mode, newest first (never their tokens).
import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadBrand } from "../brands/service.ts";
import { listParams, page } from "../pagination.ts";
import { presentShareLink } from "./present.ts";

export async function listShareLinks(app: App, actor: Actor, query: Record<string, string | undefined>) {
  requireScope(actor, "brands:write");
  let q = app.db
    .selectFrom("report_share_links")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0);
  const brandRef = query.brand ?? actor.brandId;
  if (brandRef) q = q.where("brand_id", "=", (await loadBrand(app.db, actor, brandRef)).id);
  return page(q, listParams(query, "rshare"), "/v1/reports/share_links", (r) => presentShareLink(r));
}
