// /account/password: a signed-in person changes their password. A wrong current password or a weak new one
// changes nothing and is shown beside its field; a change signs out every other browser and every CLI, keeps this
// browser signed in under a new session ID, and mails the notice. A reset through a mailed link ends every
// dashboard session. Markup in the org's name shows as text.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { tenant, userToken } from "../../helpers/factories.ts";
import { type SmtpReceiver, smtpReceiver } from "../../helpers/smtp.ts";

const PASSWORD = "correct horse battery staple";
const XSS = '<img src=x onerror="alert(1)">';

describeEachDialect("change password page", (dialect) => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await smtpReceiver();
    t = await webApp(dialect, { env: smtp.env });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const hashOf = async (userId: string) =>
    (
      await t.app.db
        .selectFrom("users")
        .select("password_hash")
        .where("id", "=", userId)
        .executeTakeFirstOrThrow()
    ).password_hash;

  test("a wrong current password or a weak new one: shown beside the field, nothing changes", async () => {
    const a = await tenant(t.app, `Org ${XSS}`);
    const tok = await userToken(t.app, a.userId);
    const b = new TestBrowser(t);
    const other = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    await other.signIn(a.email, PASSWORD);
    const security = await b.get("/account/security");
    expect(security.html).toContain('href="/account/password"');
    const form = await b.get("/account/password");
    expect(form.status).toBe(200);
    expect(form.html).toContain('name="current_password"');
    expect(form.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(form.html).not.toContain(XSS);
    const before = await hashOf(a.userId);

    const wrong = await b.post("/account/password", {
      current_password: "not my password at all",
      password: "a brand new passphrase",
      password_confirm: "a brand new passphrase",
    });
    expect(wrong.status).toBe(422);
    expect(wrong.html).toMatch(/id="f-current_password-error">The current password is not right/);

    const weak = await b.post("/account/password", {
      current_password: PASSWORD,
      password: "short",
      password_confirm: "short",
    });
    expect(weak.status).toBe(422);
    expect(weak.html).toMatch(/id="f-password-error">A password needs at least 10 characters/);

    const mismatch = await b.post("/account/password", {
      current_password: PASSWORD,
      password: "a brand new passphrase",
      password_confirm: "another passphrase",
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.html).toContain('id="f-password_confirm-error"');

    // Nothing changed: same hash, the other browser and the CLI still signed in.
    expect(await hashOf(a.userId)).toBe(before);
    expect((await other.get("/account/sessions")).status).toBe(200);
    expect((await t.request("GET", "/v1/me", { key: tok.secret })).status).toBe(200);
    expect(smtp.mails.some((m) => m.to.includes(a.email) && /password was changed/.test(m.subject))).toBe(
      false,
    );
  });

  test("success: this browser stays (new session ID), the other is signed out, the CLI too; a mail", async () => {
    const a = await tenant(t.app, "Password Org");
    const tok = await userToken(t.app, a.userId);
    const b = new TestBrowser(t);
    const other = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    await other.signIn(a.email, PASSWORD);
    await b.get("/account/password");
    const cookieBefore = [...b.cookies.values()].join();
    const done = await b.post("/account/password", {
      current_password: PASSWORD,
      password: "a brand new passphrase",
      password_confirm: "a brand new passphrase",
    });
    expect(done.status).toBe(303);
    expect(done.location).toBe("/account/security");
    expect([...b.cookies.values()].join()).not.toBe(cookieBefore);
    const after = await b.follow(done);
    expect(after.status).toBe(200);
    expect(after.html).toContain("Password changed.");
    expect((await b.get("/account/sessions")).status).toBe(200);

    // The other browser is sent to sign in; the CLI's token no longer works.
    const kicked = await other.get("/account/sessions");
    expect(kicked.status).toBe(303);
    expect(kicked.location).toBe("/signin");
    expect((await t.request("GET", "/v1/me", { key: tok.secret })).body.code).toBe("user_token_invalid");
    const open = await t.app.db
      .selectFrom("web_sessions")
      .select("id")
      .where("user_id", "=", a.userId)
      .where("revoked_at", "is", null)
      .execute();
    expect(open).toHaveLength(1);

    await smtp.waitFor(a.email, /password was changed/);
    const audited = await t.app.db
      .selectFrom("audit_events")
      .select(["action", "org_id", "detail"])
      .where("user_id", "=", a.userId)
      .where("action", "like", "account.password_%")
      .execute();
    expect(audited).toHaveLength(1);
    expect(audited[0]!.action).toBe("account.password_changed");
    expect(audited[0]!.org_id).toBeNull();
    expect(JSON.parse(audited[0]!.detail!)).toEqual({ tokens_revoked: 1, sessions_ended: 1 });
    // The old password no longer signs in; the new one does.
    const old = new TestBrowser(t);
    await old.get("/signin");
    expect((await old.post("/signin", { email: a.email, password: PASSWORD })).status).toBe(401);
    expect((await new TestBrowser(t).signIn(a.email, "a brand new passphrase")).status).toBe(200);
  });

  test("a reset through the mailed link ends every dashboard session of the person", async () => {
    const a = await tenant(t.app, "Reset Org");
    const b = new TestBrowser(t);
    const other = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    await other.signIn(a.email, PASSWORD);
    const guest = new TestBrowser(t);
    await guest.get("/reset");
    await guest.post("/reset", { email: a.email });
    const mail = await smtp.waitFor(a.email, /Reset your svc password/);
    const path = /http:\/\/localhost:8080(\/reset\/[0-9A-Za-z]+)/.exec(mail.text)![1]!;
    await guest.get(path);
    expect((await guest.post(path, { password: "reset passphrase here" })).status).toBe(303);
    for (const browser of [b, other]) {
      const gone = await browser.get("/account/sessions");
      expect(gone.status).toBe(303);
      expect(gone.location).toBe("/signin");
    }
    const open = await t.app.db
      .selectFrom("web_sessions")
      .select("id")
      .where("user_id", "=", a.userId)
      .where("revoked_at", "is", null)
      .execute();
    expect(open).toHaveLength(0);
    const audited = await t.app.db
      .selectFrom("audit_events")
      .select("action")
      .where("user_id", "=", a.userId)
      .where("action", "=", "account.password_reset")
      .execute();
    expect(audited).toHaveLength(1);
  });
});
