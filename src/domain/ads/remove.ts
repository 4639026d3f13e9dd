// DELETE /v1/ad_accounts/{id} (ads:write): the account, its sealed credentials and its daily figures go.
import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { inTx } from "../tx.ts";
import { loadAdAccount } from "./load.ts";

export async function removeAdAccount(app: App, actor: Actor, id: string) {
  requireScope(actor, "ads:write");
  return inTx(app, async (tx) => {
    const a = await loadAdAccount(tx, actor, id);
    await tx.deleteFrom("ad_daily").where("account_id", "=", a.id).execute();
    await tx.deleteFrom("ad_accounts").where("id", "=", a.id).execute();
    await audit(tx, app, actor, {
      action: "ad_account.remove",
      target: a.id,
      detail: { network: a.network },
    });
    return { id: a.id, object: "ad_account" as const, deleted: true as const };
  });
}
