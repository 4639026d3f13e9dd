// Signing in to the dashboard: the password (argon2id), then a second factor when the person has one, or
// enrolment first when an org of theirs requires two-factor and they have none (`mfa_required_first`).
// Every password and code typed is a guess counted in the database per account and per client address
// (guesses/guard.ts), so every process counts together and a guesser locks out only their own address.
import type { App } from "../../../app/context.ts";
import type { SessionStage } from "../../../db/tables/sessions.ts";
import { ServiceError } from "../../../lib/errors.ts";
import { auditSignIn } from "../../audit/service.ts";
import { inTx } from "../../tx.ts";
import {
  accountSubject,
  beginGuess,
  clearGuesses,
  emailSubject,
  GUESS_LIMITS,
  type GuessKind,
  guessesLocked,
} from "../guesses/guard.ts";
import { verifyPasskeySignIn } from "../mfa/passkeys.ts";
import { spendRecoveryCode } from "../mfa/recovery.ts";
import { hasSecondFactor, mfaOf, mfaRequiredFor } from "../mfa/status.ts";
import { checkTotp } from "../mfa/totp.ts";
import { auditBreakGlass } from "../sso/break-glass.ts";
import { passwordSignInPolicy } from "../sso/policy.ts";
import { findUserByEmail } from "../users/service.ts";
import { membershipsOf } from "./member.ts";
import { type ClientMeta, rotateSession, type Session } from "./service.ts";

/** Ten wrong passwords or codes from one address within 15 minutes pause that address for 15 minutes. */
export const LOCKOUT_FAILURES = GUESS_LIMITS.password.perAddress;
export { LOCK_MS as LOCKOUT_MS } from "../guesses/guard.ts";

// Verified when no account matches, so a missing account costs the same time as a wrong password.
const DUMMY_HASH = Bun.password.hash("svc-no-such-account", { algorithm: "argon2id" });

const wrongPassword = () =>
  new ServiceError(401, "sign_in_failed", "The email or password is wrong.", { param: "password" });

const codeInvalid = () => new ServiceError(401, "code_invalid", "That code is not right.", { param: "code" });

/** Checks a password against a hash (or the dummy one, so every answer takes the same time). */
async function passwordMatches(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!password) return false;
  const ok = await Bun.password.verify(password, hash ?? (await DUMMY_HASH));
  return ok && !!hash;
}

/** A code from the authenticator app or a recovery code, spent when right. */
const codeMatches = (app: App, userId: string, code: string) =>
  inTx(
    app,
    async (tx) =>
      (await checkTotp(tx, app, userId, code)) || (await spendRecoveryCode(tx, app, userId, code)),
  );

/**
 * One guess at a secret through the counter: refused unchecked while paused, counted either way, and the
 * guess that reaches the limit answers with the pause.
 */
async function guarded(
  app: App,
  kind: GuessKind,
  subject: string,
  address: string | null,
  check: () => Promise<boolean>,
  wrong: () => ServiceError,
  param: string,
): Promise<void> {
  const ticket = await beginGuess(app, { kind, subject, address });
  if (ticket.lockedUntil !== null) throw guessesLocked(kind, ticket.lockedUntil, app.clock.now(), param);
  if (await check()) return ticket.right();
  const until = await ticket.wrong();
  if (until !== null) throw guessesLocked(kind, until, app.clock.now(), param);
  throw wrong();
}

async function stageAfterPassword(app: App, userId: string): Promise<SessionStage> {
  if (hasSecondFactor(await mfaOf(app.db, userId))) return "second_factor";
  if (await mfaRequiredFor(app.db, userId)) return "enrol";
  return "active";
}

/**
 * Email and password: returns the new (rotated) session, at the stage sign-in reached. While password guesses
 * from this address (or all addresses) for this email are paused, the password alone signs no one in; with
 * `code` (authenticator app or recovery code) given too, both right sign in at once. Known and unknown addresses
 * get the same answers: the count is kept by the address typed, account or not.
 */
