// Invitations (interface.md Members; reference §2, §4): a one-time link {base_url}/invite/<token>, valid one week,
// shown once at creation and optionally emailed (`send_email`). Accepting creates the account with a password, or
// adds the existing account once its person has signed in. Open invitations count toward the members limit.
import * as v from "valibot";
import type { App } from "../../../app/context.ts";
import { randomBase62, sha256hex } from "../../../crypto/hash.ts";
import type { Tx } from "../../../db/index.ts";
import type { InvitationsTable } from "../../../db/tables/identity.ts";
import { iso } from "../../../lib/clock.ts";
import { conflict, notFound, ServiceError } from "../../../lib/errors.ts";
import { isId, newId } from "../../../lib/ids.ts";
import { requireMailer } from "../../../mail/mailer.ts";
import { mailView } from "../../../mail/views.ts";
import { type Actor, requireScope } from "../../actor.ts";
import { audit } from "../../audit/service.ts";
import { assertWithinLimit } from "../../orgs/limits.ts";
import { listParams, page } from "../../pagination.ts";
import { type Role, scopesOfRole } from "../../scopes.ts";
import { inTx } from "../../tx.ts";
import { parse, rule } from "../../validate.ts";
import { requireOwnerChange, requirePersonCredential, type SudoOptions } from "../members/guard.ts";
import { insertMember, role, seatsTaken } from "../members/service.ts";
import { newPassword } from "../passwords/service.ts";
import { checkSignInPassword } from "../sessions/signin.ts";
import { createUser, email, findUserByEmail } from "../users/service.ts";

export const INVITATION_TTL_MS = 7 * 86400_000;

export const InvitationCreate = v.strictObject({
  email,
  role,
  send_email: v.optional(v.boolean()),
});
const Accept = v.strictObject({
  token: v.string(),
  password: v.optional(newPassword),
  name: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, rule("name_invalid", "Name must be 1 to 100 characters.")),
      v.maxLength(100, rule("name_invalid", "Name must be 1 to 100 characters.")),
    ),
  ),
});

const hashToken = (token: string) => sha256hex(`invitation:${token}`);
export const invitationUrl = (app: App, token: string) =>
  `${app.config.baseUrl.replace(/\/$/, "")}/invite/${token}`;

export const presentInvitation = (i: InvitationsTable, url?: string) => ({
  id: i.id,
  object: "invitation" as const,
  email: i.email,
  role: i.role,
  expires_at: iso(i.expires_at),
  ...(url ? { url } : {}),
  emailed: i.emailed === 1,
  created_at: iso(i.created_at),
});

const invitationInvalid = () =>
  new ServiceError(
    404,
    "invitation_invalid",
    "This invitation link is expired, was already used or was withdrawn; ask for a new one.",
  );

/** POST /v1/invitations: the link is in the answer once; `emailed` says whether the mail went out. */
export async function createInvitation(app: App, actor: Actor, input: unknown, opts?: SudoOptions) {
  requirePersonCredential(actor);
  requireScope(actor, "members:write");
  const b = parse(InvitationCreate, input);
  if (b.role === "owner") requireOwnerChange(app, actor, opts, "invite an owner");
  // Asked to email without an SMTP server: refuse before anything is made.
  const mailer = b.send_email ? requireMailer(app) : null;
  const { row, orgName, token } = await inTx(app, (tx) => insertInvitation(tx, app, actor, b));
  const url = invitationUrl(app, token);
  if (mailer) await mailInvitation(app, mailer, row, orgName, url);
  return presentInvitation(row, url);
}

/**
 * The invitation's row and audit entry in the caller's transaction (an operator creates an org and its first
 * owner's invitation in one); the link's token is returned once, never stored.
 */
