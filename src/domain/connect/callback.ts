// The network sends the person back to {base_url}/connect/<provider>/callback with a code and the state. The state
// is claimed once (only its hash is looked up; a second or late callback is connect_expired), the code is
// exchanged for tokens with the PKCE verifier, and the accounts the tokens reach are listed for the person to
// pick. The tokens wait sealed in the sign-in's row; nothing becomes a channel until the person has chosen.
import type { App } from "../../app/context.ts";
import { sha256hex } from "../../crypto/hash.ts";
import { getPlatform } from "../../platforms/rules-registry.ts";
import { accountLister } from "../../platforms/signin/accounts.ts";
import { callbackError, exchangeCode, TokenError } from "../../platforms/signin/oauth.ts";
import { signInSpec } from "../../platforms/signin/specs.ts";
import { loadUsableApp } from "../apps/load.ts";
import { redirectUri } from "../apps/present.ts";
import { openClientSecret } from "../apps/seal.ts";
import { connectEmpty, connectExpired, connectFailed, providerUnavailable } from "./errors.ts";
import { openState, sealState } from "./sealed.ts";
import { SIGN_IN_TTL_MS } from "./start.ts";

/** Claims the state: only a sign-in not used yet and under 15 minutes old, started by this person. */
async function claim(app: App, userId: string, provider: string, state: string) {
  const now = app.clock.now();
  const row = await app.db
    .updateTable("connect_states")
    .set({ used_at: now })
    .where("state_hash", "=", sha256hex(state))
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .returningAll()
    .executeTakeFirst();
  // Another person's sign-in (a link someone was sent) is as unknown to this session as an expired one.
  if (!row || row.user_id !== userId || row.provider !== provider) throw connectExpired();
  return row;
}

/** Returns the sign-in's handle for the account-choice page. */
export async function finishSignIn(
  app: App,
  userId: string,
  provider: string,
  callbackUrl: URL,
): Promise<{ id: string }> {
  const spec = signInSpec(provider);
  const lister = accountLister(provider);
  const state = callbackUrl.searchParams.get("state");
  if (!spec || !lister || !state) throw connectExpired();
  const row = await claim(app, userId, provider, state);
  const network = getPlatform(provider)!.name;
  const declined = callbackError(callbackUrl);
  if (declined) throw connectFailed(declined);
  let devApp: Awaited<ReturnType<typeof loadUsableApp>>;
  try {
    devApp = await loadUsableApp(app.db, row.org_id, row.app_id);
  } catch {
    throw connectFailed("the developer app this sign-in went through was removed meanwhile.");
  }
  const verifier = row.code_verifier
    ? await openState(app.db, app, row.org_id, row.id, "code_verifier", row.code_verifier)
    : null;
  const signal = AbortSignal.timeout(60_000);
  let tokens: Awaited<ReturnType<typeof exchangeCode>>;
  try {
    tokens = await exchangeCode(
      app,
      spec,
      { clientId: devApp.client_id, clientSecret: await openClientSecret(app.db, app, devApp) },
      { callbackUrl, redirectUri: redirectUri(app.config.baseUrl, provider), verifier, signal },
    );
  } catch (e) {
    if (!(e instanceof TokenError)) throw e;
    if (e.kind === "refused") throw connectFailed(`${network} refused the code (${e.message}).`);
    throw providerUnavailable(`${network} could not be reached to finish signing in: ${e.message}`, true);
  }
  const listed = await lister(app, tokens.access_token, signal);
  if (listed.kind === "rejected") throw connectFailed(listed.message);
  if (listed.kind === "unavailable") throw providerUnavailable(listed.message, true);
  if (listed.accounts.length === 0) throw connectEmpty(network);
  // The person has 15 minutes from here to pick the accounts.
  await app.db
    .updateTable("connect_states")
    .set({
      // Per-account tokens (a Facebook Page's) are sealed with the sign-in's own, never in the accounts list.
      tokens: await sealState(
        app.db,
        app,
        row.org_id,
        row.id,
        "tokens",
        JSON.stringify(listed.accountTokens ? { ...tokens, account_tokens: listed.accountTokens } : tokens),
      ),
      accounts: JSON.stringify(listed.accounts),
      expires_at: app.clock.now() + SIGN_IN_TTL_MS,
    })
    .where("id", "=", row.id)
    .execute();
  return { id: row.id };
}
