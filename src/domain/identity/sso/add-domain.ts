// Adding a domain to verify (owners, sudo mode): a fresh token for its TXT record; at most 20 per org.
import type { App } from "../../../app/context.ts";
import { randomBase62 } from "../../../crypto/hash.ts";
import { conflict, ServiceError } from "../../../lib/errors.ts";
import { newId } from "../../../lib/ids.ts";
import type { Actor } from "../../actor.ts";
import { audit } from "../../audit/service.ts";
import { inTx, isUniqueViolation } from "../../tx.ts";
import type { SudoOptions } from "../members/guard.ts";
import { DOMAINS_LIMIT, parseDomain } from "./domains.ts";
import { requireSsoOwner } from "./guard.ts";

export async function addSsoDomain(app: App, actor: Actor, input: { domain?: unknown }, opts?: SudoOptions) {
  requireSsoOwner(app, actor, opts);
  const domain = parseDomain(input.domain);
  return inTx(app, async (tx) => {
    const rows = await tx
      .selectFrom("sso_domains")
      .select(["domain"])
      .where("org_id", "=", actor.orgId)
      .execute();
    if (rows.some((r) => r.domain === domain))
      throw conflict("domain_exists", `${domain} is already in the list.`, { param: "domain" });
    if (rows.length >= DOMAINS_LIMIT)
      throw new ServiceError(422, "domains_limit", `An org has at most ${DOMAINS_LIMIT} domains.`, {
        param: "domain",
      });
    const taken = await tx
      .selectFrom("sso_domains")
      .select("id")
      .where("domain", "=", domain)
      .where("verified_at", "is not", null)
      .executeTakeFirst();
    if (taken) throw conflict("domain_taken", `Another org has verified ${domain}.`, { param: "domain" });
    const now = app.clock.now();
    const row = {
      id: newId("ssod", now),
      org_id: actor.orgId,
      domain,
      token: randomBase62(32),
      verified_at: null,
      created_at: now,
    };
    try {
      await tx.insertInto("sso_domains").values(row).execute();
    } catch (e) {
      if (isUniqueViolation(e))
        throw conflict("domain_exists", `${domain} is already in the list.`, { param: "domain" });
      throw e;
    }
    await audit(tx, app, actor, { action: "sso.domain_added", target: domain });
    return row;
  });
}
