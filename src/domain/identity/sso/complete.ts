// The provider's redirect back: the state is claimed once (unknown, used or older than 10 minutes: sso_expired),
// the code is exchanged with the PKCE verifier, and the ID token is checked by openid-client (signature against the
// provider's keys, issuer, audience, lifetime, nonce). The email must be present, verified by the provider and in
// one of the org's verified domains. A first sign-in creates the account (no password) and the membership with the
// provider's default role; the session that results came through the org's single sign-on.
import type { App } from "../../../app/context.ts";
import { sha256hex } from "../../../crypto/hash.ts";
import type { Tx } from "../../../db/index.ts";
import { ServiceError } from "../../../lib/errors.ts";
import { newId } from "../../../lib/ids.ts";
import { outboundCause } from "../../../net/guarded-fetch.ts";
import { audit } from "../../audit/service.ts";
import type { Role } from "../../scopes.ts";
import { inTx } from "../../tx.ts";
import { insertMember, seatsTaken } from "../members/service.ts";
import { type ClientMeta, rotateSession, type Session } from "../sessions/service.ts";
import { findUserByEmail } from "../users/service.ts";
import { emailDomain } from "./domains.ts";
import { openidClient, redirectUri } from "./provider.ts";
import { providerOf, providerUnavailable } from "./start.ts";

const expired = () =>
  new ServiceError(400, "sso_expired", "That sign-in took too long or was already used; start again.");
const failed = (why: string) =>
  new ServiceError(400, "sso_failed", `Your org's sign-in provider's answer was not accepted: ${why}`);
const refused = (code: "sso_email_unverified" | "sso_email_missing" | "sso_domain_mismatch", msg: string) =>
  new ServiceError(403, code, msg);

async function claimState(app: App, state: string | null) {
  if (!state) throw expired();
  const hash = sha256hex(state);
  return inTx(app, async (tx) => {
    const row = await tx
      .selectFrom("sso_logins")
      .selectAll()
      .where("state_hash", "=", hash)
      .executeTakeFirst();
    if (!row) throw expired();
    const gone = await tx.deleteFrom("sso_logins").where("state_hash", "=", hash).executeTakeFirst();
    if (Number(gone.numDeletedRows) !== 1 || row.expires_at <= app.clock.now()) return null;
    return row;
  }).then((row) => {
    if (!row) throw expired();
    return row;
  });
}

/** The person behind the verified email, made a member with the default role on first sign-in. */
async function memberFor(tx: Tx, app: App, orgId: string, address: string, defaultRole: Role) {
  const now = app.clock.now();
  let user = await findUserByEmail(tx, address);
  if (user?.disabled_at) throw failed("this account is disabled.");
  let created = false;
  if (!user) {
    user = {
      id: newId("user", now),
      email: address,
      name: null,
      password_hash: null,
      password_printed_at: null,
      timezone: "UTC",
      disabled_at: null,
      created_at: now,
      updated_at: now,
    };
    await tx.insertInto("users").values(user).execute();
    created = true;
  }
  const member = await tx
    .selectFrom("members")
    .select("role")
    .where("org_id", "=", orgId)
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (!member) {
    const org = await tx
      .selectFrom("orgs")
      .select("limit_members")
      .where("id", "=", orgId)
      .executeTakeFirstOrThrow();
    if (org.limit_members !== null && (await seatsTaken(tx, app, orgId)) >= org.limit_members)
      throw new ServiceError(403, "limit_reached", "The org has no free seat for a new member.", {
        param: "members",
      });
    await insertMember(tx, app, orgId, user.id, defaultRole);
  }
  return { user, joined: !member, created, role: (member?.role ?? defaultRole) as Role };
}

export async function completeSsoSignIn(
  app: App,
  session: Session,
  callbackUrl: URL,
  meta: ClientMeta,
): Promise<Session> {
  const login = await claimState(app, callbackUrl.searchParams.get("state"));
  const provider = await providerOf(app, login.org_id);
  if (!provider) throw expired();
  const c = await openidClient();
  // The redirect as the provider made it, whatever host the request came in on behind a proxy.
  const current = new URL(redirectUri(app));
  current.search = callbackUrl.search;
  let claims: Record<string, unknown>;
  try {
    const tokens = await c.authorizationCodeGrant(provider.config, current, {
      pkceCodeVerifier: login.code_verifier,
      expectedNonce: login.nonce,
      expectedState: callbackUrl.searchParams.get("state")!,
      idTokenExpected: true,
    });
    claims = (tokens.claims() ?? {}) as Record<string, unknown>;
    // Providers that keep the ID token small (OIDC Core 5.4) give the email at the userinfo endpoint instead.
    if (claims.email === undefined && provider.config.serverMetadata().userinfo_endpoint)
      claims = {
        ...(await c.fetchUserInfo(provider.config, tokens.access_token, String(claims.sub))),
        ...claims,
      };
  } catch (e) {
    const net = outboundCause(e);
    if (net) throw providerUnavailable(net.message);
    const err = e as { error?: string; error_description?: string; message?: string };
    throw failed(
      err.error
        ? `${err.error}${err.error_description ? `: ${err.error_description}` : ""}`
        : String(err.message),
    );
  }
  const address = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
  if (!address) throw refused("sso_email_missing", "Your sign-in provider gave no email address.");
  if (claims.email_verified !== true)
    throw refused(
      "sso_email_unverified",
      "Your sign-in provider does not say your email address is verified.",
    );
  const domain = emailDomain(address);
  const ok = domain
    ? await app.db
        .selectFrom("sso_domains")
        .select("id")
        .where("org_id", "=", login.org_id)
        .where("domain", "=", domain)
        .where("verified_at", "is not", null)
        .executeTakeFirst()
    : undefined;
  if (!ok)
    throw refused(
      "sso_domain_mismatch",
      `${address} is not in a domain your org verified for single sign-on.`,
    );
  const now = app.clock.now();
  const { user } = await inTx(app, async (tx) => {
    const m = await memberFor(tx, app, login.org_id, address, provider.row.default_role as Role);
    await audit(
      tx,
      app,
      {
        kind: "user",
        orgId: login.org_id,
        livemode: false,
        scopes: new Set(),
        brandId: null,
        apiKeyId: null,
        keyScopes: null,
        keyExpiresAt: null,
        userId: m.user.id,
        userTokenId: null,
        role: m.role,
        operator: null,
        requestId: newId("req"),
      },
      {
        action: "sso.sign_in",
        target: m.user.id,
        detail: { subject: claims.sub ?? null, joined: m.joined, account_created: m.created, ip: meta.ip },
      },
    );
    return m;
  });
  // Signing in through the provider is a confirmation too: sudo mode starts with the session.
  return rotateSession(
    app,
    session,
    { stage: "active", userId: user.id, orgId: login.org_id, livemode: false },
    meta,
    { confirmed_at: now, sso_org_id: login.org_id },
  );
}
