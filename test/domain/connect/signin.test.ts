// Starting and finishing a sign-in without a browser: every refusal with its code (provider_invalid,
// provider_unavailable in test mode or without an app; connect_failed
// when the person declines or the real authorization server refuses the code; connect_expired for a used state,
// another person's state, and a late one), and oauth.prune.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createApp } from "../../../src/domain/apps/create.ts";
import { finishSignIn } from "../../../src/domain/connect/callback.ts";
import { pruneSignIns } from "../../../src/domain/connect/prune.ts";
import { startSignIn } from "../../../src/domain/connect/start.ts";
import { ServiceError } from "../../../src/lib/errors.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { member, type Tenant, tenant } from "../../helpers/factories.ts";
import { type OAuthServer, oauthServer } from "../../helpers/oauth-server.ts";
import { personActor } from "../../helpers/person.ts";

const CLIENT = { clientId: "signin-client", clientSecret: "signin-secret" };

async function refusal(p: Promise<unknown>): Promise<[number, string]> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ServiceError) return [e.status, e.code];
    throw e;
  }
  throw new Error("expected a refusal");
}

describeEachDialect("starting and finishing a sign-in", (dialect) => {
  let t: TestApp;
  let auth: OAuthServer;
  let a: Tenant;
  beforeAll(async () => {
    auth = await oauthServer();
    await auth.start({ ...CLIENT, redirectUri: "http://localhost:8080/connect/x/callback" });
    t = await testApp(dialect, {
      env: {
        SVC_PROVIDER_ORIGINS: `x.auth=${auth.url},x.token=${auth.url}`,
        SVC_ALLOW_PRIVATE_NETWORKS: "true",
      },
    });
    a = await tenant(t.app, "Sign-in Co");
  });
  afterAll(async () => {
    await t.close();
    await auth.close();
  });

  const live = () => personActor(t.app, a.userId, a.orgId, true);
  const stateOf = (url: string) => new URL(url).searchParams.get("state")!;
  const callback = (q: Record<string, string>) =>
    new URL(`http://localhost:8080/connect/x/callback?${new URLSearchParams(q)}`);

  test("refusals before the network is asked: provider_invalid, provider_unavailable (test mode, no app), forbidden for a viewer; LinkedIn without PKCE", async () => {
    const actor = await live();
    expect(await refusal(startSignIn(t.app, actor, { provider: "bluesky", brand: a.brandId }))).toEqual([
      422,
      "provider_invalid",
    ]);
    expect(await refusal(startSignIn(t.app, actor, { provider: "x", brand: a.brandId }))).toEqual([
      422,
      "provider_unavailable",
    ]);
    const testMode = await personActor(t.app, a.userId, a.orgId, false);
    expect(await refusal(startSignIn(t.app, testMode, { provider: "x", brand: a.brandId }))).toEqual([
      422,
      "provider_unavailable",
    ]);
    await createApp(t.app, actor, {
      provider: "linkedin",
      name: "LI",
      client_id: "li",
      client_secret: "li-secret",
    });
    // LinkedIn's web sign-in: LinkedIn's own page and scopes, the secret at the token endpoint instead of PKCE.
    const li = new URL((await startSignIn(t.app, actor, { provider: "linkedin", brand: a.brandId })).url);
    expect(li.origin + li.pathname).toBe("https://www.linkedin.com/oauth/v2/authorization");
    expect([
      li.searchParams.get("scope"),
      li.searchParams.get("client_id"),
      li.searchParams.get("code_challenge"),
    ]).toEqual(["openid profile w_member_social", "li", null]);
    const viewer = await personActor(
      t.app,
      await member(t.app, a.orgId, "viewer-signin@example.com", "viewer"),
      a.orgId,
      true,
    );
    expect(await refusal(startSignIn(t.app, viewer, { provider: "x", brand: a.brandId }))).toEqual([
      403,
      "forbidden",
    ]);
  });

  test("declined on the network: connect_failed, and the state cannot be used again (connect_expired)", async () => {
    const actor = await live();
    await createApp(t.app, actor, {
      provider: "x",
      name: "X app",
      ...{ client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret },
    });
    const { url } = await startSignIn(t.app, actor, { provider: "x", brand: a.brandId });
    const state = stateOf(url);
    const declined = callback({ error: "access_denied", error_description: "The user denied access", state });
    expect(await refusal(finishSignIn(t.app, a.userId, "x", declined))).toEqual([422, "connect_failed"]);
    expect(await refusal(finishSignIn(t.app, a.userId, "x", callback({ code: "abc", state })))).toEqual([
      422,
      "connect_expired",
    ]);
  });

  test("a code the authorization server does not know is connect_failed; another person's or a late state is connect_expired", async () => {
    const actor = await live();
    const one = await startSignIn(t.app, actor, { provider: "x", brand: a.brandId });
    const refused = await refusal(
      finishSignIn(
        t.app,
        a.userId,
        "x",
        callback({ code: "not-a-code", state: stateOf(one.url), iss: auth.url }),
      ),
    );
    expect(refused).toEqual([422, "connect_failed"]);
    expect(auth.tokenAnswers.refused.length).toBeGreaterThan(0);

    const two = await startSignIn(t.app, actor, { provider: "x", brand: a.brandId });
    const stranger = await member(t.app, a.orgId, "other-admin@example.com", "admin");
    expect(
      await refusal(finishSignIn(t.app, stranger, "x", callback({ code: "c", state: stateOf(two.url) }))),
    ).toEqual([422, "connect_expired"]);

    const three = await startSignIn(t.app, actor, { provider: "x", brand: a.brandId });
    await t.app.db
      .updateTable("connect_states")
      .set({ expires_at: Date.now() - 1 })
      .execute();
    expect(
      await refusal(finishSignIn(t.app, a.userId, "x", callback({ code: "c", state: stateOf(three.url) }))),
    ).toEqual([422, "connect_expired"]);
    // oauth.prune deletes the sign-ins that ran out of time.
    expect(await pruneSignIns(t.app)).toBeGreaterThanOrEqual(1);
    expect(
      await t.app.db.selectFrom("connect_states").selectAll().where("expires_at", "<=", Date.now()).execute(),
    ).toEqual([]);
  });
});
