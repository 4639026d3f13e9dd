// Two-factor in the dashboard, in process: the authenticator app (enrol with the QR code's secret, sign in with
// a code, a code used once, recovery codes), sudo mode (reauthentication_required after 10 minutes), and an
// org's require_mfa (enrol first: mfa_required_first).
import { afterAll, beforeAll, expect, test } from "bun:test";
import * as OTPAuth from "otpauth";
import { adminActor } from "../../../src/domain/actor.ts";
import { updateOrg } from "../../../src/domain/orgs/service.ts";
import { scopesOfRole } from "../../../src/domain/scopes.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { tenant, userToken } from "../../helpers/factories.ts";
import { type SmtpReceiver, smtpReceiver } from "../../helpers/smtp.ts";

const PASSWORD = "correct horse battery staple";
const codeFor = (secret: string, at: number) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: at, digits: 6, period: 30 });

describeEachDialect("dashboard two-factor", (dialect) => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  const clock = new FakeClock(Date.parse("2026-03-02T09:00:00Z"));
  beforeAll(async () => {
    smtp = await smtpReceiver();
    t = await webApp(dialect, { clock, env: smtp.env });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  /** Signs in and turns the authenticator app on; returns the secret and the recovery codes. */
  async function enrol(b: TestBrowser) {
    await b.post("/account/security/totp/start", {});
    const page = await b.get("/account/security");
    const secret = /id="totp-secret">([A-Z2-7 ]+)</.exec(page.html)![1]!.replaceAll(" ", "");
    expect(page.html).toContain('src="data:image/svg+xml;base64,');
    const wrong = await b.post("/account/security/totp/confirm", { code: "000000" });
    expect(wrong.status).toBe(422);
    expect(wrong.html).toContain("That code is not right.");
    const done = await b.post("/account/security/totp/confirm", { code: codeFor(secret, clock.now()) });
    expect(done.status).toBe(200);
    const codes = [...done.html.matchAll(/<li>([a-z2-9]{5}-[a-z2-9]{5})<\/li>/g)].map((m) => m[1]!);
    expect(codes).toHaveLength(10);
    return { secret, codes };
  }

  test("enrol the authenticator app, then sign in with a code; a code works once; recovery codes work once", async () => {
    const a = await tenant(t.app, "Totp Org");
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const token = (await userToken(t.app, a.userId)).secret;
    const mfaOf = async () =>
      (await t.request("GET", "/v1/members", { key: token })).body.data.find(
        (m: { id: string }) => m.id === a.userId,
      ).mfa;
    expect(await mfaOf()).toBe(false);
    // No second factor yet: no count of codes that cannot exist, but how they come.
    const before = (await b.get("/account/security")).html;
    expect(before).toContain("Recovery codes come with a second factor");
    expect(before).not.toContain("unused recovery code");
    const { secret, codes } = await enrol(b);
    const after = (await b.get("/account/security")).html;
    expect(after).toContain("<strong>On.</strong>");
    expect(after).toContain("10 unused recovery codes.");
    expect(await mfaOf()).toBe(true);

    clock.advance(60_000);
    const c = new TestBrowser(t);
    const step = await c.signIn(a.email, PASSWORD);
    expect(step.html).toContain("Code from your authenticator app, or a recovery code");
    expect((await c.get("/home")).location).toBe("/signin/two-factor");
    const bad = await c.post("/signin/two-factor", { code: "123456" });
    expect(bad.status).toBe(401);
    expect(bad.html).toContain("That code is not right.");
    const code = codeFor(secret, clock.now());
    const ok = await c.post("/signin/two-factor", { code });
    expect(ok.location).toBe("/home");
    expect((await c.get("/home")).status).toBe(200);

    // The same code again, in another browser: refused (its time step is spent).
    const d = new TestBrowser(t);
    await d.signIn(a.email, PASSWORD);
    expect((await d.post("/signin/two-factor", { code })).status).toBe(401);
    // A recovery code, once.
    expect((await d.post("/signin/two-factor", { code: codes[0]!.toUpperCase() })).location).toBe("/home");
    const e = new TestBrowser(t);
    await e.signIn(a.email, PASSWORD);
    expect((await e.post("/signin/two-factor", { code: codes[0]! })).status).toBe(401);
    expect((await e.get("/account/security")).location).toBe("/signin/two-factor");

    // Turning it off (sudo mode) is emailed to the person, always.
    const off = await b.follow(await b.post("/account/security/totp/disable", {}));
    expect(off.html).toContain("Authenticator app turned off.");
    const mail = await smtp.waitFor(a.email, /Two-factor sign-in was turned off/);
    expect(mail.text).toContain("Two-factor sign-in was turned off for your account");
    expect(await mfaOf()).toBe(false);
    // Both changes are in the audit log, as the person's, outside any org.
    const rows = await t.app.db
      .selectFrom("audit_events")
      .select(["action", "org_id"])
      .where("user_id", "=", a.userId)
      .where("action", "like", "account.totp_%")
      .orderBy("created_at")
      .execute();
    expect(rows).toEqual([
      { action: "account.totp_enabled", org_id: null },
      { action: "account.totp_disabled", org_id: null },
    ]);
  });

  test("sudo mode: after 10 minutes changing two-factor needs the password again", async () => {
    const a = await tenant(t.app, "Sudo Org");
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    clock.advance(11 * 60_000);
    const page = await b.get("/account/security");
    expect(page.html).toContain("Confirm your password");
    expect(page.html).not.toContain('id="totp-start"');
    const refused = await b.post("/account/security/totp/start", {});
    expect(refused.status).toBe(403);
    expect(refused.html).toContain("Confirm your password to continue.");
    const wrong = await b.post("/account/confirm", { password: "nope", back: "/account/security" });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain("That password is wrong.");
    const ok = await b.follow(
      await b.post("/account/confirm", { password: PASSWORD, back: "/account/security" }),
    );
    expect(ok.html).toContain("Password confirmed.");
    expect(ok.html).toContain('id="totp-start"');
  });

  test("an org requiring two-factor sends a person without it to enrol first", async () => {
    const a = await tenant(t.app, "Strict Org");
    await updateOrg(t.app, adminActor(a.orgId, "org update", scopesOfRole("owner")), { require_mfa: true });
    const b = new TestBrowser(t);
    const r = await b.signIn(a.email, PASSWORD);
    expect(r.html).toContain("requires two-factor sign-in: set up an authenticator app or a passkey first");
    // Nothing else is reachable until then.
    const home = await b.get("/home");
    expect(home.location).toBe("/account/security");
    expect((await b.get("/api-keys")).location).toBe("/account/security");
    await enrol(b);
    expect((await b.get("/home")).status).toBe(200);
    // The factor an org requires cannot be turned off while it is the only one.
    const off = await b.post("/account/security/totp/disable", {});
    expect(off.status).toBe(409);
    expect(off.html).toContain("requires two-factor sign-in");
  });

  test("removing a passkey (shown as text) is written to the audit log as the person's", async () => {
    const a = await tenant(t.app, "Passkey Org");
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    // A stored passkey (adding one through a real authenticator is the Chromium test's part).
    await t.app.db
      .insertInto("passkeys")
      .values({
        id: `pk-${dialect}`,
        user_id: a.userId,
        name: "<b>laptop</b>",
        public_key: "AAAA",
        counter: 0,
        transports: null,
        created_at: clock.now(),
        last_used_at: null,
      })
      .execute();
    const listed = await b.get("/account/security");
    expect(listed.html).toContain("&lt;b&gt;laptop&lt;/b&gt;");
    expect(listed.html).not.toContain("<b>laptop</b>");
    const gone = await b.follow(await b.post(`/account/security/passkeys/pk-${dialect}/remove`, {}));
    expect(gone.html).toContain("Passkey removed.");
    const rows = await t.app.db
      .selectFrom("audit_events")
      .select(["action", "org_id", "detail"])
      .where("user_id", "=", a.userId)
      .where("action", "like", "account.passkey_%")
      .execute();
    expect(rows).toEqual([
      {
        action: "account.passkey_removed",
        org_id: null,
        detail: JSON.stringify({ passkey: `pk-${dialect}` }),
      },
    ]);
  });

  test("the secret to type is shown in groups of four; an abandoned enrolment can be canceled and started afresh", async () => {
    const a = await tenant(t.app, "Cancel Org");
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    await b.post("/account/security/totp/start", {});
    const page = await b.get("/account/security");
    const shown = /id="totp-secret">([^<]+)</.exec(page.html)![1]!;
    // 20 random bytes are 32 base32 letters: eight groups of four.
    expect(shown).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{4}){7}$/);
    expect(page.html).toContain('action="/account/security/totp/cancel"');

    const canceled = await b.post("/account/security/totp/cancel", {});
    expect(canceled.status).toBe(303);
    expect(canceled.location).toBe("/account/security");
    const after = await b.get("/account/security");
    expect(after.html).toContain("Setting up the authenticator app is canceled; nothing was turned on.");
    expect(after.html).not.toContain('id="totp-enrol"');
    expect(after.html).toContain('id="totp-start"');
    // The canceled secret no longer turns anything on.
    const stale = await b.post("/account/security/totp/confirm", {
      code: codeFor(shown.replaceAll(" ", ""), clock.now()),
    });
    expect(stale.status).not.toBe(200);
    // A fresh start gives a new secret.
    await b.post("/account/security/totp/start", {});
    const again = /id="totp-secret">([^<]+)</.exec((await b.get("/account/security")).html)![1]!;
    expect(again).not.toBe(shown);
  });

  test("canceling leaves an authenticator app that is on alone", async () => {
    const a = await tenant(t.app, "Keep Org");
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    await enrol(b);
    await b.post("/account/security/totp/cancel", {});
    const page = await b.get("/account/security");
    expect(page.html).toContain("<strong>On.</strong>");
  });
});
