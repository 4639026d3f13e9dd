// Pages that would promise an email say so only when this install sends email (SVC_SMTP_HOST). Without SMTP, the
// reset page, the password page and an invitation's page for a new person say that email is off and what to do
// instead, in place of a form that could only be refused (503 mail_unavailable).
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { tenant } from "../../helpers/factories.ts";
import { type SmtpReceiver, smtpReceiver } from "../../helpers/smtp.ts";

const PASSWORD = "correct horse battery staple";

describeEachDialect("pages that promise email", (dialect) => {
  let off: TestApp;
  let on: TestApp;
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await smtpReceiver();
    off = await webApp(dialect);
    on = await webApp(dialect, { env: smtp.env });
  });
  afterAll(async () => {
    await off.close();
    await on.close();
    await smtp.close();
  });

  /** An invitation link for a new address, made on the Members page without sending it. */
  async function inviteLink(t: TestApp) {
    const a = await tenant(t.app, "Mail Org");
    const owner = new TestBrowser(t);
    await owner.signIn(a.email, PASSWORD);
    await owner.get("/members");
    const r = await owner.post("/members/invite", { email: "new-person@example.com", role: "editor" });
    const url = /id="invite-url">([^<]+)</.exec(r.html)?.[1]?.trim();
    expect(url).toBeDefined();
    return { a, path: new URL(url!).pathname };
  }

  test("without SMTP: the reset page says email is off and who can set a password; no form to send", async () => {
    const page = await new TestBrowser(off).get("/reset");
    expect(page.status).toBe(200);
    expect(page.html).toContain('id="reset-mail-off"');
    expect(page.html).toContain("<code>svc admin users reset-password</code>");
    expect(page.html).toMatch(
      /<form method="post" action="\/reset" class="card" id="reset-request-form" hidden/,
    );
  });

  test("with SMTP: the reset page offers the form and no notice", async () => {
    const page = await new TestBrowser(on).get("/reset");
    expect(page.html).not.toContain('id="reset-mail-off"');
    expect(page.html).toMatch(/<form method="post" action="\/reset" class="card" id="reset-request-form">/);
  });

  test("the password page promises the notice only when email is on", async () => {
    for (const [t, mail] of [
      [off, false],
      [on, true],
    ] as const) {
      const a = await tenant(t.app, "Password Mail Org");
      const b = new TestBrowser(t);
      await b.signIn(a.email, PASSWORD);
      const page = await b.get("/account/password");
      expect({ mail, promises: page.html.includes("We email you that it changed.") }).toEqual({
        mail,
        promises: mail,
      });
      expect({ mail, says: page.html.includes("Email is off on this server") }).toEqual({
        mail,
        says: !mail,
      });
    }
  });

  test("an invitation's page for a new person: the emailed link when email is on, the way round when off", async () => {
    const withoutMail = await inviteLink(off);
    const page = await new TestBrowser(off).get(withoutMail.path);
    expect(page.status).toBe(200);
    expect(page.html).toContain('id="invite-mail-off"');
    expect(page.html).toContain("<code>svc admin members add</code>");
    expect(page.html).toMatch(/id="invite-prove-form" hidden/);

    const withMail = await inviteLink(on);
    const mailed = await new TestBrowser(on).get(withMail.path);
    expect(mailed.html).not.toContain('id="invite-mail-off"');
    expect(mailed.html).toContain("We email new-person@example.com a link");
    expect(mailed.html).not.toMatch(/id="invite-prove-form" hidden/);
  });
});
