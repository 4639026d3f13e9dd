// Sign-in connections end to end in headless Chromium: a real OAuth 2 authorization server (oidc-provider on
// 127.0.0.1, X's paths and scopes, PKCE required, rotating refresh tokens) signs the person in and asks for
// consent; X's API is a stand-in checked against X's OpenAPI description that asks that server whose token it is.
// The person adds the org's developer app (the redirect URI shown to copy), signs in, and picks the account; the
// state, the PKCE challenge, the sealed tokens, a replayed and a late callback, choice_required, and reconnecting
// (the channel keeps its ID) are each checked.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { openSecrets } from "../../src/domain/channels/fields.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type OAuthServer, oauthServer } from "../helpers/oauth-server.ts";
import { type LinkedInStandIn, startLinkedIn } from "../stand-ins/linkedin.ts";
import { type PinterestStandIn, startPinterest } from "../stand-ins/pinterest.ts";
import { expectClean } from "../stand-ins/server.ts";
import { startX, type XStandIn } from "../stand-ins/x.ts";
import { type LiveSvc, launchChromium, liveSvc, person, signIn } from "./browser.ts";

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const CLIENT = { clientId: "svc-x-client-id", clientSecret: "svc-x-client-secret" };
const PIN_CLIENT = { clientId: "svc-pinterest-app", clientSecret: "svc-pinterest-secret" };
const LI_CLIENT = { clientId: "svc-linkedin-pages", clientSecret: "svc-linkedin-pages-secret" };

