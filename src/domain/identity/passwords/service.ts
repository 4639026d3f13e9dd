// Password reset and change (interface.md Authentication 7; reference §9). A reset link is emailed, valid 30
// minutes and once; asking for one answers the same whether or not the address has an account. Setting a new
// password either way signs out every CLI (revokes the person's user tokens) and emails the account notice.
import * as v from "valibot";
import type { App } from "../../../app/context.ts";
import { randomBase62, sha256hex } from "../../../crypto/hash.ts";
import type { Tx } from "../../../db/index.ts";
import { ServiceError } from "../../../lib/errors.ts";
import { newId } from "../../../lib/ids.ts";
import { mailerOf, requireMailer } from "../../../mail/mailer.ts";
import { kickMail } from "../../../mail/outbox.ts";
import { mailView } from "../../../mail/views.ts";
import type { Actor } from "../../actor.ts";
import { auditAccount } from "../../audit/service.ts";
import { sendAccountNoticeInTx } from "../../notifications/account.ts";
import { inTx } from "../../tx.ts";
import { parse, rule } from "../../validate.ts";
import { revokeAllUserTokens } from "../auth/user-token-service.ts";
import { accountSubject, emailSubject, forgetGuesses } from "../guesses/guard.ts";
import { passkeysOf, removePasskeysExcept } from "../mfa/passkeys.ts";
import { endSessionsOf } from "../sessions/service.ts";
import { checkCurrentPassword } from "../sessions/signin.ts";
import { onlySsoOrgs, ssoRequiredError } from "../sso/policy.ts";
import { email, findUserByEmail, hashPassword } from "../users/service.ts";

export const RESET_LINK_TTL_MS = 30 * 60_000;

/** A new password: 10 to 200 characters (long passphrases welcome; argon2id hashes any length). */
export const newPassword = v.pipe(
  v.string(),
  v.minLength(10, rule("password_invalid", "A password needs at least 10 characters.")),
  v.maxLength(200, rule("password_invalid", "A password can have at most 200 characters.")),
);

const ResetRequest = v.strictObject({ email });
/** `keep_passkeys`: the IDs of the passkeys the person keeps; every other passkey of theirs is removed. */
const ResetConsume = v.strictObject({
  token: v.string(),
  password: newPassword,
  keep_passkeys: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(100))), v.maxLength(100)), []),
});
const PasswordChange = v.strictObject({ current_password: v.string(), password: newPassword });

/** The page a reset link opens: {base_url}/reset/<token>. */
export const resetLinkUrl = (app: App, token: string) =>
  `${app.config.baseUrl.replace(/\/$/, "")}/reset/${token}`;

const hashToken = (token: string) => sha256hex(`password_reset:${token}`);

const linkInvalid = () =>
  new ServiceError(
    404,
    "reset_link_invalid",
    "This reset link is expired or was already used; ask for a new one.",
  );

/** The reset requests of this process waiting to be looked up and mailed, one after another. */
const resetQueues = new WeakMap<App, Promise<void>>();

/**
 * Emails a reset link when the address has an account, and answers the same when it has none, so the answer says
 * nothing about who has an account. Everything that depends on the address (the lookup, the per-person count, the
 * stored link, the mail) happens after the answer, one request after another: the answer takes the same time
 * either way. Without SMTP: 503 mail_unavailable (for every address alike).
 */
export async function requestPasswordReset(app: App, input: unknown) {
  const b = parse(ResetRequest, input);
  const mailer = requireMailer(app);
  const work = (resetQueues.get(app) ?? Promise.resolve())
    .then(() => sendResetLink(app, mailer, b.email))
    .catch((e) => app.log.warn("reset link failed", { error: String(e) }));
  resetQueues.set(app, work);
  return {
    object: "password_reset_request" as const,
    email: b.email,
    message: "If an account has this address, a reset link valid for 30 minutes is on its way.",
  };
}

async function sendResetLink(app: App, mailer: ReturnType<typeof requireMailer>, address: string) {
  const user = await findUserByEmail(app.db, address);
  if (!user || user.disabled_at !== null) return;
  // Whose orgs all require single sign-on has no password to reset (the answer was the same already).
  if (await onlySsoOrgs(app.db, user.id)) return;
  const now = app.clock.now();
  // At most three links per person per half hour: asking again cannot flood someone's inbox.
  const recent = await app.db
    .selectFrom("password_resets")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", user.id)
    .where("created_at", ">", now - RESET_LINK_TTL_MS)
    .executeTakeFirstOrThrow();
  if (Number(recent.n) >= 3) return;
  const token = randomBase62(40);
  await app.db
    .insertInto("password_resets")
    .values({
      id: newId("pwreset", now),
      user_id: user.id,
      token_hash: hashToken(token),
      expires_at: now + RESET_LINK_TTL_MS,
      used_at: null,
      created_at: now,
    })
    .execute();
  const view = mailView(
    "Reset your svc password",
    [
      `Someone asked to reset the password of your account on ${app.config.baseUrl}.`,
      "The link works once, for 30 minutes. If you did not ask, ignore this mail: your password stays as it is.",
    ],
    { href: resetLinkUrl(app, token), label: "Choose a new password" },
  );
  // Not awaited: the next request's count needs only the stored link, not the mail.
  void mailer
    .send({ to: user.email, ...view })
    .catch((e) => app.log.warn("reset mail failed", { user: user.id, error: String(e) }));
}

