// POST /v1/brands/{id}/report_recipients: an address that gets the brand's monthly report email (live mode only,
// within the first 7 days of each month). At most 20 per brand (recipients_limit); an address once
// (recipient_exists). Admins and owners (brands:write).
import type { App } from "../../app/context.ts";
import { conflict, invalid, problem } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { loadBrand } from "../brands/service.ts";
import { inTx, isUniqueViolation } from "../tx.ts";
import { parse } from "../validate.ts";
import { presentRecipient } from "./present.ts";
import { RecipientInput } from "./schema.ts";

export const RECIPIENTS_LIMIT = 20;

export async function addRecipient(app: App, actor: Actor, brandRef: string, body: unknown) {
  requireScope(actor, "brands:write");
  const input = parse(RecipientInput, body);
  const brand = await loadBrand(app.db, actor, brandRef, "id");
  const exists = () =>
    conflict("recipient_exists", `${input.email} already gets this brand's report.`, { param: "email" });
  try {
    return await inTx(app, async (tx) => {
      const rows = await tx
        .selectFrom("report_recipients")
        .select("email")
        .where("brand_id", "=", brand.id)
        .execute();
      if (rows.some((r) => r.email === input.email)) throw exists();
      if (rows.length >= RECIPIENTS_LIMIT)
        throw invalid([
          problem("recipients_limit", `A brand has at most ${RECIPIENTS_LIMIT} report recipients.`, "email"),
        ]);
      const row = {
        org_id: actor.orgId,
        brand_id: brand.id,
        email: input.email,
        last_sent_month: null,
        created_at: app.clock.now(),
      };
      await tx.insertInto("report_recipients").values(row).execute();
      await audit(tx, app, actor, {
        action: "report.recipient_add",
        target: brand.id,
        detail: { email: input.email },
      });
      return presentRecipient(row);
    });
  } catch (e) {
    // Two adds of the same address at once: the primary key keeps one.
    if (isUniqueViolation(e)) throw exists();
    throw e;
  }
}
