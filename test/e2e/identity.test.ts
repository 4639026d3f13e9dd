// The identity pages end to end in headless Chromium (Debian's package, driven by playwright-core) against a
// listening svc: a CLI (openid-client's RFC 8628 client) polls while a person approves its code on /device and
// receives its token; an invitation is accepted with a new password; a password is reset through the mail a real
// SMTP receiver caught; markup in names renders as text (no dialog ever opens). Screenshots go to screenshots/.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import * as client from "openid-client";
import { type Browser, chromium, type Page } from "playwright-core";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant, userToken } from "../helpers/factories.ts";
import { type SmtpReceiver, smtpReceiver } from "../helpers/smtp.ts";

const PASSWORD = "correct horse battery staple";
const MARK = (what: string) => `<img src=x onerror=alert('${what}')><b>${what}</b>`;
const SHOTS = join(import.meta.dir, "../../screenshots");

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
    ],
  });
});
afterAll(async () => {
  await browser?.close();
});

describeEachDialect("identity pages in Chromium", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let smtp: SmtpReceiver;
  let server: ReturnType<typeof Bun.serve>;
  let url: string;
  beforeAll(async () => {
    smtp = await smtpReceiver();
    let handle: (r: Request, peer: string | null) => Promise<Response> = async () =>
      new Response("", { status: 503 });
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (req, srv) => handle(req, srv.requestIP(req)?.address ?? null),
    });
    url = `http://localhost:${server.port}`;
    t = await testApp(dialect, { env: { ...smtp.env, SVC_BASE_URL: url, SVC_INSECURE_COOKIES: "true" } });
    handle = (r, peer) => t.http.handle(r, peer);
    a = await tenant(t.app, MARK("org"));
  });
  afterAll(async () => {
    server.stop(true);
    await t.close();
    await smtp.close();
  });

  async function window() {
    const context = await browser.newContext({ baseURL: url, viewport: { width: 1000, height: 800 } });
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    return { context, page, dialogs };
  }

  async function signIn(page: Page, email: string, password: string) {
    await page.goto("/signin");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL("**/home");
  }

  test("a polling CLI receives its token once the person approves the code on /device", async () => {
    const config = new client.Configuration(
      {
        issuer: url,
        device_authorization_endpoint: `${url}/v1/auth/device`,
        token_endpoint: `${url}/v1/auth/device/token`,
      },
      "svc-cli",
      undefined,
      client.None(),
    );
    client.allowInsecureRequests(config);
    const started = await client.initiateDeviceAuthorization(config, {
      device_name: MARK("device"),
      livemode: "false",
    });
    const polling = client.pollDeviceAuthorizationGrant(config, started);

    const { context, page, dialogs } = await window();
    await signIn(page, a.email, PASSWORD);
    await page.goto("/device");
    await shot(page, `device-code-${dialect}`);
    await page.getByLabel("Code").fill(started.user_code.toLowerCase());
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForSelector("#device-details");
    expect(await page.locator("#device-name").innerText()).toBe(MARK("device"));
    expect(await page.locator("#device-ip").innerText()).toBe("127.0.0.1");
    expect(await page.locator("#device-mode").innerText()).toContain("TEST");
    await shot(page, `device-confirm-${dialect}`);
    await page.getByRole("button", { name: "Approve" }).click();
    await page.waitForSelector("#device-done");
    await shot(page, `device-done-${dialect}`);

    const tokens = await polling;
    expect(tokens.access_token).toMatch(/^svc_user_/);
    const me = await t.request("GET", "/v1/me", { key: tokens.access_token });
    expect(me.body.user.id).toBe(a.userId);

    await page.goto("/account/devices");
    expect(await page.locator("#devices").innerText()).toContain(MARK("device"));
    await shot(page, `devices-${dialect}`);
    await page.getByRole("button", { name: `Sign out ${MARK("device")}` }).click();
    const tokenId = (tokens.user_token as { id: string }).id;
    await page.waitForSelector(`#row-${tokenId}`, { state: "detached" });
    expect((await t.request("GET", "/v1/me", { key: tokens.access_token })).body.code).toBe(
      "user_token_invalid",
    );
    expect(dialogs).toEqual([]);
    await context.close();
  }, 40_000);

  test("invite from the Members page; the invitee sets a password from the mailed link and is signed in", async () => {
    const { context, page, dialogs } = await window();
    await signIn(page, a.email, PASSWORD);
    await page.goto("/members");
    await page.getByLabel("Email", { exact: true }).fill(`joiner-${dialect}@example.com`);
    await page.getByRole("button", { name: "Invite" }).click();
    await page.waitForSelector("#invite-created");
    await shot(page, `members-${dialect}`);
    const mail = await smtp.waitFor(`joiner-${dialect}@example.com`, /invited to/);
    // The mailed link carries the address proof: the account is made from it in one step.
    const link = new RegExp(`${url}(/invite/[0-9A-Za-z]+/p/[0-9A-Za-z]+)`).exec(mail.text)![1]!;

    const joiner = await window();
    await joiner.page.goto(link);
    expect(await joiner.page.locator("#invite-org").innerText()).toBe(MARK("org"));
    // One form for an address with or without an account: its password, or a new one.
    await joiner.page.getByLabel("Your name, for a new account (optional)").fill(MARK("joiner"));
    await joiner.page.getByLabel("Password", { exact: true }).fill("joiner passphrase");
    await shot(joiner.page, `invite-${dialect}`);
    await joiner.page.getByRole("button", { name: /^Join / }).click();
    // Joining signs in: Home, in the org joined.
    await joiner.page.waitForURL("**/home");
    expect(await joiner.page.locator("#flash").innerText()).toContain("You joined the org");
    await page.goto("/members");
    expect(await page.locator("#members").innerText()).toContain(MARK("joiner"));
    expect([...dialogs, ...joiner.dialogs]).toEqual([]);
    await joiner.context.close();
    await context.close();
  }, 40_000);

  test("reset a password through the emailed link; CLI tokens stop working", async () => {
    const tok = await userToken(t.app, a.userId);
    const { context, page, dialogs } = await window();
    await page.goto("/signin");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByLabel("Email").fill(a.email);
    await page.getByRole("button", { name: "Email me a reset link" }).click();
    await page.waitForSelector("#reset-sent");
    const mail = await smtp.waitFor(a.email, /Reset your svc password/);
    const link = new RegExp(`${url}(/reset/[0-9A-Za-z]+)`).exec(mail.text)![1]!;
    await page.goto(link);
    await page.getByLabel("New password").fill("a whole new passphrase");
    await shot(page, `reset-${dialect}`);
    await page.getByRole("button", { name: "Set the password" }).click();
    await page.waitForURL("**/signin");
    await signIn(page, a.email, "a whole new passphrase");
    expect((await t.request("GET", "/v1/me", { key: tok.secret })).body.code).toBe("user_token_invalid");
    await page.goto(link);
    expect(await page.locator("#reset-invalid").innerText()).toContain("already used");
    await smtp.waitFor(a.email, /password was reset/);
    expect(dialogs).toEqual([]);
    await context.close();
  }, 40_000);
});