export async function signInWithPassword(
  app: App,
  session: Session,
  input: { email: string; password: string; code?: string | undefined; breakGlass?: boolean },
  meta: ClientMeta,
): Promise<Session> {
  const subject = emailSubject(input.email);
  const ticket = await beginGuess(app, { kind: "password", subject, address: meta.ip });
  const found = await findUserByEmail(app.db, input.email);
  const user = found && found.disabled_at === null && found.password_hash ? found : null;
  const client = { ip: meta.ip, user_agent: meta.userAgent };
  if (ticket.lockedUntil !== null) {
    try {
      const s = await signInWhilePaused(app, session, user, input, meta, ticket.lockedUntil);
      await auditSignIn(app, user!.id, "success", { method: "password+code", ...client });
      return s;
    } catch (e) {
      await auditSignIn(app, user?.id ?? null, "failure", {
        method: "password",
        reason: "paused",
        ...(user ? {} : { address: subject }),
        ...client,
      });
      throw e;
    }
  }
  if (!(await passwordMatches(input.password, user?.password_hash)) || !user) {
    const until = await ticket.wrong();
    await auditSignIn(app, user?.id ?? null, "failure", {
      method: "password",
      reason: user ? "password_wrong" : "no_account",
      ...(user ? {} : { address: subject }),
      ...(until !== null ? { paused_until: new Date(until).toISOString() } : {}),
      ...client,
    });
    if (until !== null) throw guessesLocked("password", until, app.clock.now(), "email");
    throw wrongPassword();
  }
  await ticket.right();
  // Required single sign-on refuses the password, after it was checked (a wrong one says nothing of the org).
  const glass = await passwordSignInPolicy(app, user.id, input.breakGlass === true);
  const stage = await stageAfterPassword(app, user.id);
  // The password was right; a second factor may still be due (the stage says so, and its own row follows).
  await auditSignIn(app, user.id, "success", { method: "password", stage, ...client });
  const orgs = await membershipsOf(app, user.id);
  const first = glass[0] ?? orgs[0]?.id ?? null;
  if (glass.length) await auditBreakGlass(app, user.id, glass, meta);
  return rotateSession(
    app,
    session,
    { stage, userId: user.id, orgId: first, livemode: false },
    meta,
    // Typing the password is a confirmation: sudo mode starts with the session.
    { confirmed_at: app.clock.now(), sso_break_glass: glass.length ? 1 : 0 },
  );
}

/**
 * A sign-in password checked outside the sign-in form (accepting an invitation signed out): the same counted
 * guess and the same answers. `password` null: the address has no account and nothing is to be checked, but the
 * answer takes the same time and a paused address is paused all the same.
 */
export async function checkSignInPassword(
  app: App,
  email: string,
  password: string | null,
  address: string | null,
): Promise<void> {
  const ticket = await beginGuess(app, { kind: "password", subject: emailSubject(email), address });
  if (ticket.lockedUntil !== null)
    throw guessesLocked("password", ticket.lockedUntil, app.clock.now(), "password");
  if (password === null) {
    await passwordMatches("svc-timing", null);
    return ticket.matched();
  }
  const found = await findUserByEmail(app.db, email);
  const user = found && found.disabled_at === null ? found : null;
  if (await passwordMatches(password, user?.password_hash)) return ticket.right();
  const until = await ticket.wrong();
  if (until !== null) throw guessesLocked("password", until, app.clock.now(), "password");
  throw wrongPassword();
}

/**
 * Password guesses are paused: only the password and a right code together sign in (a passkey too, elsewhere).
 * Every failure answers the same pause, so nothing tells a right password from a wrong one; the code is counted
 * as a second-factor guess only once the password was right (a guesser cannot use up the person's codes).
 */
