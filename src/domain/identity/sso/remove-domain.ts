// Removing a domain (owners, sudo mode): while the org requires single sign-on, its last verified domain stays.
import type { App } from "../../../app/context.ts";
import { conflict, notFound } from "../../../lib/errors.ts";
import type { Actor } from "../../actor.ts";
import { audit } from "../../audit/service.ts";
import { inTx } from "../../tx.ts";
import type { SudoOptions } from "../members/guard.ts";
import { requireSsoOwner } from "./guard.ts";

export async function removeSsoDomain(app: App, actor: Actor, id: string, opts?: SudoOptions) {
  requireSsoOwner(app, actor, opts);
  await inTx(app, async (tx) => {
    const row = await tx
      .selectFrom("sso_domains")
      .selectAll()
      .where("org_id", "=", actor.orgId)
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) throw notFound("No such domain.", "domain");
    const org = await tx
      .selectFrom("orgs")
      .select("require_sso")
      .where("id", "=", actor.orgId)
      .executeTakeFirstOrThrow();
    if (org.require_sso === 1 && row.verified_at !== null) {
      const others = await tx
        .selectFrom("sso_domains")
        .select("id")
        .where("org_id", "=", actor.orgId)
        .where("verified_at", "is not", null)
        .where("id", "!=", id)
        .execute();
      if (others.length === 0)
        throw conflict("sso_required", "The org requires single sign-on: its last verified domain stays.", {
          param: "domain",
        });
    }
    await tx.deleteFrom("sso_domains").where("id", "=", id).execute();
    await audit(tx, app, actor, { action: "sso.domain_removed", target: row.domain });
  });
}
