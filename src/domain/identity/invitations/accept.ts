// Accepting an invitation (issue items 27 and 7). Accepting proves the address: an account is made for it only by
// someone holding the proof mailed to it (proof.ts), and an existing account joins only once its person has signed
// in as it. Until then the page says the same thing for every address, so it tells no one (an org's admin holding
// the link, say) whether the address has an account on this install. An invitation the operator made
// (`svc admin`, the operator API: no inviting member) is vouched for by the operator and needs no proof.
// Joining signs the person in, in the org they joined.
import * as v from "valibot";
import type { App } from "../../../app/context.ts";
import type { Tx } from "../../../db/index.ts";
import { iso } from "../../../lib/clock.ts";
import { ServiceError } from "../../../lib/errors.ts";
import { requireMailer } from "../../../mail/mailer.ts";
import { mailView } from "../../../mail/views.ts";
import type { Actor } from "../../actor.ts";
import { audit } from "../../audit/service.ts";
import { orgWriteRefusal } from "../../orgs/status.ts";
import { type Role, scopesOfRole } from "../../scopes.ts";
import { inTx } from "../../tx.ts";
import { parse, rule } from "../../validate.ts";
import { insertMember } from "../members/service.ts";
import { hasSecondFactor, mfaOf, mfaRequiredFor } from "../mfa/status.ts";
import { newPassword } from "../passwords/service.ts";
import { type ClientMeta, rotateSession, type Session } from "../sessions/service.ts";
import { createUser, findUserByEmail } from "../users/service.ts";
import { newProof, proofValid, provenUrl } from "./proof.ts";
import { hashToken, invitationInvalid, invitationUrl } from "./service.ts";

/** A proof mail at most once a minute per invitation: the button cannot be used to flood the address. */
const PROOF_RESEND_MS = 60_000;

