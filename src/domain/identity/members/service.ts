// Members: people in an org with a role. An org always keeps at least one owner; owner changes need an owner in
// sudo mode; API keys are refused (guard.ts). The admin commands address members by email, the API by user ID.
import * as v from "valibot";
import type { App } from "../../../app/context.ts";
import type { Tx } from "../../../db/index.ts";
import { iso } from "../../../lib/clock.ts";
import { conflict, notFound } from "../../../lib/errors.ts";
import { isId } from "../../../lib/ids.ts";
import { type Actor, requireScope } from "../../actor.ts";
import { audit } from "../../audit/service.ts";
import { assertWithinLimit } from "../../orgs/limits.ts";
import type { Role } from "../../scopes.ts";
import { inTx } from "../../tx.ts";
import { parse } from "../../validate.ts";
import { revokeKeysMintedBy } from "../api-keys/service.ts";
import { credentialsChanged } from "../auth/still-valid.ts";
import { email } from "../users/email.ts";
import { createUser, findUserByEmail } from "../users/service.ts";
import { requireOwnerChange, requirePersonCredential, type SudoOptions } from "./guard.ts";
import { MemberUpdate, role } from "./schema.ts";

export { MemberUpdate, role };

import { memberJoinedHooks } from "./hooks.ts";

const MemberAdd = v.strictObject({ email, role, password: v.optional(v.nullable(v.string())) });

type MemberRow = {
  id: string;
  email: string;
  name: string | null;
  role: string;
  created_at: number;
  /** Whether the person signs in with two-factor (an authenticator app turned on, or a passkey). */
  mfa?: unknown;
};

async function memberRows(tx: Tx, orgId: string): Promise<MemberRow[]> {
  return tx
    .selectFrom("members")
    .innerJoin("users", "users.id", "members.user_id")
    .select(["users.id", "users.email", "users.name", "members.role", "members.created_at"])
    .select((eb) =>
      eb
        .or([
          eb.exists(
            eb
              .selectFrom("user_totp")
              .select("user_totp.user_id")
              .whereRef("user_totp.user_id", "=", "users.id")
              .where("user_totp.enabled_at", "is not", null),
          ),
          eb.exists(
            eb.selectFrom("passkeys").select("passkeys.id").whereRef("passkeys.user_id", "=", "users.id"),
          ),
        ])
        .as("mfa"),
    )
    .where("members.org_id", "=", orgId)
    .orderBy("members.created_at")
    .execute();
}

export const presentMember = (m: MemberRow) => ({
  id: m.id,
  object: "member" as const,
  email: m.email,
  name: m.name,
  role: m.role,
  // SQLite answers 1/0, Postgres true/false.
  mfa: m.mfa === true || Number(m.mfa) === 1,
  joined_at: iso(m.created_at),
});

/** Members plus open invitations: what the `members` limit counts (interface.md Limits). */
export async function seatsTaken(tx: Tx, app: App, orgId: string): Promise<number> {
  const m = await tx
    .selectFrom("members")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("org_id", "=", orgId)
    .executeTakeFirstOrThrow();
  const i = await tx
    .selectFrom("invitations")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("org_id", "=", orgId)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", app.clock.now())
    .executeTakeFirstOrThrow();
  return Number(m.n) + Number(i.n);
}

export async function listMembers(app: App, actor: Actor) {
  requirePersonCredential(actor);
  requireScope(actor, "brands:read");
  return (await memberRows(app.db as unknown as Tx, actor.orgId)).map(presentMember);
}

