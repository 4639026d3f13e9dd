// Signing in to the dashboard: the password (argon2id), then a second factor when the person has one, or
// enrolment first when an org of theirs requires two-factor and they have none (`mfa_required_first`).
// Wrong passwords and codes count toward a lockout kept in the database, so every process counts together.
import type { App } from "../../../app/context.ts";
import type { SessionStage } from "../../../db/tables/sessions.ts";
import { ServiceError } from "../../../lib/errors.ts";
import { inTx } from "../../tx.ts";
import { verifyPasskeySignIn } from "../mfa/passkeys.ts";
import { spendRecoveryCode } from "../mfa/recovery.ts";
import { hasSecondFactor, mfaOf, mfaRequiredFor } from "../mfa/status.ts";
import { checkTotp } from "../mfa/totp.ts";
import { findUserByEmail } from "../users/service.ts";
import { membershipsOf } from "./member.ts";
import { type ClientMeta, rotateSession, type Session } from "./service.ts";

/** Ten wrong passwords or codes in a row lock the account for 15 minutes. */
export const LOCKOUT_FAILURES = 10;
export const LOCKOUT_MS = 15 * 60_000;

// Verified when no account matches, so a missing account costs the same time as a wrong password.
const DUMMY_HASH = Bun.password.hash("svc-no-such-account", { algorithm: "argon2id" });

const wrongPassword = () =>
  new ServiceError(401, "sign_in_failed", "The email or password is wrong.", { param: "password" });

const locked = (until: number, now: number) =>
  new ServiceError(
    429,
    "account_locked",
    `Too many wrong attempts: this account is locked for ${Math.max(1, Math.ceil((until - now) / 60_000))} more minutes.`,
    { param: "email", headers: { "Retry-After": String(Math.max(1, Math.ceil((until - now) / 1000))) } },
  );

async function lockedUntil(app: App, userId: string): Promise<number | null> {
  const row = await app.db
    .selectFrom("sign_in_failures")
    .select("locked_until")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.locked_until && row.locked_until > app.clock.now() ? row.locked_until : null;
}

/** Counts one failure (atomically, in the database); returns the lock's end when this one locked the account. */
async function recordFailure(app: App, userId: string): Promise<number | null> {
  const now = app.clock.now();
  return inTx(app, async (tx) => {
    const row = await tx
      .insertInto("sign_in_failures")
      .values({ user_id: userId, failures: 1, locked_until: null, updated_at: now })
      .onConflict((oc) =>
        oc.column("user_id").doUpdateSet((eb) => ({
          failures: eb("sign_in_failures.failures", "+", eb.lit(1)),
          updated_at: now,
        })),
      )
      .returning("failures")
      .executeTakeFirstOrThrow();
    if (Number(row.failures) < LOCKOUT_FAILURES) return null;
    const until = now + LOCKOUT_MS;
    await tx
      .updateTable("sign_in_failures")
      .set({ failures: 0, locked_until: until })
      .where("user_id", "=", userId)
      .execute();
    return until;
  });
}

const clearFailures = (app: App, userId: string) =>
  app.db.deleteFrom("sign_in_failures").where("user_id", "=", userId).execute();

async function stageAfterPassword(app: App, userId: string): Promise<SessionStage> {
  if (hasSecondFactor(await mfaOf(app.db, userId))) return "second_factor";
  if (await mfaRequiredFor(app.db, userId)) return "enrol";
  return "active";
}

/** Email and password: returns the new (rotated) session, at the stage sign-in reached. */
export async function signInWithPassword(
  app: App,
  session: Session,
  input: { email: string; password: string },
  meta: ClientMeta,
): Promise<Session> {
  const user = await findUserByEmail(app.db, input.email);
  if (!user || user.disabled_at !== null || !user.password_hash) {
    await Bun.password.verify(input.password, await DUMMY_HASH);
    throw wrongPassword();
  }
  const now = app.clock.now();
  const until = await lockedUntil(app, user.id);
  if (until) throw locked(until, now);
  if (!input.password || !(await Bun.password.verify(input.password, user.password_hash))) {
    const lockedNow = await recordFailure(app, user.id);
    if (lockedNow) throw locked(lockedNow, now);
    throw wrongPassword();
  }
  await clearFailures(app, user.id);
  const stage = await stageAfterPassword(app, user.id);
  const orgs = await membershipsOf(app, user.id);
  return rotateSession(
    app,
    session,
    { stage, userId: user.id, orgId: orgs[0]?.id ?? null, livemode: false },
    meta,
    // Typing the password is a confirmation: sudo mode starts with the session.
    { confirmed_at: now },
  );
}

/** The second step: a code from the authenticator app, or a recovery code. */
export async function completeWithCode(
  app: App,
  session: Session,
  code: string,
  meta: ClientMeta,
): Promise<Session> {
  const userId = session.user_id!;
  const until = await lockedUntil(app, userId);
  if (until) throw locked(until, app.clock.now());
  const ok = await inTx(
    app,
    async (tx) =>
      (await checkTotp(tx, app, userId, code)) || (await spendRecoveryCode(tx, app, userId, code)),
  );
  if (!ok) {
    const lockedNow = await recordFailure(app, userId);
    if (lockedNow) throw locked(lockedNow, app.clock.now());
    throw new ServiceError(401, "code_invalid", "That code is not right.", { param: "code" });
  }
  await clearFailures(app, userId);
  return activate(app, session, meta);
}

/** The last step of any sign-in path: an active session with a new ID. */
export const activate = (app: App, session: Session, meta: ClientMeta) =>
  rotateSession(
    app,
    session,
    { stage: "active", userId: session.user_id!, orgId: session.org_id, livemode: session.livemode === 1 },
    meta,
    { confirmed_at: session.confirmed_at },
  );

/** Sudo mode: the person types their password again (reauthentication_required lifts for 10 minutes). */
export async function confirmPassword(app: App, session: Session, password: string): Promise<void> {
  const user = await app.db
    .selectFrom("users")
    .select(["id", "password_hash"])
    .where("id", "=", session.user_id!)
    .executeTakeFirstOrThrow();
  const until = await lockedUntil(app, user.id);
  if (until) throw locked(until, app.clock.now());
  if (!user.password_hash || !password || !(await Bun.password.verify(password, user.password_hash))) {
    const lockedNow = await recordFailure(app, user.id);
    if (lockedNow) throw locked(lockedNow, app.clock.now());
    throw new ServiceError(401, "password_wrong", "That password is wrong.", { param: "password" });
  }
  await clearFailures(app, user.id);
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
  const userId = await verifyPasskeySignIn(app, session, response);
  if (session.stage === "second_factor") return activate(app, session, meta);
  const orgs = await membershipsOf(app, userId);
  return rotateSession(
    app,
    session,
    { stage: "active", userId, orgId: orgs[0]?.id ?? null, livemode: false },
    meta,
  );
}
