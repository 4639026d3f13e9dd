// The operator's view of orgs: find (by external_ref), read, and change name, status, note, reference and
// limits. Every change is one transaction with its audit row, carrying the operator key's ID.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import type { OrgsTable } from "../../db/schema.ts";
import { conflict, notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/service.ts";
import type { OperatorActor } from "../identity/auth/operator.ts";
import { presentOrg } from "../orgs/service.ts";
import { listParams, page } from "../pagination.ts";
import { inTx, isUniqueViolation } from "../tx.ts";
import { parse } from "../validate.ts";
import { operatorInOrg } from "./actor.ts";
import { OrgChange, type OrgChangeInput } from "./schema.ts";

export const presentOperatorOrg = (o: OrgsTable) => ({ ...presentOrg(o), external_ref: o.external_ref });

export async function loadOrg(db: App["db"] | Tx, id: string): Promise<OrgsTable> {
  const row = isId("org", id)
    ? await db.selectFrom("orgs").selectAll().where("id", "=", id).executeTakeFirst()
    : undefined;
  if (!row) throw notFound(`No org ${id}.`);
  return row;
}

export async function listOrgs(app: App, _op: OperatorActor, query: Record<string, unknown>) {
  const p = listParams(query, "org");
  let q = app.db.selectFrom("orgs").selectAll();
  if (typeof query.external_ref === "string") q = q.where("external_ref", "=", query.external_ref);
  return page(q, p, "/v1/operator/orgs", presentOperatorOrg);
}

export async function getOrg(app: App, _op: OperatorActor, id: string) {
  return presentOperatorOrg(await loadOrg(app.db, id));
}

/** The columns a change sets, from the operator's input (what is absent stays as it is). */
export function orgColumns(b: OrgChangeInput, now: number): Partial<OrgsTable> {
  const set: Partial<OrgsTable> = { updated_at: now };
  if (b.name !== undefined) set.name = b.name;
  if (b.status !== undefined) set.status = b.status;
  if (b.status_note !== undefined) set.status_note = b.status_note;
  if (b.external_ref !== undefined) set.external_ref = b.external_ref;
  if (b.limits) {
    for (const k of ["brands", "channels", "members", "posts_per_month"] as const)
      if (b.limits[k] !== undefined) set[`limit_${k}`] = b.limits[k];
  }
  return set;
}

/** Another org holds this reference: `external_ref_taken`, checked in the change's transaction. */
export async function assertRefFree(tx: Tx, ref: string | null | undefined, orgId: string | null) {
  if (ref === null || ref === undefined) return;
  const other = await tx.selectFrom("orgs").select("id").where("external_ref", "=", ref).executeTakeFirst();
  if (other && other.id !== orgId)
    throw conflict("external_ref_taken", `Another org has the reference ${ref}.`, { param: "external_ref" });
}

/** Changes an org as the operator (also `svc admin org update`); the actor's `operator` names who. */
export async function changeOrg(app: App, actor: Actor, input: unknown) {
  const b = parse(OrgChange, input);
  return refTaken(() =>
    inTx(app, async (tx) => {
      const before = await loadOrg(tx, actor.orgId);
      await assertRefFree(tx, b.external_ref, before.id);
      await tx.updateTable("orgs").set(orgColumns(b, app.clock.now())).where("id", "=", before.id).execute();
      await audit(tx, app, actor, {
        action: "org.operator_update",
        target: before.id,
        detail: {
          fields: Object.keys(b),
          ...(b.status ? { status: { from: before.status, to: b.status } } : {}),
        },
      });
      return presentOperatorOrg(await loadOrg(tx, before.id));
    }),
  );
}

/** Two changes racing for one reference: the unique index decides, and the loser hears external_ref_taken. */
export async function refTaken<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isUniqueViolation(e, "external_ref"))
      throw conflict("external_ref_taken", "Another org has that reference.", { param: "external_ref" });
    throw e;
  }
}

export async function operatorChangeOrg(app: App, op: OperatorActor, id: string, input: unknown) {
  const org = await loadOrg(app.db, id);
  return changeOrg(app, operatorInOrg(op, org.id), input);
}
