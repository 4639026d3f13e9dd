// Connecting the org's OIDC provider (owners, sudo mode): the issuer is discovered and checked before anything is
// stored; the client secret is sealed with the org's data key. Changing the provider keeps the secret when none is
// typed (the page never shows it back). New members made by a first sign-in get the default role, never owner.
import * as v from "valibot";
import type { App } from "../../../app/context.ts";
import { ServiceError } from "../../../lib/errors.ts";
import type { Actor } from "../../actor.ts";
import { audit } from "../../audit/service.ts";
import { inTx } from "../../tx.ts";
import { parse, rule } from "../../validate.ts";
import type { SudoOptions } from "../members/guard.ts";
import { requireSsoOwner, SSO_AT } from "./guard.ts";
import { discover } from "./provider.ts";

export const SsoConnect = v.object({
  issuer: v.string(),
  client_id: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, rule("client_id_invalid", "The client ID is needed.")),
    v.maxLength(300, rule("client_id_invalid", "The client ID is at most 300 characters.")),
  ),
  client_secret: v.optional(v.pipe(v.string(), v.maxLength(1000)), ""),
  default_role: v.picklist(
    ["admin", "editor", "viewer"],
    rule("default_role_invalid", "New members get admin, editor or viewer (never owner)."),
  ),
});

export async function connectSso(app: App, actor: Actor, input: unknown, opts?: SudoOptions) {
  requireSsoOwner(app, actor, opts);
  const b = parse(SsoConnect, input);
  const existing = await app.db
    .selectFrom("sso_providers")
    .select(["client_secret", "client_id", "issuer"])
    .where("org_id", "=", actor.orgId)
    .executeTakeFirst();
  const secret = b.client_secret.trim();
  if (!secret && !existing)
    throw new ServiceError(422, "client_secret_required", "The client secret is needed.", {
      param: "client_secret",
    });
  const meta = await discover(app, b.issuer);
  const sealed = secret ? await app.keys.seal(app.db, actor.orgId, SSO_AT(actor.orgId), secret) : null;
  const now = app.clock.now();
  await inTx(app, async (tx) => {
    if (existing)
      await tx
        .updateTable("sso_providers")
        .set({
          issuer: meta.issuer,
          client_id: b.client_id,
          ...(sealed ? { client_secret: sealed } : {}),
          default_role: b.default_role,
          updated_at: now,
        })
        .where("org_id", "=", actor.orgId)
        .execute();
    else
      await tx
        .insertInto("sso_providers")
        .values({
          org_id: actor.orgId,
          issuer: meta.issuer,
          client_id: b.client_id,
          client_secret: sealed!,
          default_role: b.default_role,
          created_at: now,
          updated_at: now,
        })
        .execute();
    await audit(tx, app, actor, {
      action: existing ? "sso.provider_updated" : "sso.provider_connected",
      target: actor.orgId,
      detail: { issuer: meta.issuer, client_id: b.client_id, default_role: b.default_role },
    });
  });
}
