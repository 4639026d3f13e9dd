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
import { inTx } from "../../tx.ts";
import { parse } from "../../validate.ts";
import { requireOwnerChange, requirePersonCredential, type SudoOptions } from "../members/guard.ts";
import { InvitationCreate } from "../members/schema.ts";
import { seatsTaken } from "../members/service.ts";
import { newProof, provenUrl } from "./proof.ts";

export const INVITATION_TTL_MS = 7 * 86400_000;

export { InvitationCreate };

export const hashToken = (token: string) => sha256hex(`invitation:${token}`);
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

export const invitationInvalid = () =>
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
    proof_hash: null,
    proof_sent_at: null,
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

/**
 * Mails the invitation to the invited address. The mailed link carries the address proof as well (proof.ts), so
 * the person who reads it can make an account in one step; the link the admin was shown does not. A failure leaves
 * the invitation standing with `emailed: false`, so the caller passes the link on.
 */
export async function mailInvitation(
  app: App,
  mailer: ReturnType<typeof requireMailer>,
  row: InvitationsTable,
  orgName: string,
  url: string,
): Promise<void> {
  try {
    const proof = await newProof(app, row.id);
    await mailer.send({
      to: row.email,
      ...mailView(
        `You are invited to ${orgName} on svc`,
        [
          `You are invited to join ${orgName} as ${row.role}.`,
          "The link works once, for one week. If you did not expect this, ignore this mail.",
        ],
        { href: provenUrl(url, proof), label: "Accept the invitation" },
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
