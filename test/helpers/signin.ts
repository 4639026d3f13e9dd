// A live channel connected by signing in, made the way the account choice makes it (chooseAccounts over a sign-in
// whose callback has run), with tokens the real authorization server issued (test/helpers/oauth-server.ts).
import { randomBytes } from "node:crypto";
import { sha256hex } from "../../src/crypto/hash.ts";
import { chooseAccounts } from "../../src/domain/connect/choose.ts";
import { sealState } from "../../src/domain/connect/sealed.ts";
import type { SignInAccount } from "../../src/platforms/signin/accounts.ts";
import type { TestApp } from "./app.ts";
import type { Tenant } from "./factories.ts";
import type { OAuthServer } from "./oauth-server.ts";
import { personActor } from "./person.ts";

export async function signedInChannel(
  t: TestApp,
  a: Tenant,
  auth: OAuthServer,
  opts: {
    appId: string;
    clientId: string;
    account: string;
    expiresInMs: number;
    shown?: Partial<SignInAccount>;
    provider?: string;
    /** Granted scopes, when fewer than the server's. */
    scopes?: string[];
  },
) {
  const tokens = await auth.issue(opts.account, opts.clientId, opts.scopes);
  const actor = await personActor(t.app, a.userId, a.orgId, true);
  const id = randomBytes(16).toString("hex");
  const now = Date.now();
  const key = opts.shown?.key ?? `x-${opts.account}`;
  await t.app.db
    .insertInto("connect_states")
    .values({
      id,
      state_hash: sha256hex(randomBytes(16)),
      org_id: a.orgId,
      user_id: a.userId,
      brand_id: a.brandId,
      provider: opts.provider ?? "x",
      app_id: opts.appId,
      channel_id: null,
      code_verifier: null,
      tokens: await sealState(
        t.app.db,
        t.app,
        a.orgId,
        id,
        "tokens",
        JSON.stringify({ ...tokens, expires_at: now + opts.expiresInMs, scope: null }),
      ),
      accounts: JSON.stringify([
        {
          display_name: opts.account,
          handle: `@${opts.account}`,
          profile_url: null,
          settings: {},
          ...opts.shown,
          key,
        },
      ]),
      expires_at: now + 15 * 60_000,
      used_at: now,
      created_at: now,
    })
    .execute();
  const [channel] = await chooseAccounts(t.app, actor, id, [key]);
  return { id: channel!.id, account: opts.account, tokens };
}

/**
 * LinkedIn for tests that connect a live channel with pasted fields: a real authorization server issuing member
 * tokens and the LinkedIn stand-in that checks them, with the settings that point svc at them.
 */
export async function linkedinNetwork() {
  const { oauthServer } = await import("./oauth-server.ts");
  const { startLinkedIn } = await import("../stand-ins/linkedin.ts");
  const auth = await oauthServer({
    routes: { authorization: "/oauth/v2/authorization", token: "/oauth/v2/accessToken" },
    scopes: ["openid", "profile", "w_member_social"],
    pkce: false,
    tokenEndpointAuthMethod: "client_secret_post",
  });
  await auth.start({ clientId: "pasted", clientSecret: "pasted-secret", redirectUri: "http://localhost/cb" });
  const li = startLinkedIn(auth);
  return {
    env: { SVC_PROVIDER_ORIGINS: `linkedin=${li.url}`, SVC_ALLOW_PRIVATE_NETWORKS: "true" },
    /** A member access token, as a person would paste it. */
    token: async (member: string) => (await auth.issue(member, "pasted")).access_token,
    author: (member: string) => `urn:li:person:${li.memberOf(member)}`,
    async close() {
      li.stop();
      await auth.close();
    },
  };
}
