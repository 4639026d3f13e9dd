import type { App } from "../../../app/context.ts";
import { randomBase62 } from "../../../crypto/hash.ts";
import type { Db, Tx } from "../../../db/index.ts";
import type { UsersTable } from "../../../db/schema.ts";
import { conflict, notFound } from "../../../lib/errors.ts";
import { newId } from "../../../lib/ids.ts";
import { sendAccountNoticeInTx } from "../../notifications/account.ts";
import { isUniqueViolation } from "../../tx.ts";
import { parse } from "../../validate.ts";
import { removePasskeysExcept } from "../mfa/passkeys.ts";
import { endSessionsOf } from "../sessions/service.ts";
import { email } from "./email.ts";

export { email };

export const generatePassword = () => randomBase62(20);
export const hashPassword = (pw: string) => Bun.password.hash(pw, { algorithm: "argon2id" });

export async function findUserByEmail(db: Db | Tx, address: string): Promise<UsersTable | undefined> {
  return db
    .selectFrom("users")
    .selectAll()
    .where("email", "=", address.trim().toLowerCase())
    .executeTakeFirst();
}

/** Creates an account; returns the password when one was generated (shown once by the caller). */
export async function createUser(
  tx: Tx,
  app: App,
  input: { email: string; name?: string | null; password?: string | null },
) {
  const address = parse(email, input.email);
  const password = input.password ?? generatePassword();
  const now = app.clock.now();
  const row: UsersTable = {
    id: newId("user", now),
    email: address,
    name: input.name ?? null,
    password_hash: await hashPassword(password),
    // A generated password is printed once: the dashboard asks for the person's own until they set it.
    password_printed_at: input.password ? null : now,
    timezone: "UTC",
    disabled_at: null,
    created_at: now,
    updated_at: now,
  };
  try {
    await tx.insertInto("users").values(row).execute();
  } catch (e) {
    if (isUniqueViolation(e))
      throw conflict("email_taken", `An account with ${address} exists.`, { param: "email" });
    throw e;
  }
  return { user: row, password: input.password ? null : password };
}

/** Whether the person still signs in with a password that was generated and printed for them. */
export async function printedPasswordInUse(app: App, userId: string): Promise<boolean> {
  const row = await app.db
    .selectFrom("users")
    .select("password_printed_at")
    .where("id", "=", userId)
    .executeTakeFirst();
  return row?.password_printed_at != null;
}

/**
 * The operator's reset (`svc admin users reset-password`): sets a new password, revokes every CLI token of the
 * person (reference §9), ends every dashboard session and removes every passkey. There is no one to ask which
 * passkeys are theirs, and a passkey signs in alone: one an intruder added must not outlive the reset.
 */
export async function resetPassword(tx: Tx, app: App, address: string, password?: string | null) {
  const user = await findUserByEmail(tx, address);
  if (!user) throw notFound(`No account with ${address}.`, "email");
  const pw = password ?? generatePassword();
  const now = app.clock.now();
  await tx
    .updateTable("users")
    .set({
      password_hash: await hashPassword(pw),
      password_printed_at: password ? null : now,
      updated_at: now,
    })
    .where("id", "=", user.id)
    .execute();
  await tx
    .updateTable("user_tokens")
    .set({ revoked_at: now })
    .where("user_id", "=", user.id)
    .where("revoked_at", "is", null)
    .execute();
  const sessionsEnded = await endSessionsOf(tx, app, user.id, null);
  const passkeysRemoved = (await removePasskeysExcept(tx, app, user.id, [], "password_reset")).length;
  // The person hears of it (the mail.send task sends it; this command may exit first).
  await sendAccountNoticeInTx(tx, app, user.id, "account.password_reset");
  return { user, password: password ? null : pw, sessionsEnded, passkeysRemoved };
}
