// Verifying a domain (owners, sudo mode): its TXT record `_svc-verify.<domain>` must hold `svc-verify=<token>`.
// The check is made again at each click; a domain another org verified first is domain_taken.
import type { App } from "../../../app/context.ts";
import { conflict, notFound, ServiceError } from "../../../lib/errors.ts";
import type { Actor } from "../../actor.ts";
import { audit } from "../../audit/service.ts";
import { inTx, isUniqueViolation } from "../../tx.ts";
import type { SudoOptions } from "../members/guard.ts";
import { requireSsoOwner } from "./guard.ts";
import { txtRecords } from "./provider.ts";
import { txtName, txtValue } from "./settings.ts";

export async function verifySsoDomain(app: App, actor: Actor, id: string, opts?: SudoOptions) {
  requireSsoOwner(app, actor, opts);
  const row = await app.db
    .selectFrom("sso_domains")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw notFound("No such domain.", "domain");
  if (row.verified_at !== null) return row;
  let records: string[];
  try {
    records = await txtRecords(app, txtName(row.domain));
  } catch (e) {
    throw new ServiceError(
      422,
      "domain_unverified",
      `The TXT record of ${txtName(row.domain)} could not be read (${(e as Error).message}); try again shortly.`,
      { param: "domain" },
    );
  }
  if (!records.includes(txtValue(row.token)))
    throw new ServiceError(
      422,
      "domain_unverified",
      `${txtName(row.domain)} has no TXT record ${txtValue(row.token)} yet. DNS changes can take a while to show.`,
      { param: "domain" },
    );
  const now = app.clock.now();
  try {
    await inTx(app, async (tx) => {
      const taken = await tx
        .selectFrom("sso_domains")
        .select("id")
        .where("domain", "=", row.domain)
        .where("verified_at", "is not", null)
        .executeTakeFirst();
      if (taken)
        throw conflict("domain_taken", `Another org has verified ${row.domain}.`, { param: "domain" });
      await tx.updateTable("sso_domains").set({ verified_at: now }).where("id", "=", row.id).execute();
      await audit(tx, app, actor, { action: "sso.domain_verified", target: row.domain });
    });
  } catch (e) {
    if (isUniqueViolation(e))
      throw conflict("domain_taken", `Another org has verified ${row.domain}.`, { param: "domain" });
    throw e;
  }
  return { ...row, verified_at: now };
}
