// Deleting an org removes everything in it for good: brands, channels, posts, templates, media, keys, webhooks,
// invitations, stored idempotent answers, and its data key, so anything sealed with it can never be opened
// again. Members keep their accounts, and the audit log keeps the record (its rows, and one for the deletion).
// The name must be typed again (`confirm`), so a wrong ID cannot delete the wrong org.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { deleteOrgIdempotentAnswers, deleteOrgRows } from "../../db/sql/delete-org-rows.ts";
import { run } from "../../db/sql/statement.ts";
import { ServiceError } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { requireOwnerChange, requirePersonCredential, type SudoOptions } from "../identity/members/guard.ts";
import { inTx } from "../tx.ts";
import { loadOrg } from "./orgs.ts";
import { tablesWithColumn } from "./tables.ts";

/** Rows kept on purpose: the audit log outlives the org. */
const KEPT = new Set(["audit_events", "orgs"]);

export async function deleteOrgData(tx: Tx, app: App, orgId: string): Promise<void> {
  // Stored Idempotency-Key answers belong to the org's keys (they may hold its data): gone with the keys.
  await run(tx, app.dialect, deleteOrgIdempotentAnswers, [orgId]);
  // The org row first: everything declared with ON DELETE CASCADE goes with it (targets, attempts, versions,
  // deliveries, members, the data key); tables that only carry org_id are cleared after.
  await tx.deleteFrom("orgs").where("id", "=", orgId).execute();
  for (const table of await tablesWithColumn(tx, app.dialect, "org_id")) {
    if (KEPT.has(table)) continue;
    await run(tx, app.dialect, deleteOrgRows.of(table), [orgId]);
  }
  app.keys.forget(orgId);
}

/**
 * Deletes the org named by `actor.orgId` once `confirm` repeats its name exactly. The operator (API or admin
 * command) may; of the org's people only an owner on the dashboard, with a recent password confirmation.
 */
export async function deleteOrg(app: App, actor: Actor, confirm: string | undefined, opts?: SudoOptions) {
  requirePersonCredential(actor);
  requireScope(actor, "org:write");
  requireOwnerChange(app, actor, opts, "delete the org");
  return inTx(app, async (tx) => {
    const org = await loadOrg(tx, actor.orgId);
    if (confirm !== org.name)
      throw new ServiceError(422, "parameter_invalid", "confirm must repeat the org's name exactly.", {
        param: "confirm",
      });
    await audit(tx, app, actor, { action: "org.delete", target: org.id, detail: { name: org.name } });
    await deleteOrgData(tx, app, org.id);
    return { id: org.id, object: "org" as const, deleted: true as const };
  });
}
