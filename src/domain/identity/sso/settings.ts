// What the single sign-on page shows an owner: the provider (never its secret), the domains with the TXT record
// each needs, and whether the org requires it.
import type { App } from "../../../app/context.ts";
import { iso } from "../../../lib/clock.ts";
import type { Actor } from "../../actor.ts";

export const TXT_PREFIX = "_svc-verify";
export const txtName = (domain: string) => `${TXT_PREFIX}.${domain}`;
export const txtValue = (token: string) => `svc-verify=${token}`;

export async function ssoSettings(app: App, actor: Actor) {
  const provider = await app.db
    .selectFrom("sso_providers")
    .select(["issuer", "client_id", "default_role", "updated_at"])
    .where("org_id", "=", actor.orgId)
    .executeTakeFirst();
  const domains = await app.db
    .selectFrom("sso_domains")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .orderBy("domain")
    .execute();
  const org = await app.db
    .selectFrom("orgs")
    .select("require_sso")
    .where("id", "=", actor.orgId)
    .executeTakeFirstOrThrow();
  return {
    provider: provider
      ? {
          issuer: provider.issuer,
          client_id: provider.client_id,
          default_role: provider.default_role,
          updated_at: iso(provider.updated_at),
        }
      : null,
    domains: domains.map((d) => ({
      id: d.id,
      domain: d.domain,
      verified: d.verified_at !== null,
      verified_at: d.verified_at === null ? null : iso(d.verified_at),
      record: { name: txtName(d.domain), type: "TXT" as const, value: txtValue(d.token) },
    })),
    require_sso: org.require_sso === 1,
  };
}
