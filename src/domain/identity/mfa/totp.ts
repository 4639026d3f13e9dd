// An authenticator app (TOTP, RFC 6238: SHA-1, 6 digits, 30 s): enrolment shows a QR code of the otpauth URI,
// the first right code turns it on and issues recovery codes. A code is accepted once (its time step is
// remembered), within one step either side for clock drift. Turning on or off needs sudo mode.
import type { App } from "../../../app/context.ts";
import type { Tx } from "../../../db/index.ts";
import { conflict, invalid, problem } from "../../../lib/errors.ts";
import { once } from "../../../lib/once.ts";
import { kickMail } from "../../../mail/outbox.ts";
import { auditAccount } from "../../audit/service.ts";
import { sendAccountNoticeInTx } from "../../notifications/account.ts";
import { inTx } from "../../tx.ts";
import { requireRecentAuth } from "../auth/sudo.ts";
import type { Session } from "../sessions/service.ts";
import { issueRecoveryCodes } from "./recovery.ts";
import { openForUser, sealForUser } from "./seal.ts";
import { mfaOf, mfaRequiredFor } from "./status.ts";

const PERIOD = 30;

// The TOTP library and the QR code encoder load with the first enrolment or code checked, not at start-up (the QR
// encoder is about 18 ms and 6 MiB with its PNG support).
const loadOtpauth = once(() => import("otpauth"));
const loadQrcode = once(async () => (await import("qrcode")).default);

async function totpOf(secret: string, email: string) {
  const OTPAuth = await loadOtpauth();
  return new OTPAuth.TOTP({
    issuer: "svc",
    label: email,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

async function emailOf(tx: Tx, userId: string) {
  return (await tx.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirstOrThrow())
    .email;
}

/** Starts (or restarts) enrolment: a new secret, not yet on. Returns what the page shows. */
export async function startTotp(app: App, session: Session) {
  requireRecentAuth(app, session.confirmed_at);
  const userId = session.user_id!;
  const OTPAuth = await loadOtpauth();
  return inTx(app, async (tx) => {
    const row = await tx.selectFrom("user_totp").selectAll().where("user_id", "=", userId).executeTakeFirst();
    if (row?.enabled_at) throw conflict("totp_enabled", "The authenticator app is already on.");
    const secret = new OTPAuth.Secret({ size: 20 }).base32;
    const sealed = await sealForUser(app, userId, secret);
    const now = app.clock.now();
    if (row)
      await tx
        .updateTable("user_totp")
        .set({ secret: sealed, created_at: now })
        .where("user_id", "=", userId)
        .execute();
    else
      await tx
        .insertInto("user_totp")
        .values({ user_id: userId, secret: sealed, enabled_at: null, last_step: null, created_at: now })
        .execute();
    return pendingTotp(secret, await emailOf(tx, userId));
  });
}

async function pendingTotp(secret: string, email: string) {
  const uri = (await totpOf(secret, email)).toString();
  const QRCode = await loadQrcode();
  const svg = await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { secret, uri, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}

/**
 * Drops an enrolment that never got its first code (the person closed the app, scanned on the wrong phone): the
 * page stops showing the QR code and offers to start afresh. No password confirmation: it removes a secret that
 * protects nothing yet, and a pending enrolment may outlive the 10 minutes of sudo mode. An app that is on is left
 * alone (turning it off is disableTotp, with its checks).
 */
export async function cancelTotp(app: App, session: Session): Promise<void> {
  await app.db
    .deleteFrom("user_totp")
    .where("user_id", "=", session.user_id!)
    .where("enabled_at", "is", null)
    .execute();
}

/** The enrolment still waiting for its first code, if any (the page shows the same QR code again). */
export async function pendingTotpOf(app: App, session: Session) {
  const userId = session.user_id!;
  const row = await app.db
    .selectFrom("user_totp")
    .selectAll()
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row || row.enabled_at) return null;
  return pendingTotp(
    await openForUser(app, userId, row.secret),
    await emailOf(app.db as unknown as Tx, userId),
  );
}

/** Checks a code against the person's TOTP (on, or pending when `pending`); spends its time step. */
export async function checkTotp(
  tx: Tx,
  app: App,
  userId: string,
  code: string,
  pending = false,
): Promise<boolean> {
  const row = await tx.selectFrom("user_totp").selectAll().where("user_id", "=", userId).executeTakeFirst();
  if (!row || (pending ? row.enabled_at !== null : row.enabled_at === null)) return false;
  const token = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(token)) return false;
  const now = app.clock.now();
  const delta = (await totpOf(await openForUser(app, userId, row.secret), "x")).validate({
    token,
    timestamp: now,
    window: 1,
  });
  if (delta === null) return false;
  const step = Math.floor(now / 1000 / PERIOD) + delta;
  // The step is spent with a conditional write, so the same code cannot sign in twice, even concurrently.
  const res = await tx
    .updateTable("user_totp")
    .set({ last_step: step })
    .where("user_id", "=", userId)
    .where((eb) => eb.or([eb("last_step", "is", null), eb("last_step", "<", step)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** The first right code turns the app on; returns the recovery codes (shown once). */
export async function confirmTotp(app: App, session: Session, code: string): Promise<string[]> {
  requireRecentAuth(app, session.confirmed_at);
  const userId = session.user_id!;
  return inTx(app, async (tx) => {
    if (!(await checkTotp(tx, app, userId, code, true)))
      throw invalid([
        problem("code_invalid", "That code is not right. Type the 6 digits the app shows now.", "code"),
      ]);
    await tx
      .updateTable("user_totp")
      .set({ enabled_at: app.clock.now() })
      .where("user_id", "=", userId)
      .execute();
    await auditAccount(tx, app, userId, { action: "account.totp_enabled" });
    return issueRecoveryCodes(tx, app, userId);
  });
}

/** Turns the app off; refused when an org of the person requires two-factor and nothing else is left. */
export async function disableTotp(app: App, session: Session): Promise<void> {
  requireRecentAuth(app, session.confirmed_at);
  const userId = session.user_id!;
  await inTx(app, async (tx) => {
    const mfa = await mfaOf(tx, userId);
    if (mfa.passkeys === 0 && (await mfaRequiredFor(tx, userId)))
      throw conflict(
        "mfa_required",
        "An org you belong to requires two-factor sign-in: add a passkey before turning the app off.",
      );
    await tx.deleteFrom("user_totp").where("user_id", "=", userId).execute();
    await auditAccount(tx, app, userId, { action: "account.totp_disabled" });
    if (mfa.passkeys === 0) {
      // Nothing else is left: two-factor is off, which the person is always told by email.
      await tx.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
      await sendAccountNoticeInTx(tx, app, userId, "account.mfa_disabled", { ip: session.ip });
    }
  });
  await kickMail(app);
}

/** New recovery codes (the old ones stop working). */
export async function renewRecoveryCodes(app: App, session: Session): Promise<string[]> {
  requireRecentAuth(app, session.confirmed_at);
  return inTx(app, (tx) => issueRecoveryCodes(tx, app, session.user_id!));
}
