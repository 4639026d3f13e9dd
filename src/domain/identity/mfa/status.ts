// Which second factors a person has: an authenticator app (TOTP) turned on, passkeys, unused recovery codes.
import type { Db, Tx } from "../../../db/index.ts";

export interface MfaStatus {
  totp: boolean;
  passkeys: number;
  recoveryCodesLeft: number;
}

export async function mfaOf(db: Db | Tx, userId: string): Promise<MfaStatus> {
  const [totp, passkeys, codes] = await Promise.all([
    db
      .selectFrom("user_totp")
      .select("enabled_at")
      .where("user_id", "=", userId)
      .where("enabled_at", "is not", null)
      .executeTakeFirst(),
    db
      .selectFrom("passkeys")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirst(),
    db
      .selectFrom("recovery_codes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .where("used_at", "is", null)
      .executeTakeFirst(),
  ]);
  return { totp: !!totp, passkeys: Number(passkeys?.n ?? 0), recoveryCodesLeft: Number(codes?.n ?? 0) };
}

export const hasSecondFactor = (s: MfaStatus) => s.totp || s.passkeys > 0;

/** Whether any org of the person requires two-factor sign-in. */
export async function mfaRequiredFor(db: Db | Tx, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("members")
    .innerJoin("orgs", "orgs.id", "members.org_id")
    .select("orgs.id")
    .where("members.user_id", "=", userId)
    .where("orgs.require_mfa", "=", 1)
    .executeTakeFirst();
  return !!row;
}
