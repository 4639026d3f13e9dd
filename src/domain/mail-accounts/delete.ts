// DELETE /v1/mail_accounts/{id}: refused while an unfinished issue (a draft too) goes through it; the deliveries
// of finished issues go with it.
import type { App } from "../../app/context.ts";
import { conflict } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { inTx } from "../tx.ts";
import { loadMailAccount } from "./load.ts";

export async function deleteMailAccount(app: App, actor: Actor, id: string) {
  requireScope(actor, "channels:write");
  return inTx(app, async (tx) => {
    const row = await loadMailAccount(tx, actor, id);
    const using = await tx
      .selectFrom("newsletter_deliveries")
      .innerJoin("newsletters", "newsletters.id", "newsletter_deliveries.newsletter_id")
      .select("newsletters.id")
      .where("newsletter_deliveries.mail_account_id", "=", row.id)
      .where("newsletters.status", "in", ["draft", "pending_approval", "scheduled", "sending"])
      .limit(5)
      .execute();
    if (using.length)
      throw conflict(
        "mail_account_in_use",
        `Mail account ${row.id} is used by an issue that is not finished.`,
        {
          detail: { newsletters: using.map((u) => u.id) },
        },
      );
    await tx.deleteFrom("mail_accounts").where("id", "=", row.id).execute();
    await audit(tx, app, actor, {
      action: "mail_account.delete",
      target: row.id,
      detail: { provider: row.provider, brand: row.brand_id },
    });
    return { id: row.id, object: "mail_account" as const, deleted: true as const };
  });
}
