// Password reset by emailed link (30 minutes, once) and password change (needs the current one). Either way the
// person's CLI tokens stop working and the account notice is mailed. Mail goes through a real SMTP receiver.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  changePassword,
  checkResetLink,
  requestPasswordReset,
  resetPasswordWithLink,
} from "../../src/domain/identity/passwords/service.ts";
import { FakeClock } from "../../src/lib/clock.ts";
import { ServiceError } from "../../src/lib/errors.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { dialects } from "../helpers/db.ts";
import { type Tenant, tenant, userToken } from "../helpers/factories.ts";
import { personActor } from "../helpers/person.ts";
import { type SmtpReceiver, smtpReceiver } from "../helpers/smtp.ts";

async function refused(p: Promise<unknown> | (() => unknown)): Promise<ServiceError> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    if (e instanceof ServiceError) return e;
    throw e;
  }
  throw new Error("expected a ServiceError");
}

const linkIn = (text: string) => /http:\/\/localhost:8080\/reset\/([0-9A-Za-z]+)/.exec(text)?.[1];

for (const dialect of dialects) {
  describe(`password reset and change (${dialect})`, () => {
    let t: TestApp;
    let a: Tenant;
    let smtp: SmtpReceiver;
    const clock = new FakeClock();
    beforeAll(async () => {
      smtp = await smtpReceiver();
      t = await testApp(dialect, { clock, env: smtp.env });
      a = await tenant(t.app, "Password Org");
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
      ).password_hash!;

    test("a reset link by mail sets a new password once, revokes CLI tokens and sends the notice", async () => {
      const tok = await userToken(t.app, a.userId);
      const answer = await requestPasswordReset(t.app, { email: a.email.toUpperCase() });
      const mail = await smtp.waitFor(a.email, /Reset your svc password/);
      const token = linkIn(mail.text)!;
      expect(token).toBeDefined();
      // Only the hash is stored.
      const rows = await t.app.db.selectFrom("password_resets").selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(token);

      expect(await checkResetLink(t.app, token)).toMatchObject({ email: a.email });
      const weak = await refused(resetPasswordWithLink(t.app, { token, password: "short" }));
      expect([weak.status, weak.code]).toEqual([422, "password_invalid"]);

      const done = await resetPasswordWithLink(t.app, { token, password: "a brand new passphrase" });
      expect(done.tokens_revoked).toBe(1);
      expect(await Bun.password.verify("a brand new passphrase", await hashOf(a.userId))).toBe(true);
      expect((await t.request("GET", "/v1/me", { key: tok.secret })).body.code).toBe("user_token_invalid");
      await smtp.waitFor(a.email, /password was reset/);

      // Replayed: the link is spent.
      const replay = await refused(resetPasswordWithLink(t.app, { token, password: "another passphrase" }));
      expect([replay.status, replay.code]).toEqual([404, "reset_link_invalid"]);
      expect((await refused(checkResetLink(t.app, token))).code).toBe("reset_link_invalid");
      expect(answer.message).toContain("If an account has this address");
    });

    test("an unknown address gets the same answer and no mail", async () => {
      const before = smtp.mails.length;
      const known = await requestPasswordReset(t.app, { email: a.email });
      const unknown = await requestPasswordReset(t.app, { email: "nobody@example.com" });
      expect(Object.keys(unknown)).toEqual(Object.keys(known));
      expect(unknown.message).toBe(known.message);
      // Wait for this request's own mail (waitFor alone would find the first test's), so that its link is written
      // before the next test counts links.
      for (let i = 0; i < 250 && smtp.mails.length === before; i++) await Bun.sleep(20);
      expect(smtp.mails.length).toBeGreaterThan(before);
      await Bun.sleep(100);
      expect(smtp.mails.slice(before).every((m) => m.to.includes(a.email))).toBe(true);
    });

    test("the answer comes before anything that depends on the address happens: known and unknown take the same time", async () => {
      clock.advance(31 * 60_000);
      const count = async () =>
        Number(
          (
            await t.app.db
              .selectFrom("password_resets")
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .where("user_id", "=", a.userId)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await count();
      await requestPasswordReset(t.app, { email: a.email });
      // Answered, and the person's link is not made yet: no lookup, no count, no write preceded the answer.
      expect(await count()).toBe(before);
      for (let i = 0; i < 100 && (await count()) === before; i++) await Bun.sleep(10);
      expect(await count()).toBe(before + 1);
    });

    test("a link older than 30 minutes is invalid; garbage tokens too", async () => {
      const sent = smtp.mails.length;
      await requestPasswordReset(t.app, { email: a.email });
      for (let i = 0; i < 100 && smtp.mails.length === sent; i++) await Bun.sleep(20);
      const token = linkIn(smtp.mails.at(-1)!.text)!;
      clock.advance(30 * 60_000);
      expect(
        (await refused(resetPasswordWithLink(t.app, { token, password: "late passphrase!" }))).code,
      ).toBe("reset_link_invalid");
      for (const bad of ["", "<script>", "x".repeat(500)])
        expect((await refused(checkResetLink(t.app, bad))).code).toBe("reset_link_invalid");
      expect((await refused(requestPasswordReset(t.app, { email: "not an address" }))).code).toBe(
        "email_invalid",
      );
    });

    test("at most three links per half hour: more requests get the same answer and no mail", async () => {
      clock.advance(31 * 60_000);
      const before = smtp.mails.length;
      for (let i = 0; i < 5; i++) await requestPasswordReset(t.app, { email: a.email });
      await Bun.sleep(300);
      expect(smtp.mails.length - before).toBe(3);
    });

    test("change needs the current password; it revokes tokens and mails the notice", async () => {
      const owner = await personActor(t.app, a.userId, a.orgId);
      const tok = await userToken(t.app, a.userId);
      const before = await hashOf(a.userId);
      const wrong = await refused(
        changePassword(t.app, owner, { current_password: "not it", password: "changed passphrase" }),
      );
      expect([wrong.status, wrong.code]).toEqual([422, "password_incorrect"]);
      expect(await hashOf(a.userId)).toBe(before);
      expect((await t.request("GET", "/v1/me", { key: tok.secret })).status).toBe(200);

      const r = await changePassword(t.app, owner, {
        current_password: "a brand new passphrase",
        password: "changed passphrase",
      });
      expect(r.tokens_revoked).toBe(1);
      expect((await t.request("GET", "/v1/me", { key: tok.secret })).body.code).toBe("user_token_invalid");
      await smtp.waitFor(a.email, /password was changed/);
    });
  });

  describe(`password reset without SMTP (${dialect})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await testApp(dialect);
      await tenant(t.app, "No SMTP Org");
    });
    afterAll(() => t.close());

    test("asking for a link answers 503 mail_unavailable and stores nothing", async () => {
      const e = await refused(requestPasswordReset(t.app, { email: "x@example.com" }));
      expect([e.status, e.code]).toEqual([503, "mail_unavailable"]);
      expect(await t.app.db.selectFrom("password_resets").selectAll().execute()).toEqual([]);
    });
  });
}
