// Single sign-on end to end in headless Chromium, with a real OpenID provider (oidc-provider on 127.0.0.1) and a
// local DNS server answering the TXT record: the owner connects the provider and verifies the domain in sudo
// mode, signs in through "Continue with single sign-on" on the provider's own login page, requires it; then a
// password sign-in and a CLI approval from a non-SSO (break-glass) session are refused, and a new colleague's first
// sign-in makes them a member. What people typed is text (no dialog opens); no console errors (CSP included).
// Screenshots at desktop (1280) and phone (390) width go to screenshots/.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type DnsServer, dnsServer } from "../helpers/dns-server.ts";
import { type Idp, oidcIdp } from "../helpers/oidc-idp.ts";
import { type LiveSvc, launchChromium, liveSvc, person, shot, signIn } from "./browser.ts";

const PASSWORD = "correct horse battery staple";

/**
 * Console errors that are svc's: not the refusals these tests cause on purpose (a form answered 422 or 409), nor
 * the web font oidc-provider's development login page imports from the internet, which this machine cannot reach.
 */
const svcError = (m: string) =>
  m !== "Failed to load resource: net::ERR_NAME_NOT_RESOLVED" && !/status of (409|422)/.test(m);
const OWNER = "olga@bakery.test";

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describeEachDialect("single sign-on in Chromium", (dialect) => {
  let svc: LiveSvc;
  let idp: Idp;
  let dns: DnsServer;
  beforeAll(async () => {
    svc = await liveSvc(dialect, { SVC_ALLOW_PRIVATE_NETWORKS: "127.0.0.0/8" });
    idp = await oidcIdp(`${svc.url}/signin/sso/callback`);
    dns = await dnsServer();
    svc.t.app.dnsServers = [dns.address];
    await bootstrap(svc.t.app, { email: OWNER, org: "Bakery", brand: "Bakery", password: PASSWORD });
    idp.accounts.set("olga", { email: OWNER, email_verified: true, name: "Olga" });
    idp.accounts.set("<b>pia</b>", {
      email: "pia@bakery.test",
      email_verified: true,
      name: "<img src=x onerror=alert(1)>",
    });
  });
  afterAll(async () => {
    await idp?.close();
    await dns?.close();
    await svc?.close();
  });

  /** The provider's own login page: any password signs in as the account named. */
  async function providerLogin(page: Page, login: string) {
    await page.waitForURL((u) => u.href.startsWith(idp.url));
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill("any password");
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((u) => u.href.startsWith(svc.url));
    await page.waitForLoadState();
  }

  async function continueWithSso(page: Page, email: string, login: string) {
    await page.goto("/signin");
    await page.getByRole("link", { name: "Continue with single sign-on" }).click();
    await page.getByLabel("Work email").fill(email);
    await page.getByRole("button", { name: "Continue" }).click();
    await providerLogin(page, login);
  }

  test("connect, verify, sign in through the provider, require it; passwords and non-SSO CLI approvals refused", async () => {
    const { page, dialogs, errors } = await person(browser, svc);
    await signIn(page, OWNER, PASSWORD);
    await page.goto("/org");
    await page.getByRole("link", { name: "Single sign-on" }).click();
    expect(await page.locator("#sso-redirect-uri").textContent()).toBe(`${svc.url}/signin/sso/callback`);

    // A wrong issuer first: the message is beside the form and nothing is stored.
    await page.getByLabel("Issuer URL").fill("https://");
    await page.getByLabel("Client ID").fill(idp.client.clientId);
    await page.getByLabel("Client secret").fill(idp.client.clientSecret);
    await page.getByRole("button", { name: "Connect provider" }).click();
    expect(await page.locator("#sso-provider-form").textContent()).toContain("must be an https URL");
    await page.getByLabel("Issuer URL").fill(idp.url);
    await page.getByLabel("Client secret").fill(idp.client.clientSecret);
    await page.getByLabel("Role of people who sign in for the first time").selectOption("editor");
    await page.getByRole("button", { name: "Connect provider" }).click();
    expect(await page.locator("#sso-connected").textContent()).toContain(idp.url);

    await page.getByLabel("Domain", { exact: true }).fill("bakery.test");
    await page.getByRole("button", { name: "Add domain" }).click();
    const value = await page.locator("#domain-bakery\\.test .txt-value").textContent();
    expect(value).toMatch(/^svc-verify=[A-Za-z0-9]{32}$/);
    await page.locator("#domain-bakery\\.test").getByRole("button", { name: "Verify" }).click();
    expect(await page.locator("body").textContent()).toContain("has no TXT record");
    dns.setTxt("_svc-verify.bakery.test", [value!]);
    await page.locator("#domain-bakery\\.test").getByRole("button", { name: "Verify" }).click();
    expect(await page.locator("#domain-bakery\\.test").textContent()).toContain("Verified");
    await shot(page, "sso-settings-desktop");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, "sso-settings-phone");
    await page.setViewportSize({ width: 1100, height: 800 });

    // Requiring it from a password session is refused: sign in through it first.
    await page.getByRole("button", { name: "Require single sign-on" }).click();
    expect(await page.locator("body").textContent()).toContain(
      "Sign in with single sign-on once before requiring it",
    );

    const sso = await person(browser, svc);
    await continueWithSso(sso.page, OWNER, "olga");
    expect(new URL(sso.page.url()).pathname).toBe("/home");
    await sso.page.goto("/org/sso");
    await sso.page.getByRole("button", { name: "Require single sign-on" }).click();
    expect(await sso.page.locator(`section[aria-labelledby="sso-require"]`).textContent()).toContain(
      "Required:",
    );
    await shot(sso.page, "sso-required-desktop");

    // A password sign-in is refused now; the old password session no longer opens the org.
    const pw = await person(browser, svc);
    await signIn(pw.page, OWNER, PASSWORD);
    expect(await pw.page.locator("body").textContent()).toContain("Your org requires single sign-on");
    await page.goto("/posts");
    expect(await page.locator("body").textContent()).toContain("sign in through it to open the org");

    // The owner's break-glass sign-in opens the org, but a CLI it approves would not be an SSO one.
    const glass = await person(browser, svc);
    await glass.page.goto("/signin");
    await glass.page.getByRole("link", { name: "Owner sign-in when single sign-on is out of order" }).click();
    await glass.page.getByLabel("Email").fill(OWNER);
    await glass.page.getByLabel("Password").fill(PASSWORD);
    await glass.page.getByRole("button", { name: "Sign in as owner" }).click();
    await glass.page.waitForURL((u) => u.pathname === "/home");
    const device = await fetch(`${svc.url}/v1/auth/device`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ device_name: "laptop" }),
    }).then((r) => r.json() as Promise<{ user_code: string; device_code: string }>);
    await glass.page.goto("/device");
    await glass.page.getByLabel(/code/i).first().fill(device.user_code);
    await glass.page
      .getByRole("button", { name: /continue|next/i })
      .first()
      .click();
    await glass.page.getByRole("button", { name: /approve/i }).click();
    expect(await glass.page.locator("body").textContent()).toContain("Your org requires single sign-on");
    // From the SSO session it is approved.
    await sso.page.goto("/device");
    await sso.page.getByLabel(/code/i).first().fill(device.user_code);
    await sso.page
      .getByRole("button", { name: /continue|next/i })
      .first()
      .click();
    await sso.page.getByRole("button", { name: /approve/i }).click();
    const token = await fetch(`${svc.url}/v1/auth/device/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ device_code: device.device_code }),
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const me = await fetch(`${svc.url}/v1/me`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(me.status).toBe(200);

    for (const p of [page, sso.page, pw.page, glass.page]) await p.context().close();
    expect(dialogs).toEqual([]);
    expect(errors.filter(svcError)).toEqual([]);
  });

  test("a colleague's first sign-in makes them a member with the default role; markup from the provider is text", async () => {
    const { page, dialogs, errors } = await person(browser, svc);
    await page.goto("/signin/sso");
    await shot(page, "sso-start-desktop");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, "sso-start-phone");
    await page.setViewportSize({ width: 1100, height: 800 });
    await page.getByLabel("Work email").fill("someone@elsewhere.test");
    await page.getByRole("button", { name: "Continue" }).click();
    expect(await page.locator("body").textContent()).toContain("not set up for that email");
    await continueWithSso(page, "pia@bakery.test", "<b>pia</b>");
    expect(new URL(page.url()).pathname).toBe("/home");
    const row = await svc.t.app.db
      .selectFrom("members")
      .innerJoin("users", "users.id", "members.user_id")
      .select(["members.role"])
      .where("users.email", "=", "pia@bakery.test")
      .executeTakeFirstOrThrow();
    expect(row.role).toBe("editor");
    await page.goto("/members");
    expect(await page.locator("body").textContent()).toContain("pia@bakery.test");
    await page.context().close();
    expect(dialogs).toEqual([]);
    expect(errors.filter(svcError)).toEqual([]);
  });
});
