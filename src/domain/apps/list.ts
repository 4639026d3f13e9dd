import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { listParams, page } from "../pagination.ts";
import { presentApp } from "./present.ts";

/** The org's own apps and the install's (shown without client IDs), newest first; `provider` narrows them. */
export async function listApps(app: App, actor: Actor, query: Record<string, unknown>) {
  requireScope(actor, "channels:read");
  const p = listParams(query, "app");
  let q = app.db
    .selectFrom("developer_apps")
    .selectAll()
    .where((eb) => eb.or([eb("org_id", "=", actor.orgId), eb("org_id", "is", null)]));
  if (typeof query.provider === "string" && query.provider !== "")
    q = q.where("provider", "=", query.provider);
  return page(q, p, "/v1/developer_apps", presentApp(app.config.baseUrl));
}