async function openLink(tx: Tx, app: App, token: unknown) {
  if (typeof token !== "string" || token.length > 200) throw linkInvalid();
  const row = await tx
    .selectFrom("password_resets")
    .innerJoin("users", "users.id", "password_resets.user_id")
    .select([
      "password_resets.id",
      "password_resets.user_id",
      "password_resets.expires_at",
      "password_resets.used_at",
      "users.email",
      "users.disabled_at",
    ])
    .where("password_resets.token_hash", "=", hashToken(token))
    .executeTakeFirst();
  if (!row || row.used_at !== null || row.expires_at <= app.clock.now() || row.disabled_at !== null)
    throw linkInvalid();
  return row;
}

/**
 * The reset page, before the form: whose password the link resets and the account's passkeys, so the page can ask
 * which to keep (404 reset_link_invalid when it cannot). The link proves the address; the passkeys are its own.
 */
export async function checkResetLink(app: App, token: unknown) {
  const row = await openLink(app.db as unknown as Tx, app, token);
  return {
    email: row.email,
    expires_at: new Date(row.expires_at).toISOString(),
    passkeys: await passkeysOf(app.db, row.user_id),
  };
}

/**
 * Sets the new password through a reset link: once; revokes every user token, ends every dashboard session and
 * removes every passkey not listed in `keep_passkeys` (a passkey signs in alone: one an intruder added must not
 * outlive the reset meant to lock them out); notice "password reset".
 */
export async function resetPasswordWithLink(app: App, input: unknown) {
  const b = parse(ResetConsume, input);
  const hash = await hashPassword(b.password);
  const now = app.clock.now();
  const out = await inTx(app, async (tx) => {
    const row = await openLink(tx, app, b.token);
    if (await onlySsoOrgs(tx, row.user_id)) throw ssoRequiredError();
    // Spend this link and any other open one of the person: a reset ends every outstanding reset.
    const spent = await tx
      .updateTable("password_resets")
      .set({ used_at: now })
      .where("id", "=", row.id)
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) throw linkInvalid();
    await tx
      .updateTable("password_resets")
      .set({ used_at: now })
      .where("user_id", "=", row.user_id)
      .where("used_at", "is", null)
      .execute();
    await tx
      .updateTable("users")
      .set({ password_hash: hash, password_printed_at: null, updated_at: now })
      .where("id", "=", row.user_id)
      .execute();
    const revoked = await revokeAllUserTokens(tx, app, row.user_id);
    // Whoever asked for a reset may have lost a signed-in browser too: every dashboard session ends.
    await endSessionsOf(tx, app, row.user_id, null);
    const removed = await removePasskeysExcept(tx, app, row.user_id, b.keep_passkeys, "password_reset");
    await auditAccount(tx, app, row.user_id, {
      action: "account.password_reset",
      detail: { tokens_revoked: revoked, passkeys_removed: removed.length },
    });
    await sendAccountNoticeInTx(tx, app, row.user_id, "account.password_reset");
    return {
      object: "password_reset" as const,
      user: row.user_id,
      email: row.email,
      tokens_revoked: revoked,
      passkeys_removed: removed.length,
    };
  });
  // The person proved their mailbox: paused password sign-in for this address starts over.
  await forgetGuesses(app, ["password"], emailSubject(out.email));
  await forgetGuesses(app, ["current_password"], accountSubject(out.user));
  if (mailerOf(app)) void kickMail(app);
  return out;
}

/**
 * A signed-in person changes their password, giving the current one; revokes their user tokens, ends every other
 * dashboard session (`keepSessionId` is the browser making the change; the page then rotates its ID); notice.
 */
export async function changePassword(
  app: App,
  actor: Actor,
  input: unknown,
  opts: { keepSessionId?: string | null; address?: string | null } = {},
) {
  if (actor.kind !== "user" || !actor.userId)
    throw new ServiceError(403, "forbidden", "Only a signed-in person can change their password.");
  const userId = actor.userId;
  const b = parse(PasswordChange, input);
  // The current password is a counted guess (per account and address), like every secret typed.
  const incorrect = "The current password is not right.";
  await checkCurrentPassword(
    app,
    userId,
    b.current_password,
    opts.address ?? null,
    () =>
      new ServiceError(422, "password_incorrect", incorrect, {
        param: "current_password",
        errors: [{ code: "password_incorrect", param: "current_password", message: incorrect }],
      }),
    "current_password",
  );
  const hash = await hashPassword(b.password);
  const now = app.clock.now();
  const out = await inTx(app, async (tx) => {
    await tx
      .updateTable("users")
      .set({ password_hash: hash, password_printed_at: null, updated_at: now })
      .where("id", "=", userId)
      .execute();
    const revoked = await revokeAllUserTokens(tx, app, userId);
    const ended = await endSessionsOf(tx, app, userId, opts.keepSessionId ?? null);
    await auditAccount(tx, app, userId, {
      action: "account.password_changed",
      detail: { tokens_revoked: revoked, sessions_ended: ended },
    });
    await sendAccountNoticeInTx(tx, app, userId, "account.password_changed");
    return {
      object: "password_change" as const,
      user: userId,
      tokens_revoked: revoked,
      sessions_ended: ended,
    };
  });
  if (mailerOf(app)) void kickMail(app);
  return out;
}
