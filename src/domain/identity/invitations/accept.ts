// Accepting an invitation (issue items 27, 7 and 3). Accepting proves the address: an account is made for it only
// by someone holding the proof mailed to it (proof.ts), and an existing account joins only for its own person:
// signed in as it, or typing its password (a sign-in guess, counted like one: guesses/guard.ts). The page and every
// answer before success are the same for every address, so they tell no one (an org's admin holding the link, say)
// whether the address has an account on this install. An invitation the operator made (`svc admin`, the operator
// API: no inviting member) is vouched for by the operator and needs no proof. Joining signs the person in, in the
// org joined.
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
import { checkSignInPassword } from "../sessions/signin.ts";
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
 * - prove: not signed in, no proof: the account's password (or sign in first) if the address has one, or have a
 *   link mailed to the address (the same for every address);
 * - sign_in / create: not signed in, the address proven: its account exists or not. The page offers the same one
 *   password field for both (the account's password, or the new account's), so it says nothing either way.
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

/** How the address was shown to be the joiner's (kept in the audit row). */
export type ProvenBy = "sign_in" | "password" | "operator" | "mailed_link";

/**
 * Accepts an invitation once. Signed in (`signedInUserId`): the account must be the invited address's. Not signed
 * in, `password` is needed, and is checked as a sign-in guess (counted per typed address and the client's
 * `address`, paused alike) before anything about the address's account is told:
 * - the address has an account: it must be that account's password (then a person with a second factor signs in
 *   with it first; the password alone does not join them);
 * - it has none and is proven (`proof`, or an operator's invitation): the password (and optionally `name`) makes
 *   the account;
 * - it has none and is not proven: refused as a wrong password is, so the answer is the same for every address.
 */
export async function acceptInvitation(
  app: App,
  input: unknown,
  ctx: { signedInUserId?: string | null; address?: string | null } = {},
) {
  const b = parse(Accept, input);
  const now = app.clock.now();
  const opened = await openInvitation(app.db as unknown as Tx, app, b.token);
  // Joining changes the org: a read-only or suspended org takes no one in (the link stays open meanwhile).
  const closed = orgWriteRefusal(opened.org_status, opened.org_status_note);
  if (closed) throw closed;
  const existing = await findUserByEmail(app.db, opened.email);
  let provenBy: ProvenBy;
  if (ctx.signedInUserId) {
    if (!existing || ctx.signedInUserId !== existing.id)
      throw refused(`This invitation is for ${opened.email}; sign out, then open the link again.`);
    provenBy = "sign_in";
  } else {
    if (b.password === undefined)
      throw new ServiceError(400, "parameter_missing", "Type a password.", { param: "password" });
    const isProven = proven(opened, b.proof);
    // The same counted, timed check as signing in, for every address. Only a proven address without an account
    // has nothing to compare (its password makes the account); an unproven one without an account can never
    // match, so it is refused exactly as a wrong password is.
    await checkSignInPassword(
      app,
      opened.email,
      existing || !isProven ? b.password : null,
      ctx.address ?? null,
    );
    if (existing) {
      // The password alone is not a sign-in for a person with a second factor.
      if (hasSecondFactor(await mfaOf(app.db, existing.id)))
        throw refused(
          `${opened.email} signs in with a second factor: sign in, then open this link again to join.`,
        );
      provenBy = "password";
    } else provenBy = vouched(opened) ? "operator" : "mailed_link";
  }
  return inTx(app, async (tx) => {
    const inv = await openInvitation(tx, app, b.token);
    const status = orgWriteRefusal(inv.org_status, inv.org_status_note);
    if (status) throw status;
    let user = await findUserByEmail(tx, inv.email);
    let created = false;
    // The address's account appeared or went while the password was checked: start over.
    const changed = () => refused(`This invitation is for ${inv.email}; open the link again.`);
    if (existing) {
      if (!user || user.id !== existing.id) throw changed();
    } else {
      if (user) throw changed();
      user = (await createUser(tx, app, { email: inv.email, name: b.name ?? null, password: b.password! }))
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
    const joined = await insertMember(tx, app, inv.org_id, user.id, r, inv.invited_by);
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
        proven_by: provenBy,
      },
    });
    return {
      object: "invitation_acceptance" as const,
      org: { id: inv.org_id, name: inv.org_name },
      user: { id: user.id, email: user.email },
      role: r,
      created_account: created,
      proven_by: provenBy,
    };
  });
}

/**
 * The person who just joined is signed in, in the org they joined, under a new session ID (the old one was a
 * guest's or had fewer rights). Someone who just typed the account's password (`confirmed`: making the account,
 * or joining with its password) starts in sudo mode, as at any sign-in; a person without a second factor whom an
 * org requires to have one sets it up first.
 */
export async function signInJoined(
  app: App,
  session: Session,
  joined: { userId: string; orgId: string; confirmed: boolean },
  meta: ClientMeta,
): Promise<Session> {
  const needsFactor =
    !hasSecondFactor(await mfaOf(app.db, joined.userId)) && (await mfaRequiredFor(app.db, joined.userId));
  return rotateSession(
    app,
    session,
    { stage: needsFactor ? "enrol" : "active", userId: joined.userId, orgId: joined.orgId, livemode: false },
    meta,
    { confirmed_at: joined.confirmed ? app.clock.now() : session.confirmed_at },
  );
}
