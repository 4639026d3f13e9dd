// "Continue with single sign-on": the email's domain names the org (a verified domain), and the person's browser
// is sent to the org's provider with the authorization code flow, PKCE (S256), a state and a nonce. The state is
// stored hashed with the nonce and verifier for 10 minutes and claimed once by the callback.
import type { App } from "../../../app/context.ts";
import { randomBase62, sha256hex } from "../../../crypto/hash.ts";
import { ServiceError } from "../../../lib/errors.ts";
import { parse } from "../../validate.ts";
import { email as emailSchema } from "../users/service.ts";
import { emailDomain } from "./domains.ts";
import { SSO_AT } from "./guard.ts";
import { clientConfig, discover, openidClient, redirectUri } from "./provider.ts";

export const SSO_LOGIN_TTL_MS = 10 * 60_000;

const unavailable = () =>
  new ServiceError(422, "sso_unavailable", "Single sign-on is not set up for that email's domain.", {
    param: "email",
  });

export const providerUnavailable = (why: string) =>
  new ServiceError(
    503,
    "sso_provider_unavailable",
    `Your org's sign-in provider could not be reached: ${why}`,
    {
      headers: { "Retry-After": "30" },
    },
  );

/** The org's provider as openid-client takes it; a provider that cannot be read is sso_provider_unavailable. */
export async function providerOf(app: App, orgId: string) {
  const p = await app.db
    .selectFrom("sso_providers")
    .selectAll()
    .where("org_id", "=", orgId)
    .executeTakeFirst();
  if (!p) return null;
  const secret = await app.keys.open(app.db, orgId, SSO_AT(orgId), p.client_secret);
  let meta: Awaited<ReturnType<typeof discover>>;
  try {
    meta = await discover(app, p.issuer);
  } catch (e) {
    throw providerUnavailable(e instanceof Error ? e.message : String(e));
  }
  return { row: p, config: await clientConfig(app, meta, p.client_id, secret) };
}

export async function startSsoSignIn(app: App, input: { email?: unknown }): Promise<{ url: string }> {
  const address = parse(emailSchema, input.email ?? "");
  const domain = emailDomain(address);
  const claim = domain
    ? await app.db
        .selectFrom("sso_domains")
        .select(["org_id"])
        .where("domain", "=", domain)
        .where("verified_at", "is not", null)
        .executeTakeFirst()
    : undefined;
  if (!claim) throw unavailable();
  const provider = await providerOf(app, claim.org_id);
  if (!provider) throw unavailable();
  const c = await openidClient();
  const state = randomBase62(32);
  const nonce = c.randomNonce();
  const verifier = c.randomPKCECodeVerifier();
  const now = app.clock.now();
  // Old attempts go as new ones come: nothing else reads them.
  await app.db.deleteFrom("sso_logins").where("expires_at", "<", now).execute();
  await app.db
    .insertInto("sso_logins")
    .values({
      state_hash: sha256hex(state),
      org_id: claim.org_id,
      email: address,
      nonce,
      code_verifier: verifier,
      break_glass: 0,
      created_at: now,
      expires_at: now + SSO_LOGIN_TTL_MS,
    })
    .execute();
  const url = c.buildAuthorizationUrl(provider.config, {
    redirect_uri: redirectUri(app),
    scope: "openid email profile",
    state,
    nonce,
    code_challenge: await c.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    login_hint: address,
  });
  return { url: url.href };
}
