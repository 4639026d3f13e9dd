// GET /v1/operator/orgs/{id}/usage: an org's use in one month, for the operator's billing.
import type { App } from "../../app/context.ts";
import type { OperatorActor } from "../identity/auth/operator.ts";
import { usageOf } from "../orgs/usage.ts";
import { loadOrg } from "./orgs.ts";

export async function orgUsage(app: App, _op: OperatorActor, id: string, query: { month?: string }) {
  const org = await loadOrg(app.db, id);
  return usageOf(app, org.id, query.month);
}
