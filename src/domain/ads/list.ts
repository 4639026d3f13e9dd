// GET /v1/ad_accounts: the org's ad accounts in the caller's mode, optionally of one brand, newest first.
import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadBrand } from "../brands/service.ts";
import { listParams, page } from "../pagination.ts";
import { presentAdAccount } from "./present.ts";

export async function listAdAccounts(app: App, actor: Actor, query: Record<string, unknown>) {
  requireScope(actor, "ads:read");
  const p = listParams(query, "adacct");
  let q = app.db
    .selectFrom("ad_accounts")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0);
  if (typeof query.brand === "string" && query.brand !== "")
    q = q.where("brand_id", "=", (await loadBrand(app.db, actor, query.brand)).id);
  if (actor.brandId) q = q.where("brand_id", "=", actor.brandId);
  return page(q, p, "/v1/ad_accounts", presentAdAccount);
}
