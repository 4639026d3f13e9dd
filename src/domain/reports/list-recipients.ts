// GET /v1/brands/{id}/report_recipients: every address (at most 20, so one page), oldest first.
import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadBrand } from "../brands/service.ts";
import { presentRecipient } from "./present.ts";

export async function listRecipients(app: App, actor: Actor, brandRef: string) {
  requireScope(actor, "brands:write");
  const brand = await loadBrand(app.db, actor, brandRef, "id");
  const rows = await app.db
    .selectFrom("report_recipients")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .where("brand_id", "=", brand.id)
    .orderBy("created_at")
    .orderBy("email")
    .execute();
  return {
    object: "list" as const,
    data: rows.map(presentRecipient),
    has_more: false,
    url: `/v1/brands/${brand.id}/report_recipients`,
  };
}
