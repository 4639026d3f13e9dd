// The dashboard end to end in headless Chromium against a listening svc: sign in with the password bootstrap
// printed, two-factor with an authenticator app (codes computed with otpauth) and with a passkey (Chromium's
// virtual authenticator over CDP), a cross-site form post and another session's CSRF token refused, wrong
// passwords, the lockout, an org requiring two-factor, API keys, and markup rendered as text on every page.
import { afterAll, beforeAll, expect, test } from "bun:test";
import * as OTPAuth from "otpauth";
import type { Browser, Page } from "playwright-core";
import { adminActor } from "../../src/domain/actor.ts";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { LOCKOUT_FAILURES } from "../../src/domain/identity/sessions/signin.ts";
import { updateOrg } from "../../src/domain/orgs/service.ts";
import { scopesOfRole } from "../../src/domain/scopes.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { key } from "../helpers/factories.ts";
import { type SmtpReceiver, smtpReceiver } from "../helpers/smtp.ts";
import { type LiveSvc, launchChromium, liveSvc, person, shot, signIn } from "./browser.ts";

const MARK = (what: string) => `<img src=x onerror=alert('${what}')><b>${what}</b>`;
const totpCode = (secret: string, at: number) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: at, digits: 6, period: 30 });

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** What `./install.sh` does first: bootstrap an admin, an org, a brand and a sandbox channel; the password once. */
async function bootstrapped(svc: LiveSvc, org: string, brand: string) {
  const email = `admin-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const b = await bootstrap(svc.t.app, { email, org, brand });
  return { email, password: b.password!, orgId: b.org.id, brandId: b.brand.id };
}

const text = (page: Page, sel: string) => page.locator(sel).first().innerText();

describeEachDialect("dashboard in Chromium", (dialect) => {
  let svc: LiveSvc;
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await smtpReceiver();
    svc = await liveSvc(dialect, smtp.env);
  });
  afterAll(async () => {
    await svc.close();
    await smtp.close();
  });

  test("sign in with the bootstrap password; markup renders as text on every page; API keys", async () => {
    const admin = await bootstrapped(svc, MARK("org"), MARK("brand"));
    // A channel and a scheduled post whose names and text carry markup.
    await svc.t.app.db
      .updateTable("channels")
      .set({ display_name: MARK("channel") })
      .execute();
    const k = await key(svc.t.app, admin.orgId, { name: "poster" });
    const post = await svc.t.request("POST", "/v1/posts", {
      key: k,
      body: {
        brand: admin.brandId,
        content: { body: MARK("post") },
        publish_at: new Date(Date.now() + 3600_000).toISOString(),
      },
    });
    expect(post.status).toBe(201);

    const { page, dialogs, errors, context } = await person(browser, svc);
    await page.goto("/");
    expect(new URL(page.url()).pathname).toBe("/signin");
    await shot(page, `signin-${dialect}`);
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Password", { exact: true }).fill("not the password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    expect(await text(page, "#f-password-error")).toBe("The email or password is wrong.");
    await shot(page, `signin-error-${dialect}`);

    await signIn(page, admin.email, admin.password);
    expect(new URL(page.url()).pathname).toBe("/home");
    expect(await text(page, "#mode-bar")).toContain("TEST MODE");
    expect(await text(page, "#home-org")).toBe(MARK("org"));
    expect(await page.locator("#brands h3").first().innerText()).toBe(MARK("brand"));
    expect(await page.locator("#brands").innerText()).toContain(MARK("channel"));
    expect(await page.locator("#posts td.text").first().innerText()).toBe(MARK("post"));
    expect(await page.locator("#brands img, #posts img, #brands b").count()).toBe(0);
    await shot(page, `home-${dialect}`);
    // The composer: brand and channel names in the picker, the post's text in the live preview.
    await page.goto("/posts/new");
    expect(await page.locator("#channel-picker").innerText()).toContain(MARK("channel"));
    expect(await page.locator("#channel-picker").innerText()).toContain(MARK("brand"));
    await page.locator('input[name="channels"]').first().check();
    await page.getByLabel("Text", { exact: true }).fill(MARK("composed"));
    await page.locator("#preview .part-text").first().waitFor();
    expect(await page.locator("#preview .part-text").first().innerText()).toBe(MARK("composed"));
    expect(await page.locator("main img, main b").count()).toBe(0);
    // The post list and the post's page.
    await page.goto("/posts");
    expect(await page.locator("#post-list .post-text").first().innerText()).toBe(MARK("post"));
    expect(await page.locator("#post-list").innerText()).toContain(MARK("channel"));
    await page.goto(`/posts/${post.body.id}`);
    expect(await page.locator("h1").innerText()).toBe(MARK("post"));
    expect(await page.locator("#targets").innerText()).toContain(MARK("channel"));
    expect(await page.locator("main img, main b").count()).toBe(0);

    // The session cookie as the browser holds it.
    const cookie = (await context.cookies()).find((c) => c.name === "svc_session")!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe("Lax");

    // API keys: create one named with markup; the secret is shown once.
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByLabel("Name", { exact: true }).fill(MARK("key"));
    await page.getByLabel("audit:read").check();
    await page.getByRole("button", { name: "Create test key" }).click();
    const secret = await text(page, "#key-secret");
    expect(secret).toStartWith("svc_test_");
    expect(await page.locator("#keys td.text").allInnerTexts()).toContain(MARK("key"));
    await shot(page, `api-keys-${dialect}`);
    expect((await svc.t.request("GET", "/v1/audit_events", { key: secret })).status).toBe(200);
    await page.goto("/api-keys");
    expect(await page.locator("#key-secret").count()).toBe(0);

    // Sessions lists this browser and another; signing the other out (htmx, with the CSRF header) removes its
    // row in place and ends it.
    const other = await person(browser, svc);
    await signIn(other.page, admin.email, admin.password);
    await page.getByRole("link", { name: "Sessions" }).click();
    expect(await page.locator("#sessions").innerText()).toContain("this browser");
    await shot(page, `sessions-${dialect}`);
    const rows = page.locator("#sessions tbody tr");
    expect(await rows.count()).toBe(2);
    await page
      .locator("#sessions tbody")
      .getByRole("button", { name: /^Sign out the session/ })
      .click();
    await rows.nth(1).waitFor({ state: "detached" });
    expect(await rows.count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe("/account/sessions");
    await other.page.goto("/home");
    expect(new URL(other.page.url()).pathname).toBe("/signin");
    await other.context.close();
    // Switching to live mode shows on every page.
    await page.getByRole("button", { name: "Switch to live mode" }).click();
    expect(await text(page, "#mode-bar")).toContain("LIVE MODE");
    await shot(page, `live-mode-${dialect}`);
    expect(dialogs).toEqual([]);
    // No script or style was refused by the Content-Security-Policy, and nothing else failed.
    expect(errors).toEqual([]);
    await context.close();
  });

  test("authenticator app: enrol from the QR code's secret, then sign in with a code", async () => {
    const admin = await bootstrapped(svc, "Totp Org", "Totp Brand");
    const { page, context } = await person(browser, svc);
    await signIn(page, admin.email, admin.password);
    await page.getByRole("link", { name: "Security" }).click();
    await page.getByRole("button", { name: "Set up an authenticator app" }).click();
    expect(await page.locator("img.qr").getAttribute("src")).toStartWith("data:image/svg+xml;base64,");
    await shot(page, `totp-enrol-${dialect}`);
    const secret = (await text(page, "#totp-secret")).replaceAll(" ", "");
    await page.getByLabel("Code from the app").fill(totpCode(secret, Date.now()));
    await page.getByRole("button", { name: "Turn on" }).click();
    expect(await page.locator("#recovery-codes li").count()).toBe(10);
    await shot(page, `recovery-codes-${dialect}`);
    await page.getByRole("button", { name: /^Sign out/ }).click();

    await signIn(page, admin.email, admin.password);
    expect(new URL(page.url()).pathname).toBe("/signin/two-factor");
    await shot(page, `two-factor-${dialect}`);
    // The next time step's code (the enrolment spent this one's).
    await page.getByLabel(/Code from your authenticator app/).fill(totpCode(secret, Date.now() + 30_000));
    await page.getByRole("button", { name: "Continue" }).click();
    expect(new URL(page.url()).pathname).toBe("/home");
    await context.close();
  });

  test("passkeys: register through the virtual authenticator, rename, sign in with it", async () => {
    const admin = await bootstrapped(svc, "Passkey Org", "Passkey Brand");
    const { page, context, dialogs } = await person(browser, svc);
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await signIn(page, admin.email, admin.password);
    await page.goto("/account/security");
    await page.getByLabel("Name for a new passkey").fill(MARK("passkey"));
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.waitForURL("**/account/security");
    await page.locator("#flash").waitFor();
    expect(await text(page, "#flash")).toBe("Passkey added.");
    expect(await page.locator("#passkeys td.text").first().innerText()).toBe(MARK("passkey"));
    // The person is always told by email (a real SMTP receiver here).
    expect((await smtp.waitFor(admin.email, /A passkey was added/)).text).toContain(
      "was added to your account",
    );
    await page.getByLabel("New name").fill("Work laptop");
    await page.getByRole("button", { name: "Rename" }).click();
    expect(await page.locator("#passkeys td.text").first().innerText()).toBe("Work laptop");
    await shot(page, `passkeys-${dialect}`);

    await page.getByRole("button", { name: /^Sign out/ }).click();
    await page.waitForURL("**/signin");
    // With a passkey, sign-in asks for it after the password…
    await signIn(page, admin.email, admin.password);
    expect(new URL(page.url()).pathname).toBe("/signin/two-factor");
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await page.waitForURL("**/home");
    await page.getByRole("button", { name: /^Sign out/ }).click();
    await page.waitForURL("**/signin");
    // …or alone, from the sign-in page (its challenge rides in the signed pre-session cookie, no row).
    const sent: { body: string; headers: Record<string, string> }[] = [];
    page.on("request", async (r) => {
      if (r.method() === "POST" && new URL(r.url()).pathname === "/signin/passkey")
        sent.push({ body: r.postData() ?? "", headers: await r.allHeaders() });
    });
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.waitForURL("**/home");
    expect(await text(page, "#home-org")).toBe("Passkey Org");
    expect(dialogs).toEqual([]);
    // The same answer sent again with the same cookie (its challenge inside) signs no one in. Synced passkeys
    // report no signature counter, so the stored counter is set back to 0: what refuses the replay is that the
    // passkey takes no challenge issued before its last use.
    expect(sent).toHaveLength(1);
    await svc.t.app.db.updateTable("passkeys").set({ counter: 0 }).execute();
    const h = sent[0]!.headers;
    const replay = await fetch(`${svc.url}/signin/passkey`, {
      method: "POST",
      body: sent[0]!.body,
      headers: {
        cookie: h.cookie!,
        "content-type": "application/json",
        "x-csrf-token": h["x-csrf-token"]!,
        "x-client-ip": h["x-client-ip"] ?? "203.0.113.250",
        origin: new URL(svc.url).origin,
        "sec-fetch-site": "same-origin",
      },
    });
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as { code: string }).code).toBe("passkey_invalid");
    await context.close();
  });

  test("an intruder's passkey does not outlive the password reset meant to lock them out", async () => {
    const admin = await bootstrapped(svc, "Reset Passkey Org", "Reset Passkey Brand");
    // The intruder has the password, signs in and adds a passkey of their own (a virtual authenticator).
    const intruder = await person(browser, svc);
    const cdp = await intruder.context.newCDPSession(intruder.page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await signIn(intruder.page, admin.email, admin.password);
    await intruder.page.goto("/account/security");
    await intruder.page.getByLabel("Name for a new passkey").fill("not yours");
    await intruder.page.getByRole("button", { name: "Add a passkey" }).click();
    await intruder.page.locator("#flash").waitFor();
    await intruder.page.getByRole("button", { name: /^Sign out/ }).click();
    await intruder.page.waitForURL("**/signin");
    // The passkey signs in alone.
    await intruder.page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await intruder.page.waitForURL("**/home");

    // The owner resets the password through the mailed link; the page asks about the passkey, unticked.
    const owner = await person(browser, svc);
    await owner.page.goto("/reset");
    await owner.page.getByLabel("Email").fill(admin.email);
    await owner.page.getByRole("button", { name: "Email me a reset link" }).click();
    await owner.page.waitForSelector("#reset-sent");
    const mail = await smtp.waitFor(admin.email, /Reset your svc password/);
    const link = new RegExp(`${svc.url}(/reset/[0-9A-Za-z]+)`).exec(mail.text)![1]!;
    await owner.page.goto(link);
    expect(await owner.page.locator("#keep-passkeys").innerText()).toContain("not yours");
    expect(await owner.page.locator('#keep-passkeys input[type="checkbox"]').isChecked()).toBe(false);
    await owner.page.getByLabel("New password").fill("the owner's new passphrase");
    await shot(owner.page, `reset-passkeys-${dialect}`);
    await owner.page.getByRole("button", { name: "Set the password" }).click();
    await owner.page.waitForURL("**/signin");

    // The intruder's session is over, and their passkey no longer signs in.
    await intruder.page.goto("/home");
    await intruder.page.waitForURL("**/signin");
    await intruder.page.getByRole("button", { name: "Sign in with a passkey" }).click();
    // (A locator, not waitForFunction: the page's CSP forbids the eval that takes.)
    await intruder.page.locator("#passkey-error").filter({ hasText: /\S/ }).waitFor();
    expect(await text(intruder.page, "#passkey-error")).toContain("not accepted");
    expect(new URL(intruder.page.url()).pathname).toBe("/signin");
    const user = await svc.t.app.db
      .selectFrom("users")
      .select("id")
      .where("email", "=", admin.email)
      .executeTakeFirstOrThrow();
    expect(
      await svc.t.app.db.selectFrom("passkeys").select("id").where("user_id", "=", user.id).execute(),
    ).toEqual([]);
    await intruder.context.close();
    await owner.context.close();
  });

  test("a cross-site form post and another session's CSRF token are refused", async () => {
    const admin = await bootstrapped(svc, "Csrf Org", "Csrf Brand");
    const victim = await person(browser, svc);
    await signIn(victim.page, admin.email, admin.password);
    // Another site (127.0.0.1 is another site than localhost) posts a form to the dashboard.
    const port = new URL(svc.url).port;
    const evil = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () =>
        new Response(
          `<form id=f method=post action="http://localhost:${port}/mode"><input name=livemode value=true><input name=back value=/home></form><script>document.getElementById("f").submit()</script>`,
          { headers: { "Content-Type": "text/html" } },
        ),
    });
    try {
      await victim.page.goto(`http://127.0.0.1:${evil.port}/`);
      await victim.page.waitForURL(`**/mode`);
      expect(await text(victim.page, "#error")).toMatch(/cross_site_request|csrf_invalid/);
      await shot(victim.page, `cross-site-refused-${dialect}`);
    } finally {
      evil.stop(true);
    }
    await victim.page.goto("/home");
    expect(await text(victim.page, "#mode-bar")).toContain("TEST MODE");

    // The attacker's own valid token, in the victim's form.
    const attacker = await person(browser, svc);
    await signIn(attacker.page, admin.email, admin.password);
    const token = await attacker.page.locator('input[name="_csrf"]').first().inputValue();
    await victim.page.evaluate(
      `for (const i of document.querySelectorAll('input[name="_csrf"]')) i.value = ${JSON.stringify(token)};`,
    );
    await victim.page.getByRole("button", { name: "Switch to live mode" }).click();
    expect(await text(victim.page, "#error")).toContain("csrf_invalid");
    await victim.page.goto("/home");
    expect(await text(victim.page, "#mode-bar")).toContain("TEST MODE");
    await victim.context.close();
    await attacker.context.close();
  });

  test("the lockout after repeated wrong passwords (the guesser's address only), and an org requiring two-factor", async () => {
    const admin = await bootstrapped(svc, "Lock Org", "Lock Brand");
    const guesser = await person(browser, svc);
    for (let i = 0; i < LOCKOUT_FAILURES; i++) await signIn(guesser.page, admin.email, `guess-${i}`);
    expect(await text(guesser.page, "#f-email-error")).toContain("paused");
    await shot(guesser.page, `locked-${dialect}`);
    // The owner, from another address, is not locked out by the guesser.
    const owner = await person(browser, svc);
    await signIn(owner.page, admin.email, admin.password);
    expect(new URL(owner.page.url()).pathname).toBe("/home");
    await guesser.context.close();
    await owner.context.close();

    const strict = await bootstrapped(svc, "Strict Org", "Strict Brand");
    await updateOrg(svc.t.app, adminActor(strict.orgId, "org update", scopesOfRole("owner")), {
      require_mfa: true,
    });
    const p = await person(browser, svc);
    await signIn(p.page, strict.email, strict.password);
    expect(new URL(p.page.url()).pathname).toBe("/account/security");
    expect(await text(p.page, "#flash")).toContain("requires two-factor sign-in");
    await shot(p.page, `mfa-required-first-${dialect}`);
    await p.page.goto("/home");
    expect(new URL(p.page.url()).pathname).toBe("/account/security");
    await p.context.close();
  });
});
