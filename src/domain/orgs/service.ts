// Orgs: the tenants. Creating one also creates its data key, in the same transaction.
import * as v from "valibot";
import type { App } from "../../app/context.ts";
import type { Db, Tx } from "../../db/index.ts";
import type { OrgsTable } from "../../db/schema.ts";
import { iso } from "../../lib/clock.ts";
import { notFound, ServiceError } from "../../lib/errors.ts";
import { isId, newId } from "../../lib/ids.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { requireOwnerChange, requirePersonCredential, type SudoOptions } from "../identity/members/guard.ts";
import { hasSecondFactor, mfaOf } from "../identity/mfa/status.ts";
import { inTx } from "../tx.ts";
import { name, parse } from "../validate.ts";
import { usageOf } from "./usage.ts";

export const presentOrg = (o: OrgsTable) => ({
  id: o.id,
  object: "org" as const,
  name: o.name,
  require_mfa: o.require_mfa === 1,
  require_sso: o.require_sso === 1,
  status: o.status,
  status_note: o.status_note,
  limits: {
    brands: o.limit_brands,
    channels: o.limit_channels,
    members: o.limit_members,
    posts_per_month: o.limit_posts_per_month,
  },
  created_at: iso(o.created_at),
});

export async function insertOrg(tx: Tx, app: App, orgName: string): Promise<OrgsTable> {
  const now = app.clock.now();
  const row: OrgsTable = {
    id: newId("org", now),
    name: parse(name(), orgName),
    status: "active",
    status_note: null,
    require_mfa: 0,
    require_sso: 0,
    limit_brands: null,
    limit_channels: null,
    limit_members: null,
    limit_posts_per_month: null,
    external_ref: null,
    created_at: now,
    updated_at: now,
  };
  await tx.insertInto("orgs").values(row).execute();
  await app.keys.createDataKey(tx, row.id, now);
  return row;
}

/** Finds an org by ID or name (admin commands); a name shared by two orgs must be given as the ID. */
export async function findOrg(db: Db | Tx, ref: string | undefined): Promise<OrgsTable> {
  if (!ref) {
    const all = await db.selectFrom("orgs").selectAll().limit(2).execute();
    if (all.length === 1) return all[0]!;
    throw new ServiceError(
      422,
      "org_required",
      all.length
        ? "This server has several orgs; name one with --org."
        : "There is no org yet; run svc admin bootstrap.",
    );
  }
  const rows = await (isId("org", ref)
    ? db.selectFrom("orgs").selectAll().where("id", "=", ref)
    : db.selectFrom("orgs").selectAll().where("name", "=", ref)
  ).execute();
  if (rows.length > 1)
    throw new ServiceError(422, "org_ambiguous", `Several orgs are named ${ref}; use the ID.`);
  if (!rows[0]) throw notFound(`No org ${ref}.`, "org");
  return rows[0];
}

export const OrgUpdate = v.strictObject({ name: v.optional(name()), require_mfa: v.optional(v.boolean()) });

/** GET /v1/org: the org the credential acts in; owners and admins also see this month's usage against limits. */
export async function getOrg(app: App, actor: Actor) {
  requirePersonCredential(actor);
  const org = presentOrg(
    await app.db.selectFrom("orgs").selectAll().where("id", "=", actor.orgId).executeTakeFirstOrThrow(),
  );
  if (actor.role !== "owner" && actor.role !== "admin") return org;
  return { ...org, usage: await usageOf(app, actor.orgId) };
}

/** POST /v1/org {name, require_mfa}: owners; turning required two-factor off needs sudo mode (the dashboard). */
export async function updateOrg(app: App, actor: Actor, input: unknown, opts?: SudoOptions) {
  requirePersonCredential(actor);
  requireScope(actor, "org:write");
  const b = parse(OrgUpdate, input);
  return inTx(app, async (tx) => {
    const cur = await tx
      .selectFrom("orgs")
      .select("require_mfa")
      .where("id", "=", actor.orgId)
      .executeTakeFirstOrThrow();
    if (b.require_mfa === false && cur.require_mfa === 1)
      requireOwnerChange(app, actor, opts, "turn off required two-factor");
    // Requiring two-factor of everyone starts with the person who asks for it (the operator excepted).
    if (
      b.require_mfa === true &&
      cur.require_mfa === 0 &&
      actor.userId &&
      !hasSecondFactor(await mfaOf(tx, actor.userId))
    )
      throw new ServiceError(
        403,
        "mfa_required_first",
        "Turn on two-factor sign-in for yourself first (an authenticator app or a passkey).",
        { param: "require_mfa" },
      );
    const set: Partial<OrgsTable> = { updated_at: app.clock.now() };
    if (b.name !== undefined) set.name = b.name;
    if (b.require_mfa !== undefined) set.require_mfa = b.require_mfa ? 1 : 0;
    await tx.updateTable("orgs").set(set).where("id", "=", actor.orgId).execute();
    await audit(tx, app, actor, {
      action: "org.update",
      target: actor.orgId,
      detail: { fields: Object.keys(b) },
    });
    return presentOrg(
      await tx.selectFrom("orgs").selectAll().where("id", "=", actor.orgId).executeTakeFirstOrThrow(),
    );
  });
}
