// GET /v1/mail_accounts?brand=: the mail accounts of the caller's org and mode.
import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadBrand } from "../brands/service.ts";
import { listParams, page } from "../pagination.ts";
import { presentMailAccount } from "./present.ts";

export async function listMailAccounts(app: App, actor: Actor, query: Record<string, unknown>) {
  requireScope(actor, "channels:read");
  const { brand, ...rest } = query;
  let q = app.db
    .selectFrom("mail_accounts")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0);
  if (typeof brand === "string" && brand !== "")
    q = q.where("brand_id", "=", (await loadBrand(app.db, actor, brand)).id);
  if (actor.brandId) q = q.where("brand_id", "=", actor.brandId);
  return page(q, listParams(rest, "mailacct"), "/v1/mail_accounts", presentMailAccount);
}