export async function insertInvitation(
  tx: Tx,
  app: App,
  actor: Actor,
  b: { email: string; role: string },
): Promise<{ row: InvitationsTable; orgName: string; token: string }> {
  const token = randomBase62(40);
  const now = app.clock.now();
  const already = await tx
    .selectFrom("members")
    .innerJoin("users", "users.id", "members.user_id")
    .select("users.id")
    .where("members.org_id", "=", actor.orgId)
    .where("users.email", "=", b.email)
    .executeTakeFirst();
  if (already) throw conflict("member_exists", `${b.email} is already a member.`, { param: "email" });
  // A new invitation for the same address replaces the open one (its link stops working).
  await tx
    .updateTable("invitations")
    .set({ revoked_at: now })
    .where("org_id", "=", actor.orgId)
    .where("email", "=", b.email)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .execute();
  await assertWithinLimit(
    tx,
    actor.orgId,
    "members",
    async () => 1 + (await seatsTaken(tx, app, actor.orgId)),
  );
  const r: InvitationsTable = {
    id: newId("inv", now),
    org_id: actor.orgId,
    email: b.email,
    role: b.role,
    token_hash: hashToken(token),
    invited_by: actor.userId,
    emailed: 0,
    expires_at: now + INVITATION_TTL_MS,
    accepted_at: null,
    accepted_by: null,
    revoked_at: null,
    created_at: now,
  };
  await tx.insertInto("invitations").values(r).execute();
  await audit(tx, app, actor, {
    action: "invitation.create",
    target: r.id,
    detail: { email: b.email, role: b.role },
  });
  const org = await tx
    .selectFrom("orgs")
    .select("name")
    .where("id", "=", actor.orgId)
    .executeTakeFirstOrThrow();
  return { row: r, orgName: org.name, token };
}

/** Mails the link; a failure leaves the invitation standing with `emailed: false`, so the caller passes it on. */
export async function mailInvitation(
  app: App,
  mailer: ReturnType<typeof requireMailer>,
  row: InvitationsTable,
  orgName: string,
  url: string,
): Promise<void> {
  try {
    await mailer.send({
      to: row.email,
      ...mailView(
        `You are invited to ${orgName} on svc`,
        [
          `You are invited to join ${orgName} as ${row.role}.`,
          "The link works once, for one week. If you did not expect this, ignore this mail.",
        ],
        { href: url, label: "Accept the invitation" },
      ),
    });
    await app.db.updateTable("invitations").set({ emailed: 1 }).where("id", "=", row.id).execute();
    row.emailed = 1;
  } catch (e) {
    // The invitation stands and its link is in the answer; `emailed: false` tells the caller to pass it on.
    app.log.warn("invitation mail failed", { invitation: row.id, error: String(e) });
  }
}

/** GET /v1/invitations: open invitations, newest first. */
export async function listInvitations(app: App, actor: Actor, query: Record<string, unknown>) {
  requirePersonCredential(actor);
  requireScope(actor, "members:write");
  const q = app.db
    .selectFrom("invitations")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", app.clock.now());
  return page(q, listParams(query, "inv"), "/v1/invitations", (r) => presentInvitation(r));
}

/** DELETE /v1/invitations/{id}: the link stops working. */
export async function revokeInvitation(app: App, actor: Actor, id: string, opts?: SudoOptions) {
  requirePersonCredential(actor);
  requireScope(actor, "members:write");
  return inTx(app, async (tx) => {
    const row = isId("inv", id)
      ? await tx
          .selectFrom("invitations")
          .selectAll()
          .where("id", "=", id)
          .where("org_id", "=", actor.orgId)
          .executeTakeFirst()
      : undefined;
    if (!row || row.accepted_at !== null || row.revoked_at !== null)
      throw notFound(`No open invitation ${id}.`, "id");
    if (row.role === "owner") requireOwnerChange(app, actor, opts, "withdraw an owner's invitation");
    await tx.updateTable("invitations").set({ revoked_at: app.clock.now() }).where("id", "=", id).execute();
    await audit(tx, app, actor, { action: "invitation.revoke", target: id, detail: { email: row.email } });
    return { id, object: "invitation" as const, deleted: true as const };
  });
}

