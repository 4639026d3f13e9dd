// GET /v1/newsletters?brand=&status=: newest first.
import type { App } from "../../app/context.ts";
import type { IssueStatus } from "../../db/tables/newsletters.ts";
import { badRequest } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadBrand } from "../brands/service.ts";
import { listParams, page } from "../pagination.ts";
import { deliveriesOf } from "./load.ts";
import { presentIssue } from "./present.ts";

export const ISSUE_STATUSES: readonly IssueStatus[] = [
  "draft",
  "pending_approval",
  "scheduled",
  "sending",
  "sent",
  "partially_sent",
  "canceled",
  "failed",
];

export async function listIssues(app: App, actor: Actor, query: Record<string, unknown>) {
  requireScope(actor, "newsletters:read");
  const { brand, status, ...rest } = query;
  let q = app.db
    .selectFrom("newsletters")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0);
  if (typeof brand === "string" && brand !== "")
    q = q.where("brand_id", "=", (await loadBrand(app.db, actor, brand)).id);
  if (actor.brandId) q = q.where("brand_id", "=", actor.brandId);
  if (typeof status === "string" && status !== "") {
    if (!(ISSUE_STATUSES as readonly string[]).includes(status))
      throw badRequest("parameter_invalid", `status is one of ${ISSUE_STATUSES.join(", ")}.`, "status");
    q = q.where("status", "=", status as IssueStatus);
  }
  const out = await page(q, listParams(rest, "nl"), "/v1/newsletters", (r) => r);
  const deliveries = await deliveriesOf(
    app.db,
    out.data.map((r) => r.id),
  );
  return {
    ...out,
    data: out.data.map((r) =>
      presentIssue(
        r,
        deliveries.filter((d) => d.newsletter_id === r.id),
      ),
    ),
  };
}
