// Passkeys (WebAuthn): registered from the Security page in sudo mode, used to sign in (alone: a passkey is a
// possession factor checked with user verification, so it counts as two-factor) or as the second step after a
// password. The relying party is the configured base URL's host; the challenge lives on the session, used once.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import * as v from "valibot";
import type { App } from "../../../app/context.ts";
import type { Db, Tx } from "../../../db/index.ts";
import type { PasskeysTable } from "../../../db/tables/sessions.ts";
import { iso, isoOrNull } from "../../../lib/clock.ts";
import { conflict, notFound, ServiceError } from "../../../lib/errors.ts";
import { once } from "../../../lib/once.ts";
import { kickMail } from "../../../mail/outbox.ts";
import { auditAccount } from "../../audit/service.ts";
import { sendAccountNoticeInTx } from "../../notifications/account.ts";
import { inTx } from "../../tx.ts";
import { name, parse } from "../../validate.ts";
import { requireRecentAuth } from "../auth/sudo.ts";
import { type Session, setSessionChallenge } from "../sessions/service.ts";
import { hasSecondFactor, mfaOf, mfaRequiredFor } from "./status.ts";

// WebAuthn (with its certificate and CBOR libraries) loads with the first passkey request, not at start-up: about
// 60 ms and 11 MiB that an install whose people never use passkeys need not pay.
const loadWebAuthn = once(() => import("@simplewebauthn/server"));

export function relyingParty(app: App) {
  const u = new URL(app.config.baseUrl);
  return { id: u.hostname, origin: u.origin, name: "svc" };
}

const refused = () =>
  new ServiceError(401, "passkey_invalid", "That passkey was not accepted. Try again, or use your password.");

const setChallenge = setSessionChallenge;

/** Options for navigator.credentials.create(); the challenge is kept on the session. */
export async function passkeyRegistrationOptions(app: App, session: Session) {
  requireRecentAuth(app, session.confirmed_at);
  const userId = session.user_id!;
  const user = await app.db
    .selectFrom("users")
    .select(["email", "name"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const existing = await app.db
    .selectFrom("passkeys")
    .select(["id", "transports"])
    .where("user_id", "=", userId)
    .execute();
  const rp = relyingParty(app);
  const { generateRegistrationOptions } = await loadWebAuthn();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.name ?? user.email,
    userID: new TextEncoder().encode(userId),
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({
      id: p.id,
      ...(p.transports ? { transports: JSON.parse(p.transports) } : {}),
    })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  await setChallenge(app, session, options.challenge);
  return options;
}

const PasskeyName = v.strictObject({ name: name("passkey_name_invalid", "Passkey name") });

/** Verifies the browser's answer and stores the public key. */
export async function registerPasskey(
  app: App,
  session: Session,
  input: { response: unknown; name?: string | undefined },
) {
  requireRecentAuth(app, session.confirmed_at);
  const { name: label } = parse(PasskeyName, { name: input.name?.trim() || "Passkey" });
  const challenge = session.challenge;
  if (!challenge) throw refused();
  await setChallenge(app, session, null);
  const rp = relyingParty(app);
  const { verifyRegistrationResponse } = await loadWebAuthn();
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch {
    throw refused();
  }
  if (!verified.verified) throw refused();
  const c = verified.registrationInfo.credential;
  const now = app.clock.now();
  await inTx(app, async (tx) => {
    await tx
      .insertInto("passkeys")
      .values({
        id: c.id,
        user_id: session.user_id!,
        name: label,
        public_key: Buffer.from(c.publicKey).toString("base64url"),
        counter: c.counter,
        transports: c.transports ? JSON.stringify(c.transports) : null,
        created_at: now,
        last_used_at: null,
      })
      .execute();
    await auditAccount(tx, app, session.user_id!, {
      action: "account.passkey_added",
      detail: { passkey: c.id, name: label },
    });
    // Always emailed (an account notice), queued with the change and sent after it commits.
    await sendAccountNoticeInTx(tx, app, session.user_id!, "account.passkey_added", {
      name: label,
      ip: session.ip,
    });
  });
  await kickMail(app);
  return { id: c.id, name: label };
}

/** Options for navigator.credentials.get(): any passkey of this site (the person is not known yet). */
export async function passkeySignInOptions(app: App, session: Session) {
  const { generateAuthenticationOptions } = await loadWebAuthn();
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(app).id,
    userVerification: "required",
  });
  await setChallenge(app, session, options.challenge);
  return options;
}

