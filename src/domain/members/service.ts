// Members: people in an org with a role. An org always keeps at least one owner.
import * as v from "valibot";
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { iso } from "../../lib/clock.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { conflict, notFound } from "../errors.ts";
import { assertWithinLimit } from "../orgs/limits.ts";
import { ROLES, type Role } from "../scopes.ts";
import { inTx } from "../tx.ts";
import { createUser, email, findUserByEmail } from "../users/service.ts";
import { parse, rule } from "../validate.ts";

const role = v.pipe(
  v.string(),
  v.picklist(ROLES, rule("role_invalid", "role must be owner, admin, editor or viewer.")),
);
const MemberAdd = v.strictObject({ email, role, password: v.optional(v.nullable(v.string())) });

async function memberRows(tx: Tx, orgId: string) {
  return tx
    .selectFrom("members")
    .innerJoin("users", "users.id", "members.user_id")
    .select(["users.id", "users.email", "users.name", "members.role", "members.created_at"])
    .where("members.org_id", "=", orgId)
    .orderBy("members.created_at")
    .execute();
}

const presentMember = (m: {
  id: string;
  email: string;
  name: string | null;
  role: string;
  created_at: number;
}) => ({
  id: m.id,
  object: "member" as const,
  email: m.email,
  name: m.name,
  role: m.role,
  mfa: false,
  joined_at: iso(m.created_at),
});

export async function listMembers(app: App, actor: Actor) {
  requireScope(actor, "brands:read");
  return (await memberRows(app.db as unknown as Tx, actor.orgId)).map(presentMember);
}

/** Adds a person (creating the account with a temporary password when there is none). */
export async function addMember(app: App, actor: Actor, input: unknown) {
  requireScope(actor, "members:write");
  const b = parse(MemberAdd, input);
  return inTx(app, async (tx) => {
    await assertWithinLimit(
      tx,
      actor.orgId,
      "members",
      async () => 1 + (await memberRows(tx, actor.orgId)).length,
    );
    let user = await findUserByEmail(tx, b.email);
    let password: string | null = null;
    if (!user)
      ({ user, password } = await createUser(tx, app, { email: b.email, password: b.password ?? null }));
    const exists = await tx
      .selectFrom("members")
      .select("role")
      .where("org_id", "=", actor.orgId)
      .where("user_id", "=", user.id)
      .executeTakeFirst();
    if (exists) throw conflict("member_exists", `${b.email} is already a member.`, { param: "email" });
    await tx
      .insertInto("members")
      .values({ org_id: actor.orgId, user_id: user.id, role: b.role, created_at: app.clock.now() })
      .execute();
    await audit(tx, app, actor, {
      action: "member.add",
      target: user.id,
      detail: { email: b.email, role: b.role },
    });
    return { member: presentMember({ ...user, role: b.role, created_at: app.clock.now() }), password };
  });
}

async function loadMember(tx: Tx, orgId: string, address: string) {
  const m = (await memberRows(tx, orgId)).find((r) => r.email === address.trim().toLowerCase());
  if (!m) throw notFound(`${address} is not a member.`, "email");
  return m;
}

async function ownersLeft(tx: Tx, orgId: string, without: string) {
  return (await memberRows(tx, orgId)).filter((m) => m.role === "owner" && m.id !== without).length;
}

export async function setMemberRole(app: App, actor: Actor, input: { email: string; role: string }) {
  requireScope(actor, "members:write");
  const newRole = parse(role, input.role) as Role;
  return inTx(app, async (tx) => {
    const m = await loadMember(tx, actor.orgId, input.email);
    if (m.role === "owner" && newRole !== "owner" && (await ownersLeft(tx, actor.orgId, m.id)) === 0) {
      throw conflict("last_owner", "An org keeps at least one owner.");
    }
    await tx
      .updateTable("members")
      .set({ role: newRole })
      .where("org_id", "=", actor.orgId)
      .where("user_id", "=", m.id)
      .execute();
    await audit(tx, app, actor, {
      action: "member.role",
      target: m.id,
      detail: { from: m.role, to: newRole },
    });
    return presentMember({ ...m, role: newRole });
  });
}

export async function removeMember(app: App, actor: Actor, input: { email: string }) {
  requireScope(actor, "members:write");
  return inTx(app, async (tx) => {
    const m = await loadMember(tx, actor.orgId, input.email);
    if (m.role === "owner" && (await ownersLeft(tx, actor.orgId, m.id)) === 0)
      throw conflict("last_owner", "An org keeps at least one owner.");
    await tx.deleteFrom("members").where("org_id", "=", actor.orgId).where("user_id", "=", m.id).execute();
    await audit(tx, app, actor, { action: "member.remove", target: m.id, detail: { email: m.email } });
    return { id: m.id, object: "member" as const, deleted: true };
  });
}