describeEachDialect("sign-in connections in Chromium", (dialect) => {
  let svc: LiveSvc;
  let auth: OAuthServer;
  let x: XStandIn;
  let pinAuth: OAuthServer;
  let pins: PinterestStandIn;
  let liAuth: OAuthServer;
  let li: LinkedInStandIn;
  let admin: { email: string; password: string; orgId: string; brandId: string };
  let page: Page;
  /** Every URL the browser asked for, in order. */
  const visited: string[] = [];
  let channelId = "";

  beforeAll(async () => {
    auth = await oauthServer();
    x = await startX(auth);
    // Pinterest's own authorization server: its paths, no PKCE (a web app signs in with its secret).
    pinAuth = await oauthServer({
      routes: { authorization: "/oauth/", token: "/v5/oauth/token" },
      scopes: ["boards:read", "pins:read", "pins:write", "user_accounts:read"],
      pkce: false,
    });
    pins = await startPinterest(pinAuth);
    // LinkedIn's: its paths, the client secret in the form body, no PKCE.
    liAuth = await oauthServer({
      routes: { authorization: "/oauth/v2/authorization", token: "/oauth/v2/accessToken" },
      scopes: ["r_organization_admin", "w_organization_social"],
      pkce: false,
      tokenEndpointAuthMethod: "client_secret_post",
    });
    li = startLinkedIn(liAuth);
    svc = await liveSvc(dialect, {
      SVC_PROVIDER_ORIGINS: [
        `x.auth=${auth.url},x.token=${auth.url},x=${x.url}`,
        `pinterest.auth=${pinAuth.url},pinterest.token=${pinAuth.url},pinterest=${pins.url}`,
        `linkedin_pages.auth=${liAuth.url},linkedin_pages.token=${liAuth.url},linkedin=${li.url}`,
      ].join(","),
      SVC_ALLOW_PRIVATE_NETWORKS: "true",
    });
    await auth.start({ ...CLIENT, redirectUri: `${svc.url}/connect/x/callback` });
    await pinAuth.start({ ...PIN_CLIENT, redirectUri: `${svc.url}/connect/pinterest/callback` });
    await liAuth.start({ ...LI_CLIENT, redirectUri: `${svc.url}/connect/linkedin_pages/callback` });
    const email = `admin-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const b = await bootstrap(svc.t.app, { email, org: "Connect Co", brand: "Connect Brand" });
    admin = { email, password: b.password!, orgId: b.org.id, brandId: b.brand.id };
    const p = await person(browser, svc);
    page = p.page;
    page.on("request", (r) => {
      if (r.isNavigationRequest()) visited.push(r.url());
    });
    await signIn(page, admin.email, admin.password);
    await page.click("#mode-switch");
    await page.waitForLoadState();
  });
  afterAll(async () => {
    await page?.context().close();
    await svc?.close();
    await auth?.close();
    await pinAuth?.close();
    await liAuth?.close();
    li?.stop();
    x?.stop();
    pins?.stop();
  });

  /** The authorization server's own login and consent pages, when it shows them (a known session skips login). */
  async function consent(login: string, server = auth, provider = "x") {
    await page.waitForURL(
      (u) =>
        u.href.startsWith(server.url) ||
        u.pathname.startsWith("/connect/choose/") ||
        u.pathname === `/connect/${provider}/callback`,
    );
    if (page.url().startsWith(server.url) && (await page.locator('input[name="login"]').count())) {
      await page.locator('input[name="login"]').fill(login);
      await page.locator('input[name="password"]').fill("any password");
      await page.locator('button[type="submit"]').click();
      await page.waitForLoadState();
    }
    if (page.url().startsWith(server.url) && (await page.locator('button[type="submit"]').count()))
      await page.locator('button[type="submit"]').click();
  }

  test("add the org's app, sign in with X, pick the account: state, PKCE S256, tokens sealed; a replayed callback is connect_expired", async () => {
    await page.goto("/connect");
    // The redirect URI to register is shown beside the app form.
    expect(await page.locator(`section[aria-labelledby="apps"]`).textContent()).toContain(
      `${svc.url}/connect/x/callback`,
    );
    await page.selectOption("#f-provider", "x");
    await page.fill("#f-name", "Our X app");
    await page.fill("#f-client_id", CLIENT.clientId);
    await page.fill("#f-client_secret", CLIENT.clientSecret);
    await page.click("#app-create button[type=submit]");
    await page.waitForURL(/\/connect$/);
    expect(await page.locator("#app-list").textContent()).toContain("Our X app");

    const before = visited.length;
    await page.click("#signin-x");
    await consent("alice");
    await page.waitForURL(/\/connect\/choose\//);
    const authorize = new URL(
      visited.slice(before).find((u) => u.startsWith(`${auth.url}/i/oauth2/authorize`))!,
    );
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get("client_id")).toBe(CLIENT.clientId);
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${svc.url}/connect/x/callback`);
    expect(authorize.searchParams.get("scope")).toBe(
      "tweet.read tweet.write users.read media.write offline.access",
    );
    const state = authorize.searchParams.get("state")!;
    expect(state.length).toBeGreaterThanOrEqual(32);
    // Only the state's hash is stored; the verifier and the tokens are sealed.
    const pending = await svc.t.app.db.selectFrom("connect_states").selectAll().execute();
    expect(pending).toHaveLength(1);
    expect(JSON.stringify(pending)).not.toContain(state);
    expect(pending[0]!.used_at).not.toBeNull();
    expect(pending[0]!.tokens!.startsWith("v1:")).toBe(true);

    expect(await page.locator(`section[aria-labelledby="choose"]`).textContent()).toContain("@alice");
    await page.click("#connect-chosen");
    await page.waitForSelector("#connected-channels");
    channelId = (await page.locator("#connected-channels li").first().getAttribute("data-channel"))!;
    expect(channelId).toMatch(/^chan_/);

    const ch = await svc.t.app.db
      .selectFrom("channels")
      .selectAll()
      .where("id", "=", channelId)
      .executeTakeFirstOrThrow();
    expect([ch.provider, ch.livemode, ch.handle, ch.status, ch.brand_id]).toEqual([
      "x",
      1,
      "@alice",
      "active",
      admin.brandId,
    ]);
    const secrets = await openSecrets(svc.t.app, ch);
    expect(Object.keys(secrets).sort()).toEqual(["access_token", "refresh_token"]);
    expect(ch.secrets).not.toContain(secrets.access_token!);
    expect(await auth.accountOf(secrets.access_token!)).toBe("alice");
    const grant = await svc.t.app.db
      .selectFrom("channel_grants")
      .selectAll()
      .where("channel_id", "=", channelId)
      .executeTakeFirstOrThrow();
    expect(grant.account_key).toBe(x.userOf("alice").id);
    expect(Math.abs(grant.token_expires_at! - (Date.now() + 7200_000))).toBeLessThan(120_000);
    // The sign-in's row and its copy of the tokens are gone.
    expect(await svc.t.app.db.selectFrom("connect_states").selectAll().execute()).toEqual([]);
    const events = await svc.t.app.db
      .selectFrom("events")
      .select("type")
      .where("org_id", "=", admin.orgId)
      .execute();
    expect(events.map((e) => e.type)).toContain("channel.connected");

    // The same callback again (a replay, the back button): the state was used.
    const callback = visited.find((u) => u.startsWith(`${svc.url}/connect/x/callback`))!;
    const replay = await page.goto(callback);
    expect(replay!.status()).toBe(422);
    expect(await page.locator("body").textContent()).toContain("over 15 minutes old or was already used");
    expectClean(x);
  });

  test("a late callback is connect_expired; picking nothing is choice_required; reconnecting keeps the channel's ID", async () => {
    expect(channelId).not.toBe("");
    await svc.t.app.db
      .updateTable("channels")
      .set({ status: "needs_reauth", status_note: "revoked" })
      .where("id", "=", channelId)
      .execute();

    // The person lingers: by the time the network sends them back, the sign-in is older than 15 minutes.
    const authorizePath = new RegExp(`^${auth.url}/i/oauth2/authorize`);
    await page.route(authorizePath, async (route) => {
      await svc.t.app.db
        .updateTable("connect_states")
        .set({ expires_at: Date.now() - 1 })
        .execute();
      await route.continue();
    });
    await page.goto(`/connect?channel=${channelId}`);
    const before = visited.length;
    await page.click("#signin-x");
    await consent("alice");
    await page.waitForURL((u) => u.pathname === "/connect/x/callback");
    await page.unroute(authorizePath);
    expect(visited.slice(before).some((u) => u.startsWith(`${svc.url}/connect/x/callback?code=`))).toBe(true);
    expect(await page.locator("body").textContent()).toContain("over 15 minutes old or was already used");

    // Again, in time: the account offered says which channel it reconnects.
    await page.goto(`/connect?channel=${channelId}`);
    await page.click("#signin-x");
    await consent("alice");
    await page.waitForURL(/\/connect\/choose\//);
    expect(await page.locator(`section[aria-labelledby="choose"]`).textContent()).toContain(
      `reconnects ${channelId}`,
    );
    await page.uncheck('input[name="accounts"]');
    await page.click("#connect-chosen");
    await page.waitForLoadState();
    expect(await page.locator(`section[aria-labelledby="choose"]`).textContent()).toContain(
      "Pick at least one account to connect.",
    );
    await page.check('input[name="accounts"]');
    await page.click("#connect-chosen");
    await page.waitForSelector("#connected-channels");
    expect(await page.locator("#connected-channels li").first().getAttribute("data-channel")).toBe(channelId);
    const ch = await svc.t.app.db
      .selectFrom("channels")
      .selectAll()
      .where("id", "=", channelId)
      .executeTakeFirstOrThrow();
    expect([ch.status, ch.status_note]).toEqual(["active", null]);
    const all = await svc.t.app.db.selectFrom("channels").select("id").where("provider", "=", "x").execute();
    expect(all).toHaveLength(1);
    expectClean(x);
  });

  test("Pinterest: each board is a channel and the person picks two of three; an account without boards is connect_empty", async () => {
    const boards = pins.addBoards("bella", ["Recipes", "Travel", "Gardens"]);
    await page.goto("/connect");
    await page.selectOption("#f-provider", "pinterest");
    await page.fill("#f-name", "Our Pinterest app");
    await page.fill("#f-client_id", PIN_CLIENT.clientId);
    await page.fill("#f-client_secret", PIN_CLIENT.clientSecret);
    await page.click("#app-create button[type=submit]");
    await page.waitForURL(/\/connect$/);

    const before = visited.length;
    await page.click("#signin-pinterest");
    await consent("bella", pinAuth, "pinterest");
    await page.waitForURL(/\/connect\/choose\//);
    // Pinterest takes no PKCE here: none is sent.
    const authorize = new URL(visited.slice(before).find((u) => u.startsWith(`${pinAuth.url}/oauth/`))!);
    expect(authorize.searchParams.get("code_challenge")).toBeNull();
    expect(authorize.searchParams.get("scope")).toBe("boards:read pins:read pins:write user_accounts:read");
    const offered = await page
      .locator('input[name="accounts"]')
      .evaluateAll((els) =>
        els.map((e) => [e.getAttribute("value"), (e as unknown as { checked: boolean }).checked]),
      );
    expect(offered).toEqual(boards.map((b) => [b.id, false]));
    await page.check(`input[value="${boards[0]!.id}"]`);
    await page.check(`input[value="${boards[2]!.id}"]`);
    await page.click("#connect-chosen");
    await page.waitForSelector("#connected-channels");
    const made = await page
      .locator("#connected-channels li")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-channel")));
    expect(made).toHaveLength(2);
    const rows = await svc.t.app.db
      .selectFrom("channels")
      .select(["display_name", "settings", "provider"])
      .where("provider", "=", "pinterest")
      .orderBy("display_name")
      .execute();
    expect(rows.map((r) => [r.display_name, JSON.parse(r.settings).board_id])).toEqual([
      ["Gardens", boards[2]!.id],
      ["Recipes", boards[0]!.id],
    ]);

    // Someone else signs in to Pinterest (the network's own session ended): they have no board.
    await page.context().clearCookies({ domain: "127.0.0.1" });
    await page.goto("/connect");
    await page.click("#signin-pinterest");
    await consent("nobody", pinAuth, "pinterest");
    await page.waitForURL((u) => u.pathname === "/connect/pinterest/callback");
    expect(await page.locator("body").textContent()).toContain(
      "gave access to no account that can become a channel",
    );
    expectClean(pins);
  });

  test("LinkedIn Pages: the client secret goes in the form body; each administered Page offered becomes a channel", async () => {
    li.pages.set("hana", [
      { id: "3001", name: "Hana Studio", vanity: "hana-studio" },
      { id: "3002", name: "Hana Labs", vanity: "hana-labs" },
    ]);
    await page.goto("/connect");
    await page.selectOption("#f-provider", "linkedin_pages");
    await page.fill("#f-name", "Our Pages app");
    await page.fill("#f-client_id", LI_CLIENT.clientId);
    await page.fill("#f-client_secret", LI_CLIENT.clientSecret);
    await page.click("#app-create button[type=submit]");
    await page.waitForURL(/\/connect$/);
    await page.click("#signin-linkedin_pages");
    await consent("hana", liAuth, "linkedin_pages");
    await page.waitForURL(/\/connect\/choose\//);
    for (const id of ["3001", "3002"]) await page.check(`input[value="${id}"]`);
    await page.click("#connect-chosen");
    await page.waitForSelector("#connected-channels");
    const rows = await svc.t.app.db
      .selectFrom("channels")
      .select(["display_name", "handle", "settings"])
      .where("provider", "=", "linkedin_pages")
      .orderBy("display_name")
      .execute();
    expect(rows.map((r) => [r.display_name, r.handle, JSON.parse(r.settings).author])).toEqual([
      ["Hana Labs", "hana-labs", "urn:li:organization:3002"],
      ["Hana Studio", "hana-studio", "urn:li:organization:3001"],
    ]);
  });
});