/** Inserts the membership (and runs the joined hooks); the caller has checked the limit. */
export async function insertMember(
  tx: Tx,
  app: App,
  orgId: string,
  userId: string,
  r: Role,
  addedBy: string | null = null,
): Promise<boolean> {
  const exists = await tx
    .selectFrom("members")
    .select("role")
    .where("org_id", "=", orgId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (exists) return false;
  await tx
    .insertInto("members")
    .values({ org_id: orgId, user_id: userId, role: r, created_at: app.clock.now() })
    .execute();
  for (const hook of memberJoinedHooks) await hook(tx, app, { orgId, userId, role: r, addedBy });
  return true;
}

/** Adds a person (creating the account with a temporary password when there is none): `svc admin members add`. */
export async function addMember(app: App, actor: Actor, input: unknown, opts?: SudoOptions) {
  requirePersonCredential(actor);
  requireScope(actor, "members:write");
  const b = parse(MemberAdd, input);
  if (b.role === "owner") requireOwnerChange(app, actor, opts, "make an owner");
  return inTx(app, async (tx) => {
    await assertWithinLimit(
      tx,
      actor.orgId,
      "members",
      async () => 1 + (await seatsTaken(tx, app, actor.orgId)),
    );
    let user = await findUserByEmail(tx, b.email);
    let password: string | null = null;
    if (!user)
      ({ user, password } = await createUser(tx, app, { email: b.email, password: b.password ?? null }));
    if (!(await insertMember(tx, app, actor.orgId, user.id, b.role, actor.userId)))
      throw conflict("member_exists", `${b.email} is already a member.`, { param: "email" });
    await audit(tx, app, actor, {
      action: "member.add",
      target: user.id,
      detail: { email: b.email, role: b.role },
    });
    return { member: presentMember({ ...user, role: b.role, created_at: app.clock.now() }), password };
  });
}

async function memberById(tx: Tx, orgId: string, userId: string): Promise<MemberRow> {
  const m = isId("user", userId) ? (await memberRows(tx, orgId)).find((r) => r.id === userId) : undefined;
  if (!m) throw notFound(`No member ${userId} in this org.`, "id");
  return m;
}

async function memberByEmail(tx: Tx, orgId: string, address: string): Promise<MemberRow> {
  const m = (await memberRows(tx, orgId)).find((r) => r.email === address.trim().toLowerCase());
  if (!m) throw notFound(`${address} is not a member.`, "email");
  return m;
}

async function ownersLeft(tx: Tx, orgId: string, without: string) {
  return (await memberRows(tx, orgId)).filter((m) => m.role === "owner" && m.id !== without).length;
}

export async function getMember(app: App, actor: Actor, userId: string) {
  requirePersonCredential(actor);
  requireScope(actor, "brands:read");
  const m = await memberById(app.db as unknown as Tx, actor.orgId, userId);
  return presentMember(m!);
}

async function changeRole(
  app: App,
  actor: Actor,
  find: (tx: Tx) => Promise<MemberRow>,
  newRole: Role,
  opts?: SudoOptions,
) {
  return inTx(app, async (tx) => {
    const m = await find(tx);
    if (m.role === newRole) return presentMember(m);
    if (m.role === "owner" || newRole === "owner")
      requireOwnerChange(app, actor, opts, m.role === "owner" ? "change an owner's role" : "make an owner");
    if (m.role === "owner" && (await ownersLeft(tx, actor.orgId, m.id)) === 0)
      throw conflict("last_owner", "An org keeps at least one owner.");
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

/** Withdraws the open invitations `userId` sent in the actor's org; returns how many. */
async function withdrawInvitationsBy(tx: Tx, app: App, actor: Actor, userId: string): Promise<number> {
  const open = await tx
    .selectFrom("invitations")
    .select(["id", "email"])
    .where("org_id", "=", actor.orgId)
    .where("invited_by", "=", userId)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .execute();
  if (!open.length) return 0;
  await tx
    .updateTable("invitations")
    .set({ revoked_at: app.clock.now() })
    .where(
      "id",
      "in",
      open.map((i) => i.id),
    )
    .execute();
  for (const i of open)
    await audit(tx, app, actor, {
      action: "invitation.revoke",
      target: i.id,
      detail: { email: i.email, reason: "member.remove" },
    });
  return open.length;
}

async function remove(app: App, actor: Actor, find: (tx: Tx) => Promise<MemberRow>, opts?: SudoOptions) {
  const out = await inTx(app, async (tx) => {
    const m = await find(tx);
    if (m.role === "owner") {
      requireOwnerChange(app, actor, opts, "remove an owner");
      if ((await ownersLeft(tx, actor.orgId, m.id)) === 0)
        throw conflict("last_owner", "An org keeps at least one owner.");
    }
    await tx.deleteFrom("members").where("org_id", "=", actor.orgId).where("user_id", "=", m.id).execute();
    // Leaving the org ends what the membership granted: every key the person minted here stops working, and
    // every invitation they sent is withdrawn (a link to their own second address would let them back in).
    const revoked = await revokeKeysMintedBy(tx, app, actor, m.id);
    const withdrawn = await withdrawInvitationsBy(tx, app, actor, m.id);
    await audit(tx, app, actor, {
      action: "member.remove",
      target: m.id,
      detail: { email: m.email, api_keys_revoked: revoked.length, invitations_revoked: withdrawn },
    });
    return { id: m.id, object: "member" as const, deleted: true as const };
  });
  // Committed: open event streams of those keys (and of the person's tokens in this org) end now.
  credentialsChanged(app);
  return out;
}

/** POST /v1/members/{user id} {role}. */
export async function updateMember(
  app: App,
  actor: Actor,
  userId: string,
  input: unknown,
  opts?: SudoOptions,
) {
  requirePersonCredential(actor);
  requireScope(actor, "members:write");
  const b = parse(MemberUpdate, input);
  return changeRole(app, actor, (tx) => memberById(tx, actor.orgId, userId), b.role, opts);
}

/** DELETE /v1/members/{user id}. */
export async function deleteMember(app: App, actor: Actor, userId: string, opts?: SudoOptions) {
  requirePersonCredential(actor);
  requireScope(actor, "members:write");
  return remove(app, actor, (tx) => memberById(tx, actor.orgId, userId), opts);
}

/** `svc admin members role`. */
export async function setMemberRole(app: App, actor: Actor, input: { email: string; role: string }) {
  requirePersonCredential(actor);
  requireScope(actor, "members:write");
  const newRole = parse(role, input.role) as Role;
  return changeRole(app, actor, (tx) => memberByEmail(tx, actor.orgId, input.email), newRole);
}

/** `svc admin members remove`. */
export async function removeMember(app: App, actor: Actor, input: { email: string }) {
  requirePersonCredential(actor);
  requireScope(actor, "members:write");
  return remove(app, actor, (tx) => memberByEmail(tx, actor.orgId, input.email));
}
