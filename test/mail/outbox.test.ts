// The mailer and the account-notice outbox against a real SMTP receiver (smtp-server on 127.0.0.1, a free port):
// notices arrive escaped, a transient refusal is retried on schedule, a permanent one drops at once, and a server
// without SMTP queues nothing and refuses what must mail with mail_unavailable.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sendAccountNotice } from "../../src/domain/notifications/account.ts";
import { FakeClock } from "../../src/lib/clock.ts";
import { mailerOf, requireMailer } from "../../src/mail/mailer.ts";
import { deliverDueMail, RETRY_AFTER_MS } from "../../src/mail/outbox.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { dialects } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { type SmtpReceiver, smtpReceiver } from "../helpers/smtp.ts";

for (const dialect of dialects) {
  describe(`mail outbox (${dialect})`, () => {
    let t: TestApp;
    let a: Tenant;
    let smtp: SmtpReceiver;
    const clock = new FakeClock();
    beforeAll(async () => {
      smtp = await smtpReceiver();
      t = await testApp(dialect, { clock, env: smtp.env });
      a = await tenant(t.app, "Mail Org");
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    const outbox = () => t.app.db.selectFrom("mail_outbox").selectAll().orderBy("id").execute();

    test("an account notice is sent at once, from SVC_SMTP_FROM, with markup escaped in the HTML part", async () => {
      await sendAccountNotice(t.app, a.userId, "account.passkey_added", {
        name: '<img src=x onerror="alert(1)">',
      });
      const mail = await smtp.waitFor(a.email, /A passkey was added/);
      expect(mail.from).toBe("svc@example.test");
      // The HTML part carries the name as text; only the plain-text part shows it as typed.
      expect(mail.text).toContain(
        "<p>A passkey named &quot;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&quot;",
      );
      expect(mail.text).not.toContain('<p>A passkey named "<img');
      const rows = await outbox();
      expect(rows.at(-1)).toMatchObject({ kind: "account.passkey_added", status: "sent", attempts: 1 });
    });

    test("every account notice type has its own subject", async () => {
      const subjects: Record<string, RegExp> = {
        "account.password_changed": /password was changed/,
        "account.password_reset": /password was reset/,
        "account.mfa_disabled": /Two-factor sign-in was turned off/,
        "account.cli_signed_in": /A CLI signed in as you/,
      };
      for (const [type, subject] of Object.entries(subjects)) {
        await sendAccountNotice(t.app, a.userId, type as "account.password_changed", { ip: "203.0.113.9" });
        const m = await smtp.waitFor(a.email, subject);
        expect(m.text).toContain("203.0.113.9");
      }
    });

    test("a transient refusal (451) is retried after 1 minute; a permanent one (550) drops at once", async () => {
      smtp.refuseNext(1, 451);
      await sendAccountNotice(t.app, a.userId, "account.mfa_disabled");
      let row = (await outbox()).at(-1)!;
      expect(row).toMatchObject({ status: "pending", attempts: 1 });
      expect(row.next_attempt_at).toBe(clock.now() + RETRY_AFTER_MS[0]!);
      expect(row.last_error).toContain("451");
      expect(await deliverDueMail(t.app)).toBe(0); // not due yet
      clock.advance(RETRY_AFTER_MS[0]!);
      expect(await deliverDueMail(t.app)).toBe(1);
      row = (await outbox()).at(-1)!;
      expect(row).toMatchObject({ status: "sent", attempts: 2 });

      smtp.refuseNext(1, 550);
      await sendAccountNotice(t.app, a.userId, "account.mfa_disabled");
      row = (await outbox()).at(-1)!;
      expect(row).toMatchObject({ status: "failed", attempts: 1, next_attempt_at: null });
    });

    test("a notice the server keeps refusing is dropped after the last retry (1, 5, 30 min, 2, 6, 12 h)", async () => {
      smtp.refuseNext(7, 421);
      await sendAccountNotice(t.app, a.userId, "account.password_changed");
      for (const wait of RETRY_AFTER_MS) {
        clock.advance(wait);
        await deliverDueMail(t.app);
      }
      const row = (await outbox()).at(-1)!;
      expect(row).toMatchObject({ status: "failed", attempts: 7 });
      smtp.refuseNext(0, 0);
    });
  });

  describe(`mail without SMTP (${dialect})`, () => {
    let t: TestApp;
    let a: Tenant;
    beforeAll(async () => {
      t = await testApp(dialect);
      a = await tenant(t.app, "No Mail Org");
    });
    afterAll(() => t.close());

    test("no mailer: nothing is queued, and requireMailer answers 503 mail_unavailable", async () => {
      expect(mailerOf(t.app)).toBeNull();
      await sendAccountNotice(t.app, a.userId, "account.password_changed");
      expect(await t.app.db.selectFrom("mail_outbox").selectAll().execute()).toEqual([]);
      try {
        requireMailer(t.app);
        throw new Error("expected mail_unavailable");
      } catch (e) {
        expect((e as { status: number; code: string }).status).toBe(503);
        expect((e as { code: string }).code).toBe("mail_unavailable");
      }
    });
  });

  describe(`STARTTLS is required by default (${dialect})`, () => {
    let t: TestApp;
    let a: Tenant;
    let smtp: SmtpReceiver;
    beforeAll(async () => {
      smtp = await smtpReceiver();
      // The default SVC_SMTP_TLS=starttls against a server that offers no STARTTLS: no plain-text fallback.
      const { SVC_SMTP_TLS: _, ...env } = smtp.env;
      t = await testApp(dialect, { env });
      a = await tenant(t.app, "TLS Org");
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    test("the notice is not sent in the clear", async () => {
      await sendAccountNotice(t.app, a.userId, "account.password_changed");
      const row = (await t.app.db.selectFrom("mail_outbox").selectAll().execute())[0]!;
      // The server answers STARTTLS with a 5xx: a permanent refusal, so the notice is dropped, never sent plain.
      expect(row.status).toBe("failed");
      expect(row.last_error?.toLowerCase()).toContain("starttls");
      expect(smtp.mails).toEqual([]);
    });
  });
}
