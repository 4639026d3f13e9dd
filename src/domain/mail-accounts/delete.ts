// DELETE /v1/mail_accounts/{id}.
import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { inTx } from "../tx.ts";
import { loadMailAccount } from "./load.ts";

export async function deleteMailAccount(app: App, actor: Actor, id: string) {
  requireScope(actor, "channels:write");
  return inTx(app, async (tx) => {
    const row = await loadMailAccount(tx, actor, id);
    await tx.deleteFrom("mail_accounts").where("id", "=", row.id).execute();
    await audit(tx, app, actor, {
      action: "mail_account.delete",
      target: row.id,
      detail: { provider: row.provider, brand: row.brand_id },
    });
    return { id: row.id, object: "mail_account" as const, deleted: true as const };
  });
}
