// Removing the org's provider (owners, sudo mode): refused while the org requires single sign-on.
import type { App } from "../../../app/context.ts";
import { conflict, notFound } from "../../../lib/errors.ts";
import type { Actor } from "../../actor.ts";
import { audit } from "../../audit/service.ts";
import { inTx } from "../../tx.ts";
import type { SudoOptions } from "../members/guard.ts";
import { requireSsoOwner } from "./guard.ts";

export async function disconnectSso(app: App, actor: Actor, opts?: SudoOptions) {
  requireSsoOwner(app, actor, opts);
  await inTx(app, async (tx) => {
    const org = await tx
      .selectFrom("orgs")
      .select("require_sso")
      .where("id", "=", actor.orgId)
      .executeTakeFirstOrThrow();
    if (org.require_sso === 1)
      throw conflict(
        "sso_required",
        "The org requires single sign-on: stop requiring it before removing the provider.",
      );
    const r = await tx.deleteFrom("sso_providers").where("org_id", "=", actor.orgId).executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) throw notFound("No single sign-on provider is connected.", "sso");
    await audit(tx, app, actor, { action: "sso.provider_removed", target: actor.orgId });
  });
}
