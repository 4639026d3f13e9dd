// Requiring single sign-on of the org (owners, sudo mode): it needs a provider and a verified domain, and the
// owner turning it on must be in a session that came through it, so they have shown it works for them.
import type { App } from "../../../app/context.ts";
import { conflict, ServiceError } from "../../../lib/errors.ts";
import type { Actor } from "../../actor.ts";
import { audit } from "../../audit/service.ts";
import { inTx } from "../../tx.ts";
import type { SudoOptions } from "../members/guard.ts";
import { requireSsoOwner } from "./guard.ts";

export async function setSsoRequired(
  app: App,
  actor: Actor,
  on: boolean,
  opts: SudoOptions & { ssoOrgId?: string | null | undefined },
) {
  requireSsoOwner(app, actor, opts);
  await inTx(app, async (tx) => {
    if (on) {
      const provider = await tx
        .selectFrom("sso_providers")
        .select("org_id")
        .where("org_id", "=", actor.orgId)
        .executeTakeFirst();
      if (!provider) throw conflict("sso_not_connected", "Connect the org's provider first.");
      const verified = await tx
        .selectFrom("sso_domains")
        .select("id")
        .where("org_id", "=", actor.orgId)
        .where("verified_at", "is not", null)
        .executeTakeFirst();
      if (!verified) throw conflict("sso_no_domain", "Verify at least one domain first.");
      if (opts.ssoOrgId !== actor.orgId)
        throw new ServiceError(
          403,
          "sso_session_required",
          "Sign in with single sign-on once before requiring it, so you know it works for you.",
        );
    }
    await tx
      .updateTable("orgs")
      .set({ require_sso: on ? 1 : 0, updated_at: app.clock.now() })
      .where("id", "=", actor.orgId)
      .execute();
    await audit(tx, app, actor, { action: on ? "sso.required" : "sso.not_required", target: actor.orgId });
  });
}
