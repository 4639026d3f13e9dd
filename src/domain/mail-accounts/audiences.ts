// GET /v1/mail_accounts/{id}/audiences: read from the provider each time (svc keeps no subscriber data). A
// provider that refuses the stored credentials marks the account needs_reauth (updating it with new `fields`
// clears that), and the answer is 422 `mail_account_needs_reauth`.
import type { App } from "../../app/context.ts";
import { ServiceError } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { inTx } from "../tx.ts";
import { loadMailAccount } from "./load.ts";
import { openCredentials, providerFor, unavailable } from "./provider.ts";

export const needsReauth = (id: string) =>
  new ServiceError(
    422,
    "mail_account_needs_reauth",
    `The provider refuses the credentials of mail account ${id}; update it with new fields.`,
    { param: "mail_account" },
  );

export async function listAudiences(app: App, actor: Actor, id: string) {
  requireScope(actor, "channels:read");
  const row = await loadMailAccount(app.db, actor, id);
  if (row.status === "needs_reauth") throw needsReauth(row.id);
  const p = providerFor(actor, row.provider);
  const a = await p.audiences(app, await openCredentials(app, row));
  if (a.kind === "unavailable") throw unavailable(p, a.message);
  if (a.kind === "rejected") {
    await inTx(app, async (tx) => {
      await tx
        .updateTable("mail_accounts")
        .set({ status: "needs_reauth", updated_at: app.clock.now() })
        .where("id", "=", row.id)
        .execute();
      await audit(tx, app, actor, {
        action: "mail_account.needs_reauth",
        target: row.id,
        detail: { reason: a.message },
      });
    });
    throw needsReauth(row.id);
  }
  return {
    object: "list" as const,
    data: a.value.map((x) => ({ id: x.id, object: "audience" as const, name: x.name, size: x.size })),
    has_more: false,
    url: `/v1/mail_accounts/${row.id}/audiences`,
  };
}
