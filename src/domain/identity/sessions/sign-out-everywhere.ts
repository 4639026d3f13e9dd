// "Sign out everywhere" on the Sessions page: every other browser and every CLI of the person signed out, and the
// passkeys the person does not say are theirs removed. A passkey signs in alone, so a session stolen by someone who
// added their own passkey is not ended by signing out while that passkey stays. Sudo mode: it changes two-factor.
import * as v from "valibot";
import type { App } from "../../../app/context.ts";
import { conflict } from "../../../lib/errors.ts";
import { auditAccount } from "../../audit/service.ts";
import { inTx } from "../../tx.ts";
import { parse } from "../../validate.ts";
import { requireRecentAuth } from "../auth/sudo.ts";
import { revokeAllUserTokens } from "../auth/user-token-service.ts";
import { removePasskeysExcept } from "../mfa/passkeys.ts";
import { hasSecondFactor, mfaOf, mfaRequiredFor } from "../mfa/status.ts";
import { endSessionsOf, type Session } from "./service.ts";

const Everywhere = v.strictObject({
  keep_passkeys: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(100))), v.maxLength(100)), []),
});

export async function signOutEverywhere(app: App, session: Session, input: unknown) {
  requireRecentAuth(app, session.confirmed_at);
  const b = parse(Everywhere, input);
  const userId = session.user_id!;
  return inTx(app, async (tx) => {
    const sessionsEnded = await endSessionsOf(tx, app, userId, session.id);
    const tokensRevoked = await revokeAllUserTokens(tx, app, userId);
    const removed = await removePasskeysExcept(tx, app, userId, b.keep_passkeys, "signed_out_everywhere");
    // This browser stays signed in: it must not be left without the second factor an org of the person requires.
    if (removed.length && !hasSecondFactor(await mfaOf(tx, userId)) && (await mfaRequiredFor(tx, userId)))
      throw conflict(
        "mfa_required",
        "An org you belong to requires two-factor sign-in: keep a passkey, or set up an authenticator app first.",
      );
    await auditAccount(tx, app, userId, {
      action: "account.signed_out_everywhere",
      detail: {
        sessions_ended: sessionsEnded,
        tokens_revoked: tokensRevoked,
        passkeys_removed: removed.length,
      },
    });
    return {
      object: "sign_out_everywhere" as const,
      sessions_ended: sessionsEnded,
      tokens_revoked: tokensRevoked,
      passkeys_removed: removed.length,
    };
  });
}
