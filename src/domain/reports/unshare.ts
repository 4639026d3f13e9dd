// DELETE /v1/reports/share_links/{id}: withdraws a link at once (its page then answers share_link_invalid).
// Admins and owners; audited as report.unshare. Withdrawing a withdrawn link changes nothing and answers it again.
import type { App } from "../../app/context.ts";
import { notFound } from "../../lib/errors.ts";
import { type Actor, brandVisible, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { rowInScope } from "../scope.ts";
import { inTx } from "../tx.ts";
import { presentShareLink } from "./present.ts";

export async function unshareReport(app: App, actor: Actor, id: string) {
  requireScope(actor, "brands:write");
  return inTx(app, async (tx) => {
    const row = await rowInScope(tx, actor, "report_share_links", "rshare", id);
    if (!row || !brandVisible(actor, row.brand_id))
      throw notFound(`No share link ${id} in this org and mode.`, "id");
    if (row.revoked_at !== null) return presentShareLink(row);
    const now = app.clock.now();
    await tx
      .updateTable("report_share_links")
      .set({ revoked_at: now })
      .where("id", "=", row.id)
      .where("revoked_at", "is", null)
      .execute();
    await audit(tx, app, actor, {
      action: "report.unshare",
      target: row.id,
      detail: { brand: row.brand_id },
    });
    return presentShareLink({ ...row, revoked_at: now });
  });
}
