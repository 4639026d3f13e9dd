// The identity pages in process, through the dashboard's own session, CSRF and sudo mode: /device (type the code,
// see name, address and mode, approve with the password, deny), /cli (a key shown once), Devices, Members
// (invite, roles, owner changes with the password, remove), /invite/<token> and /reset. Markup in every name shows
// as text.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { member, type Tenant, tenant, userToken } from "../../helpers/factories.ts";
import { type SmtpReceiver, smtpReceiver } from "../../helpers/smtp.ts";

const PASSWORD = "correct horse battery staple";
const XSS = '<img src=x onerror="alert(1)">';

describeEachDialect("identity pages", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await smtpReceiver();
    t = await webApp(dialect, { env: smtp.env });
    a = await tenant(t.app, "Pages Org");
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const startCli = (device_name: string, livemode = false) =>
    t.request("POST", "/v1/auth/device", {
      body: { device_name, livemode },
      headers: { "x-client-ip": "203.0.113.7" },
    });
  const poll = (device_code: string) => t.request("POST", "/v1/auth/device/token", { body: { device_code } });

  test("/device: type the code, see the device, approve with the password; the CLI gets its token", async () => {
    const s = await startCli(XSS, true);
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const typed = await b.get("/device");
    expect(typed.status).toBe(200);
    expect(typed.html).toContain('name="user_code"');
    const shown = await b.post("/device", { user_code: s.body.user_code.toLowerCase() });
    expect(shown.status).toBe(200);
    expect(shown.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(shown.html).not.toContain(XSS);
    expect(shown.html).toContain("203.0.113.7");
    expect(shown.html).toContain("LIVE");
    // Sign-in just happened, so sudo mode holds: no password field yet.
    expect(shown.html).not.toContain('name="password"');
    const done = await b.post("/device/approve", { user_code: s.body.user_code });
    expect(done.status).toBe(200);
    expect(done.html).toContain("is signed in as you in");
    const tok = await poll(s.body.device_code);
    expect(tok.status).toBe(200);
    // The code typed twice: a clear message beside the field.
    const again = await b.post("/device", { user_code: s.body.user_code });
    expect(again.status).toBe(400);
    expect(again.html).toContain("already used");

    // Devices lists it (escaped) and signs it out.
    const devices = await b.get("/account/devices");
    expect(devices.html).toContain("&lt;img src=x");
    expect(devices.html).not.toContain(XSS);
    const id = tok.body.user_token.id;
    const out = await b.post(`/account/devices/${id}/revoke`, {});
    expect(out.status).toBe(303);
    expect((await t.request("GET", "/v1/me", { key: tok.body.access_token })).body.code).toBe(
      "user_token_invalid",
    );
  });

  test("/device after the sudo window: the password is asked; a wrong one is refused; deny works", async () => {
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    await t.app.db.updateTable("web_sessions").set({ confirmed_at: 0 }).execute();
    const s = await startCli("old laptop");
    const shown = await b.post("/device", { user_code: s.body.user_code });
    expect(shown.html).toContain('name="password"');
    const noPw = await b.post("/device/approve", { user_code: s.body.user_code });
    expect(noPw.status).toBe(403);
    expect(noPw.html).toContain("Confirm your password");
    const wrong = await b.post("/device/approve", {
      user_code: s.body.user_code,
      password: "not it at all",
    });
    expect(wrong.status).toBe(401);
    expect((await poll(s.body.device_code)).body.error).toBe("authorization_pending");
    const ok = await b.post("/device/approve", { user_code: s.body.user_code, password: PASSWORD });
    expect(ok.status).toBe(200);

    const s2 = await startCli("someone else");
    await b.post("/device", { user_code: s2.body.user_code });
    const denied = await b.post("/device/deny", { user_code: s2.body.user_code });
    expect(denied.html).toContain("was denied");
    await Bun.sleep(1);
    expect((await poll(s2.body.device_code)).body.error).toBe("access_denied");
    // Bad codes.
    expect((await b.post("/device", { user_code: "<script>" })).html).toContain("looks like XXXX-XXXX");
    expect((await b.post("/device", { user_code: "BBBB-BBBB" })).status).toBe(404);
  });

  test("a cross-site form post to /device/approve is refused and changes nothing", async () => {
    const s = await startCli("csrf");
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const r = await b.post("/device/approve", { user_code: s.body.user_code }, { site: "cross-site" });
    expect(r.status).toBe(403);
    expect((await poll(s.body.device_code)).body.error).toBe("authorization_pending");
  });

  test("/cli?device=<name>: a key in the chosen mode, shown once", async () => {
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const p = await b.get(`/cli?device=${encodeURIComponent(XSS)}`);
    expect(p.html).toContain("&lt;img src=x");
    expect(p.html).not.toContain(XSS);
    const made = await b.post("/cli", { device: "ci-runner", livemode: "true" });
    expect(made.status).toBe(200);
    const secret = /id="cli-key-secret">([^<]+)</.exec(made.html)?.[1]?.trim();
    expect(secret).toMatch(/^svc_live_/);
    expect((await t.request("GET", "/v1/me", { key: secret! })).body.livemode).toBe(true);
  });

  test("Members: invite by email, accept with a new password, change role, owner change needs the password", async () => {
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const m = await b.get("/members");
    expect(m.status).toBe(200);
    expect(m.html).toContain(a.email);
    const inv = await b.post("/members/invite", {
      email: "joiner@example.com",
      role: "editor",
      send_email: "true",
    });
    expect(inv.status).toBe(201);
    expect(inv.html).toContain("emailed to joiner@example.com");
    const mail = await smtp.waitFor("joiner@example.com", /invited to Pages Org/);
    // The mailed link carries the address proof: it makes the account in one step.
    const url = /http:\/\/localhost:8080(\/invite\/[0-9A-Za-z]+\/p\/[0-9A-Za-z]+)/.exec(mail.text)![1]!;

    const joiner = new TestBrowser(t);
    const page = await joiner.get(url);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Pages Org");
    const short = await joiner.post(url, { password: "short", name: XSS });
    expect(short.status).toBe(422);
    expect(short.html).toContain("at least 10 characters");
    const ok = await joiner.post(url, { password: "joiner passphrase", name: XSS });
    // Joining signs in: straight to Home, in the org joined.
    expect([ok.status, ok.location]).toEqual([303, "/home"]);
    const home = await joiner.follow(ok);
    expect(home.status).toBe(200);
    expect(home.html).toContain("You joined the org");
    expect(home.html).toContain("Pages Org");
    expect((await joiner.get(url)).status).toBe(404);
    expect((await new TestBrowser(t).signIn("joiner@example.com", "joiner passphrase")).status).toBe(200);

    const list = await b.get("/members");
    expect(list.html).toContain("&lt;img src=x");
    expect(list.html).not.toContain(XSS);
    const joinerId = (
      await t.app.db
        .selectFrom("users")
        .select("id")
        .where("email", "=", "joiner@example.com")
        .executeTakeFirstOrThrow()
    ).id;
    expect(list.html).toContain(`id="member-${joinerId}"`);
    expect((await b.post(`/members/${joinerId}/role`, { role: "viewer" })).status).toBe(303);

    // Owner change with sudo expired: refused; after confirming the password on the page: done.
    await t.app.db.updateTable("web_sessions").set({ confirmed_at: 0 }).execute();
    const page2 = await b.get("/members");
    expect(page2.html).toContain('id="members-confirm"');
    const refused = await b.post(`/members/${joinerId}/role`, { role: "owner" });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain("password");
    expect((await b.post("/members/confirm", { password: PASSWORD })).status).toBe(303);
    expect((await b.post(`/members/${joinerId}/role`, { role: "owner" })).status).toBe(303);
    expect((await b.post(`/members/${joinerId}/remove`, {})).status).toBe(303);
    // The last owner stays.
    const last = await b.post(`/members/${a.userId}/remove`, {});
    expect(last.status).toBe(409);
    expect(last.html).toContain("at least one owner");

    // A viewer sees the list without the forms.
    const viewerId = await member(t.app, a.orgId, `viewer-${dialect}@example.com`, "viewer");
    expect(viewerId).toBeDefined();
    const v = new TestBrowser(t);
    await v.signIn(`viewer-${dialect}@example.com`, PASSWORD);
    const vp = await v.get("/members");
    expect(vp.html).not.toContain('id="invite-form"');
    expect((await v.post("/members/invite", { email: "x@example.com", role: "viewer" })).status).toBe(403);
  });

  test("an invitation for an existing account: sign in as it, then join; withdrawn links are invalid", async () => {
    const other = await tenant(t.app, "Elsewhere");
    const owner = (await userToken(t.app, a.userId)).secret;
    const inv = await t.request("POST", "/v1/invitations", {
      key: owner,
      body: { email: other.email, role: "viewer" },
    });
    const path = new URL(inv.body.url).pathname;
    const guest = new TestBrowser(t);
    // The page does not say whether the address has an account: the account's password, or have a link mailed;
    // nothing on it makes an account.
    const asGuest = (await guest.get(path)).html;
    expect(asGuest).toContain('id="invite-prove-form"');
    expect(asGuest).not.toContain("new-password");
    expect(asGuest).not.toContain('name="name"');
    // The page for an address with an account is the page for one without: the same form, the same words.
    expect(asGuest).toContain('id="invite-accept-form"');
    const fresh = await t.request("POST", "/v1/invitations", {
      key: owner,
      body: { email: "no-account-yet@example.com", role: "viewer" },
    });
    const strip = (html: string) =>
      html
        .replaceAll(other.email, "EMAIL")
        .replaceAll("no-account-yet@example.com", "EMAIL")
        .replace(/\/invite\/[0-9A-Za-z]+/g, "/invite/TOKEN")
        .replace(/name="_csrf" value="[^"]+"/g, "")
        .replace(/<meta name="csrf-token" content="[^"]+"/g, "");
    expect(strip((await guest.get(new URL(fresh.body.url).pathname)).html)).toBe(strip(asGuest));
    const o = new TestBrowser(t);
    await o.signIn(other.email, PASSWORD);
    const p = await o.get(path);
    expect(p.html).toContain('id="invite-accept-form"');
    const joined = await o.post(path, {});
    expect([joined.status, joined.location]).toEqual([303, "/home"]);
    expect((await o.follow(joined)).html).toContain("You joined the org");

    const gone = await t.request("POST", "/v1/invitations", {
      key: owner,
      body: { email: "gone@example.com", role: "viewer" },
    });
    await t.request("DELETE", `/v1/invitations/${gone.body.id}`, { key: owner });
    expect((await guest.get(new URL(gone.body.url).pathname)).status).toBe(404);
  });

  test("/reset: a link by mail, a new password, CLI tokens signed out; the link works once", async () => {
    const who = `reset-${dialect}@example.com`;
    await member(t.app, a.orgId, who, "viewer");
    const uid = (
      await t.app.db.selectFrom("users").select("id").where("email", "=", who).executeTakeFirstOrThrow()
    ).id;
    const tok = await userToken(t.app, uid);
    const b = new TestBrowser(t);
    expect((await b.get("/signin")).html).toContain('href="/reset"');
    await b.get("/reset");
    const asked = await b.post("/reset", { email: who });
    expect(asked.html).toContain("a reset link valid for 30 minutes is on its way");
    const unknown = await b.post("/reset", { email: "nobody-here@example.com" });
    expect(unknown.html).toContain("a reset link valid for 30 minutes is on its way");
    const mail = await smtp.waitFor(who, /Reset your svc password/);
    const path = /http:\/\/localhost:8080(\/reset\/[0-9A-Za-z]+)/.exec(mail.text)![1]!;
    const form = await b.get(path);
    expect(form.html).toContain(who);
    expect((await b.post(path, { password: "short" })).status).toBe(422);
    const done = await b.post(path, { password: "my fresh passphrase" });
    expect(done.status).toBe(303);
    expect(done.location).toBe("/signin");
    expect((await b.follow(done)).html).toContain("Your password is set");
    expect((await t.request("GET", "/v1/me", { key: tok.secret })).body.code).toBe("user_token_invalid");
    const replay = await b.get(path);
    expect(replay.status).toBe(404);
    expect(replay.html).toContain("expired or was already used");
    const signedIn = await new TestBrowser(t).signIn(who, "my fresh passphrase");
    expect(signedIn.status).toBe(200);
    await smtp.waitFor(who, /password was reset/);
  });
});