/** Checks a passkey assertion; returns the person it belongs to. Halfway sign-ins accept only their person's. */
export async function verifyPasskeySignIn(app: App, session: Session, response: unknown): Promise<string> {
  const challenge = session.challenge;
  const issuedAt = session.pre?.challengeAt ?? null;
  const r = response as AuthenticationResponseJSON;
  if (!challenge || typeof r?.id !== "string") throw refused();
  await setChallenge(app, session, null);
  const row = await app.db.selectFrom("passkeys").selectAll().where("id", "=", r.id).executeTakeFirst();
  if (!row || (session.user_id && row.user_id !== session.user_id)) throw refused();
  const rp = relyingParty(app);
  const { verifyAuthenticationResponse } = await loadWebAuthn();
  let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    result = await verifyAuthenticationResponse({
      response: r,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: row.id,
        publicKey: new Uint8Array(Buffer.from(row.public_key, "base64url")),
        counter: Number(row.counter),
        ...(row.transports ? { transports: JSON.parse(row.transports) } : {}),
      },
    });
  } catch {
    throw refused();
  }
  if (!result.verified) throw refused();
  const user = await app.db
    .selectFrom("users")
    .select("disabled_at")
    .where("id", "=", row.user_id)
    .executeTakeFirst();
  if (!user || user.disabled_at !== null) throw refused();
  // A pre-session's challenge lives in its cookie, which can be sent again: the passkey takes no challenge
  // issued before its last use, so an answer is good once (a stored session's challenge is spent on its row).
  let q = app.db
    .updateTable("passkeys")
    .set({ counter: result.authenticationInfo.newCounter, last_used_at: app.clock.now() })
    .where("id", "=", row.id);
  if (session.pre) {
    if (issuedAt === null) throw refused();
    q = q.where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<=", issuedAt)]));
  }
  const used = await q.executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) throw refused();
  return row.user_id;
}

export const presentPasskey = (p: PasskeysTable) => ({
  id: p.id,
  object: "passkey" as const,
  name: p.name,
  created_at: iso(p.created_at),
  last_used_at: isoOrNull(p.last_used_at),
});

export async function listPasskeys(app: App, session: Session) {
  const rows = await app.db
    .selectFrom("passkeys")
    .selectAll()
    .where("user_id", "=", session.user_id!)
    .orderBy("created_at")
    .execute();
  return rows.map(presentPasskey);
}

export async function renamePasskey(app: App, session: Session, id: string, input: { name: string }) {
  const { name: label } = parse(PasskeyName, { name: input.name.trim() });
  const res = await app.db
    .updateTable("passkeys")
    .set({ name: label })
    .where("id", "=", id)
    .where("user_id", "=", session.user_id!)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw notFound(`No passkey ${id}.`, "id");
}

/** Removing a passkey changes two-factor: sudo mode, and not the last factor an org of the person requires. */
export async function removePasskey(app: App, session: Session, id: string) {
  requireRecentAuth(app, session.confirmed_at);
  const userId = session.user_id!;
  await inTx(app, async (tx) => {
    const row = await tx
      .selectFrom("passkeys")
      .select("id")
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (!row) throw notFound(`No passkey ${id}.`, "id");
    const mfa = await mfaOf(tx, userId);
    if (!mfa.totp && mfa.passkeys === 1 && (await mfaRequiredFor(tx, userId)))
      throw conflict(
        "mfa_required",
        "An org you belong to requires two-factor sign-in: this is your last second factor.",
      );
    await tx.deleteFrom("passkeys").where("id", "=", id).execute();
    await auditAccount(tx, app, userId, { action: "account.passkey_removed", detail: { passkey: id } });
    if (!mfa.totp && mfa.passkeys === 1)
      await tx.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
  });
}

/**
 * In the caller's transaction, removes every passkey of the person but those listed in `keep` (their own IDs;
 * anything else listed is ignored): a password reset, or signing out everywhere, asks the person which passkeys
 * are theirs, because a passkey signs in alone and an intruder's would outlive the reset. With no second factor
 * left the recovery codes go too (they recover a factor that no longer exists). Returns the removed IDs.
 */
export async function removePasskeysExcept(
  tx: Tx,
  app: App,
  userId: string,
  keep: readonly string[],
  reason: "password_reset" | "signed_out_everywhere",
): Promise<string[]> {
  let q = tx.selectFrom("passkeys").select("id").where("user_id", "=", userId);
  if (keep.length) q = q.where("id", "not in", [...keep]);
  const gone = (await q.execute()).map((r) => r.id);
  if (!gone.length) return [];
  await tx.deleteFrom("passkeys").where("user_id", "=", userId).where("id", "in", gone).execute();
  for (const id of gone)
    await auditAccount(tx, app, userId, {
      action: "account.passkey_removed",
      detail: { passkey: id, reason },
    });
  if (!hasSecondFactor(await mfaOf(tx, userId)))
    await tx.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
  return gone;
}

/** The person's passkeys, for a page that asks which to keep (the reset page has no session to go by). */
export async function passkeysOf(db: Db | Tx, userId: string) {
  const rows = await db
    .selectFrom("passkeys")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .execute();
  return rows.map(presentPasskey);
}