async function signInWhilePaused(
  app: App,
  session: Session,
  user: Awaited<ReturnType<typeof findUserByEmail>> | null,
  input: { email: string; password: string; code?: string | undefined; breakGlass?: boolean },
  meta: ClientMeta,
  until: number,
): Promise<Session> {
  const paused = () => guessesLocked("password", until, app.clock.now(), "email");
  if (!input.code) throw paused();
  if (!(await passwordMatches(input.password, user?.password_hash)) || !user) throw paused();
  try {
    await guarded(
      app,
      "second_factor",
      accountSubject(user.id),
      meta.ip,
      () => codeMatches(app, user.id, input.code!),
      paused,
      "email",
    );
  } catch (e) {
    throw e instanceof ServiceError ? paused() : e;
  }
  // Both right: the pause ends for this address, and no further step is due.
  await clearGuesses(app, { kind: "password", subject: emailSubject(input.email), address: meta.ip });
  const glass = await passwordSignInPolicy(app, user.id, input.breakGlass === true);
  if (glass.length) await auditBreakGlass(app, user.id, glass, meta);
  const orgs = await membershipsOf(app, user.id);
  return rotateSession(
    app,
    session,
    { stage: "active", userId: user.id, orgId: glass[0] ?? orgs[0]?.id ?? null, livemode: false },
    meta,
    { confirmed_at: app.clock.now(), sso_break_glass: glass.length ? 1 : 0 },
  );
}

/** The second step: a code from the authenticator app, or a recovery code (counted per account and address). */
export async function completeWithCode(
  app: App,
  session: Session,
  code: string,
  meta: ClientMeta,
): Promise<Session> {
  const userId = session.user_id!;
  const client = { ip: meta.ip, user_agent: meta.userAgent };
  try {
    await guarded(
      app,
      "second_factor",
      accountSubject(userId),
      meta.ip,
      () => codeMatches(app, userId, code),
      codeInvalid,
      "code",
    );
  } catch (e) {
    if (e instanceof ServiceError)
      await auditSignIn(app, userId, "failure", { method: "code", reason: e.code, ...client });
    throw e;
  }
  await auditSignIn(app, userId, "success", { method: "code", stage: "active", ...client });
  return activate(app, session, meta);
}

/** The last step of any sign-in path: an active session with a new ID. */
export const activate = (app: App, session: Session, meta: ClientMeta) =>
  rotateSession(
    app,
    session,
    { stage: "active", userId: session.user_id!, orgId: session.org_id, livemode: session.livemode === 1 },
    meta,
    // A break-glass sign-in stays one through its second step.
    { confirmed_at: session.confirmed_at, sso_break_glass: session.sso_break_glass ?? 0 },
  );

/**
 * Whether `password` is the person's current one, as a counted guess (sudo mode, changing the password): a
 * stolen session cannot be used to guess the password without limit.
 */
export async function checkCurrentPassword(
  app: App,
  userId: string,
  password: string,
  address: string | null,
  wrong: () => ServiceError,
  param = "password",
): Promise<void> {
  const user = await app.db
    .selectFrom("users")
    .select(["password_hash"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  await guarded(
    app,
    "current_password",
    accountSubject(userId),
    address,
    () => passwordMatches(password, user.password_hash),
    wrong,
    param,
  );
}

/** Sudo mode: the person types their password again (reauthentication_required lifts for 10 minutes). */
export async function confirmPassword(
  app: App,
  session: Session,
  password: string,
  address: string | null,
): Promise<void> {
  await checkCurrentPassword(
    app,
    session.user_id!,
    password,
    address,
    () => new ServiceError(401, "password_wrong", "That password is wrong.", { param: "password" }),
  );
  const now = app.clock.now();
  await app.db.updateTable("web_sessions").set({ confirmed_at: now }).where("id", "=", session.id).execute();
  session.confirmed_at = now;
}

/** A passkey: on its own from the sign-in page, or as the second step after the password. */
export async function signInWithPasskey(
  app: App,
  session: Session,
  response: unknown,
  meta: ClientMeta,
): Promise<Session> {
  const client = { ip: meta.ip, user_agent: meta.userAgent };
  let userId: string;
  try {
    userId = await verifyPasskeySignIn(app, session, response);
  } catch (e) {
    if (e instanceof ServiceError)
      await auditSignIn(app, session.user_id ?? null, "failure", {
        method: "passkey",
        reason: e.code,
        ...client,
      });
    throw e;
  }
  await auditSignIn(app, userId, "success", { method: "passkey", stage: "active", ...client });
  if (session.stage === "second_factor") return activate(app, session, meta);
  const orgs = await membershipsOf(app, userId);
  return rotateSession(
    app,
    session,
    { stage: "active", userId, orgId: orgs[0]?.id ?? null, livemode: false },
    meta,
  );
}