const Accept = v.strictObject({
  token: v.string(),
  proof: v.optional(v.string()),
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

async function openInvitation(tx: Tx, app: App, token: unknown) {
  if (typeof token !== "string" || token.length > 200) throw invitationInvalid();
  const row = await tx
    .selectFrom("invitations")
    .innerJoin("orgs", "orgs.id", "invitations.org_id")
    .selectAll("invitations")
    .select(["orgs.name as org_name", "orgs.status as org_status", "orgs.status_note as org_status_note"])
    .where("invitations.token_hash", "=", hashToken(token))
    .executeTakeFirst();
  if (!row || row.accepted_at !== null || row.revoked_at !== null || row.expires_at <= app.clock.now())
    throw invitationInvalid();
  return row;
}

type Opened = Awaited<ReturnType<typeof openInvitation>>;

/** The operator made it (no inviting member): the operator vouches for the address. */
const vouched = (inv: Opened) => inv.invited_by === null;
const proven = (inv: Opened, proof: unknown) => vouched(inv) || proofValid(inv.proof_hash, proof);

/**
 * What the invitation page offers:
 * - join: signed in as the invited address's account;
 * - other_account: signed in as someone else (sign out first);
 * - prove: not signed in, no proof: sign in if you have an account, or have a link mailed to the address (the
 *   same for every address);
 * - sign_in / create: not signed in, the address proven: its account exists (sign in) or not (choose a password).
 */
export type InvitationStep = "join" | "other_account" | "prove" | "sign_in" | "create";

export async function findInvitation(
  app: App,
  token: unknown,
  ctx: { proof?: string | null; signedInUserId?: string | null } = {},
) {
  const db = app.db as unknown as Tx;
  const inv = await openInvitation(db, app, token);
  let step: InvitationStep;
  let signedInAs: string | null = null;
  if (ctx.signedInUserId) {
    const me = await db
      .selectFrom("users")
      .select("email")
      .where("id", "=", ctx.signedInUserId)
      .executeTakeFirst();
    signedInAs = me?.email ?? null;
    step = signedInAs === inv.email ? "join" : "other_account";
  } else if (!proven(inv, ctx.proof)) step = "prove";
  else step = (await findUserByEmail(db, inv.email)) ? "sign_in" : "create";
  return {
    object: "invitation" as const,
    org: { id: inv.org_id, name: inv.org_name },
    email: inv.email,
    role: inv.role,
    expires_at: iso(inv.expires_at),
    step,
    signed_in_as: signedInAs,
  };
}

/**
 * Mails the address a way on: the link with a fresh proof when it has no account, a reminder to sign in when it
 * has one. The answer is the same either way (and when a mail went out less than a minute ago, none is sent), so
 * it says nothing about the address. Without SMTP: 503 mail_unavailable.
 */
export async function sendInvitationProof(app: App, token: unknown) {
  const mailer = requireMailer(app);
  const inv = await openInvitation(app.db as unknown as Tx, app, token);
  const answer = { object: "invitation_proof" as const, email: inv.email };
  if (inv.proof_sent_at !== null && app.clock.now() - inv.proof_sent_at < PROOF_RESEND_MS) return answer;
  const url = invitationUrl(app, token as string);
  const user = await findUserByEmail(app.db, inv.email);
  let view: ReturnType<typeof mailView>;
  if (user) {
    await app.db
      .updateTable("invitations")
      .set({ proof_sent_at: app.clock.now() })
      .where("id", "=", inv.id)
      .execute();
    view = mailView(
      `Join ${inv.org_name} on svc`,
      [
        `Someone opened your invitation to ${inv.org_name} and asked for a link.`,
        `You already have an account with ${inv.email}: sign in, then open the invitation again to join.`,
      ],
      { href: url, label: "Open the invitation" },
    );
  } else {
    const proof = await newProof(app, inv.id);
    view = mailView(
      `Join ${inv.org_name} on svc`,
      [
        `Someone opened your invitation to ${inv.org_name} and asked for a link to make an account.`,
        "It works until the invitation expires. If it was not you, ignore this mail: nothing is made without it.",
      ],
      { href: provenUrl(url, proof), label: "Choose a password and join" },
    );
  }
  void mailer
    .send({ to: inv.email, ...view })
    .catch((e) => app.log.warn("invitation proof mail failed", { invitation: inv.id, error: String(e) }));
  return answer;
}

const refused = (message: string) => new ServiceError(403, "forbidden", message);

/**
 * Accepts an invitation once. Signed in (`signedInUserId`): the account must be the invited address's. Not signed
 * in: the address must be proven (`proof`, or an operator's invitation); then `password` (and optionally `name`)
 * makes the account, or, when it has one, its person is asked to sign in.
 */
export async function acceptInvitation(
  app: App,
  input: unknown,
  ctx: { signedInUserId?: string | null } = {},
) {
  const b = parse(Accept, input);
  const now = app.clock.now();
  return inTx(app, async (tx) => {
    const inv = await openInvitation(tx, app, b.token);
    // Joining changes the org: a read-only or suspended org takes no one in (the link stays open meanwhile).
    const status = orgWriteRefusal(inv.org_status, inv.org_status_note);
    if (status) throw status;
    let user = await findUserByEmail(tx, inv.email);
    let created = false;
    if (ctx.signedInUserId) {
      if (!user || ctx.signedInUserId !== user.id)
        throw refused(`This invitation is for ${inv.email}; sign out, then open the link again.`);
    } else {
      // Checked before anything about the address's account, so a refusal tells nothing about it.
      if (!proven(inv, b.proof))
        throw refused(
          `Confirm the address first: sign in as ${inv.email}, or have a link mailed to it from this page.`,
        );
      if (user)
        throw refused(`An account with ${inv.email} exists: sign in as it to accept this invitation.`);
      if (b.password === undefined)
        throw new ServiceError(400, "parameter_missing", "Choose a password for the new account.", {
          param: "password",
        });
      user = (await createUser(tx, app, { email: inv.email, name: b.name ?? null, password: b.password }))
        .user;
      created = true;
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
      detail: {
        email: inv.email,
        role: r,
        created_account: created,
        already_member: !joined,
        proven_by: ctx.signedInUserId ? "sign_in" : vouched(inv) ? "operator" : "mailed_link",
      },
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

/**
 * The person who just joined is signed in, in the org they joined, under a new session ID (the old one was a
 * guest's or had fewer rights). Someone who just made the account typed its password (sudo mode starts); a
 * person without a second factor whom an org requires to have one sets it up first, as at any sign-in.
 */
export async function signInJoined(
  app: App,
  session: Session,
  joined: { userId: string; orgId: string; created: boolean },
  meta: ClientMeta,
): Promise<Session> {
  const needsFactor =
    !hasSecondFactor(await mfaOf(app.db, joined.userId)) && (await mfaRequiredFor(app.db, joined.userId));
  return rotateSession(
    app,
    session,
    { stage: needsFactor ? "enrol" : "active", userId: joined.userId, orgId: joined.orgId, livemode: false },
    meta,
    { confirmed_at: joined.created ? app.clock.now() : session.confirmed_at },
  );
}