async function openInvitation(tx: Tx, app: App, token: unknown) {
  if (typeof token !== "string" || token.length > 200) throw invitationInvalid();
  const row = await tx
    .selectFrom("invitations")
    .innerJoin("orgs", "orgs.id", "invitations.org_id")
    .selectAll("invitations")
    .select(["orgs.name as org_name"])
    .where("invitations.token_hash", "=", hashToken(token))
    .executeTakeFirst();
  if (!row || row.accepted_at !== null || row.revoked_at !== null || row.expires_at <= app.clock.now())
    throw invitationInvalid();
  return row;
}

/**
 * The accept page, before the form: which org and role. It does not say whether the address has an account
 * (whoever holds a link, an org admin included, would learn it for any address they invite): the page offers
 * the same form either way.
 */
export async function findInvitation(app: App, token: unknown) {
  const row = await openInvitation(app.db as unknown as Tx, app, token);
  return {
    object: "invitation" as const,
    org: { id: row.org_id, name: row.org_name },
    email: row.email,
    role: row.role,
    expires_at: iso(row.expires_at),
  };
}

/**
 * Accepts an invitation once. Signed in as the invited address: joins. Signed out, with `password`: when the
 * address has an account, that account's password (a counted sign-in guess, `address` being the client's) joins
 * it; when it has none, the password (and optionally `name`) creates the account. A wrong password is refused
 * with the sign-in's own answer, and a paused address gets the sign-in's pause, so the steps before success read
 * the same for both.
 */
export async function acceptInvitation(
  app: App,
  input: unknown,
  ctx: { signedInUserId?: string | null; address?: string | null } = {},
) {
  const b = parse(Accept, input);
  const now = app.clock.now();
  const inv = await openInvitation(app.db as unknown as Tx, app, b.token);
  const other = () =>
    new ServiceError(
      403,
      "forbidden",
      `This invitation is for ${inv.email}: sign out, then open the link again to accept it.`,
    );
  const existing = await findUserByEmail(app.db, inv.email);
  if (ctx.signedInUserId && ctx.signedInUserId !== existing?.id) throw other();
  if (!ctx.signedInUserId) {
    if (b.password === undefined)
      throw new ServiceError(400, "parameter_missing", "Type a password.", { param: "password" });
    // The same counted, timed check as signing in, whether or not the address has an account.
    if (existing) await checkSignInPassword(app, inv.email, b.password, ctx.address ?? null);
    else await checkSignInPassword(app, inv.email, null, ctx.address ?? null);
  }
  return inTx(app, async (tx) => {
    let user = await findUserByEmail(tx, inv.email);
    let created = false;
    if (!user) {
      if (ctx.signedInUserId) throw other();
      user = (await createUser(tx, app, { email: inv.email, name: b.name ?? null, password: b.password! }))
        .user;
      created = true;
    } else if (user.id !== existing?.id) {
      // The account appeared while the password was checked: start over.
      throw other();
    }
    const taken = await tx
      .updateTable("invitations")
      .set({ accepted_at: now, accepted_by: user.id })
      .where("id", "=", inv.id)
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) throw invitationInvalid();
    const r = inv.role as Role;
    const joined = await insertMember(tx, app, inv.org_id, user.id, r);
    // The new member acts in the audit row: the change is theirs, by the invitation's authority.
    const actor: Actor = {
      kind: "user",
      orgId: inv.org_id,
      livemode: false,
      scopes: scopesOfRole(r),
      brandId: null,
      apiKeyId: null,
      keyScopes: null,
      keyExpiresAt: null,
      userId: user.id,
      userTokenId: null,
      role: r,
      operator: null,
      requestId: "invitation",
    };
    await audit(tx, app, actor, {
      action: "invitation.accept",
      target: inv.id,
      detail: { email: inv.email, role: r, created_account: created, already_member: !joined },
    });
    return {
      object: "invitation_acceptance" as const,
      org: { id: inv.org_id, name: inv.org_name },
      user: { id: user.id, email: user.email },
      role: r,
      created_account: created,
    };
  });
}
