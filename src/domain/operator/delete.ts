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
import { sweepPrefix } from "../media/bucket-sweep.ts";
import { objectKey } from "../media/s3.ts";
import { deleteObject } from "../media/storage.ts";
import { inTx } from "../tx.ts";
import { loadOrg } from "./orgs.ts";
import { tablesWithColumn } from "./tables.ts";

/** Rows kept on purpose: the audit log outlives the org. */
const KEPT = new Set(["audit_events", "orgs"]);

export async function deleteOrgData(tx: Tx, app: App, orgId: string): Promise<void> {
  // Stored Idempotency-Key answers belong to the org's keys (they may hold its data): gone with the keys.
  await run(tx, app.dialect, deleteOrgIdempotentAnswers, [orgId]);
  // audit_throttle rows are keyed `<credential>|<route>|<minute>`, with no org column: those of the org's API keys
  // go with the keys (the range is every key starting `<id>|`; `}` sorts right after `|`).
  const keys = await tx.selectFrom("api_keys").select("id").where("org_id", "=", orgId).execute();
  for (const k of keys)
    await tx
      .deleteFrom("audit_throttle")
      .where("key", ">=", `${k.id}|`)
      .where("key", "<", `${k.id}}`)
      .execute();
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
  const deleted = await inTx(app, async (tx) => {
    const org = await loadOrg(tx, actor.orgId);
    if (confirm !== org.name)
      throw new ServiceError(422, "parameter_invalid", "confirm must repeat the org's name exactly.", {
        param: "confirm",
      });
    await audit(tx, app, actor, { action: "org.delete", target: org.id, detail: { name: org.name } });
    const objects = await orgObjects(tx, org.id);
    await deleteOrgData(tx, app, org.id);
    return { result: { id: org.id, object: "org" as const, deleted: true as const }, objects };
  });
  // The bucket after the commit (an object deleted for a transaction that then failed could not come back). What
  // fails here is found again by media.prune, which deletes objects no row names (queue/tasks/media-prune.ts).
  await deleteOrgObjects(app, deleted.result.id, deleted.objects).catch((e) =>
    app.log.warn("org delete: removing its bucket objects failed; media.prune retries", {
      org: deleted.result.id,
      error: String(e),
    }),
  );
  return deleted.result;
}

/** Where the org's media objects are: each bucket its rows name, and the keys there. */
async function orgObjects(tx: Tx, orgId: string): Promise<{ bucket: string; key: string }[]> {
  const rows = await tx
    .selectFrom("media")
    .select(["bucket", "object_key"])
    .where("org_id", "=", orgId)
    .where("storage", "=", "s3")
    .execute();
  return rows.flatMap((r) => (r.bucket && r.object_key ? [{ bucket: r.bucket, key: r.object_key }] : []));
}

/** Every object the org's rows named, and everything under its prefix (objects no row names, unfinished uploads). */
async function deleteOrgObjects(app: App, orgId: string, named: { bucket: string; key: string }[]) {
  for (const o of named)
    await deleteObject(app, { storage: "s3", bucket: o.bucket, object_key: o.key }).catch(() => {});
  const s3 = app.config.s3;
  if (!s3) return;
  await sweepPrefix(
    app,
    s3.bucket,
    objectKey(app, orgId, ""),
    async (page) => page.map((o) => o.key),
    Number.POSITIVE_INFINITY,
  );
}
