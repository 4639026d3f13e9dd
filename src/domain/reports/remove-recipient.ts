// DELETE /v1/brands/{id}/report_recipients/{email}: the address gets no more report emails.
import type { App } from "../../app/context.ts";
import { notFound } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { loadBrand } from "../brands/service.ts";
import { inTx } from "../tx.ts";

export async function removeRecipient(app: App, actor: Actor, brandRef: string, email: string) {
  requireScope(actor, "brands:write");
  const brand = await loadBrand(app.db, actor, brandRef, "id");
  const address = email.trim().toLowerCase();
  return inTx(app, async (tx) => {
    const gone = await tx
      .deleteFrom("report_recipients")
      .where("org_id", "=", actor.orgId)
      .where("brand_id", "=", brand.id)
      .where("email", "=", address)
      .executeTakeFirst();
    if (Number(gone.numDeletedRows) === 0)
      throw notFound(`${address} does not get this brand's report.`, "email");
    await audit(tx, app, actor, {
      action: "report.recipient_remove",
      target: brand.id,
      detail: { email: address },
    });
    return { object: "report_recipient" as const, brand: brand.id, email: address, deleted: true };
  });
}
