// Recovery codes: ten one-time codes shown once when two-factor is turned on (or made anew), stored as hashes.

import type { App } from "../../../app/context.ts";
import { sha256hex } from "../../../crypto/hash.ts";
import { nodeCrypto } from "../../../crypto/node.ts";
import type { Tx } from "../../../db/index.ts";

const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
export const RECOVERY_CODES = 10;

const normalize = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, "");

function newCode(): string {
  let s = "";
  for (const b of nodeCrypto().randomBytes(10)) s += ALPHABET[b % ALPHABET.length];
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

/** Replaces the person's recovery codes; returns the new ones (the only time they are readable). */
export async function issueRecoveryCodes(tx: Tx, app: App, userId: string): Promise<string[]> {
  const now = app.clock.now();
  const codes = Array.from({ length: RECOVERY_CODES }, newCode);
  await tx.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
  await tx
    .insertInto("recovery_codes")
    .values(
      codes.map((c) => ({ user_id: userId, hash: sha256hex(normalize(c)), used_at: null, created_at: now })),
    )
    .execute();
  return codes;
}

/** Spends one unused code; true when it was one. A code works once, even when two requests race. */
export async function spendRecoveryCode(tx: Tx, app: App, userId: string, code: string): Promise<boolean> {
  const n = normalize(code);
  if (n.length !== 10) return false;
  const res = await tx
    .updateTable("recovery_codes")
    .set({ used_at: app.clock.now() })
    .where("user_id", "=", userId)
    .where("hash", "=", sha256hex(n))
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
