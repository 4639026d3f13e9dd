// Test sends: to 1 to 5 addresses (to_invalid otherwise), through a mail account of the brand. The
// sandbox's go out by the install's SMTP and are caught by a real SMTP receiver; Brevo's are transactional emails
// at its stand-in. Nothing stores the addresses.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { type SmtpReceiver, smtpReceiver } from "../../helpers/smtp.ts";
import { type BrevoStandIn, startBrevo } from "../../stand-ins/brevo.ts";
import { expectClean } from "../../stand-ins/server.ts";

describeEachDialect("newsletter test sends", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let smtp: SmtpReceiver;
  let brevo: BrevoStandIn;
  beforeAll(async () => {
    smtp = await smtpReceiver();
    brevo = await startBrevo();
    t = await testApp(dialect, {
      env: { ...smtp.env, SVC_ALLOW_PRIVATE_NETWORKS: "true", SVC_PROVIDER_ORIGINS: `brevo=${brevo.url}` },
    });
    a = await tenant(t.app);
    await post(`/v1/brands/${a.brandId}/email_theme`, { postal_address: "Acme Ltd, 1 Main Street" });
  });
  afterAll(async () => {
    brevo.stop();
    await t.close();
    await smtp.close();
  });

  function post(path: string, body?: unknown, k = a.testKey) {
    return t.request("POST", path, { key: k, body: body ?? {} });
  }

  test("sandbox: the rendered issue, marked [Test], reaches each address by SMTP", async () => {
    const m = await post("/v1/mail_accounts", {
      brand: a.brandId,
      provider: "sandbox",
      from_name: "Acme",
      from_email: "news@acme.example",
      default_audiences: ["everyone"],
    });
    const d = await post("/v1/newsletters", {
      brand: a.brandId,
      subject: "Spring issue",
      body: "# Spring\n\nHello <script>alert(1)</script>",
      deliveries: [{ mail_account: m.body.id }],
    });
    const r = await post(`/v1/newsletters/${d.body.id}/test`, {
      mail_account: m.body.id,
      to: ["ann@example.com", "bob@example.com"],
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      object: "newsletter_test",
      newsletter: d.body.id,
      mail_account: m.body.id,
      sent: 2,
    });
    const mail = await smtp.waitFor("ann@example.com", /\[Test\] Spring issue/);
    expect(mail.text).toContain("Acme Ltd, 1 Main Street");
    // The HTML part shows the markup as text; the plain-text part carries it as the words typed.
    const html = mail.text.slice(mail.text.indexOf("Content-Type: text/html"));
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toContain("<script");
    await smtp.waitFor("bob@example.com", /\[Test\] Spring issue/);

    for (const to of [
      [],
      ["a@x.example", "b@x.example", "c@x.example", "d@x.example", "e@x.example", "f@x.example"],
      ["not an address"],
    ]) {
      const bad = await post(`/v1/newsletters/${d.body.id}/test`, { mail_account: m.body.id, to });
      expect([bad.status, bad.body.code, bad.body.param]).toEqual([422, "to_invalid", "to"]);
    }
    const unknown = await post(`/v1/newsletters/${d.body.id}/test`, {
      mail_account: "mailacct_nope",
      to: ["a@x.example"],
    });
    expect([unknown.status, unknown.body.code]).toEqual([422, "mail_account_unknown"]);
  });

  test("Brevo: a transactional email to the test addresses", async () => {
    const acct = brevo.addAccount({ email: "client@shop.example", lists: ["All"] });
    const m = await post(
      "/v1/mail_accounts",
      {
        brand: a.brandId,
        provider: "brevo",
        from_name: "Shop",
        from_email: "news@shop.example",
        default_audiences: [String(acct.lists[0]!.id)],
        fields: { api_key: acct.apiKey },
      },
      a.liveKey,
    );
    const d = await post(
      "/v1/newsletters",
      { brand: a.brandId, subject: "Live issue", body: "Hi", deliveries: [{ mail_account: m.body.id }] },
      a.liveKey,
    );
    const r = await post(
      `/v1/newsletters/${d.body.id}/test`,
      { mail_account: m.body.id, to: ["qa@shop.example"] },
      a.liveKey,
    );
    expect(r.status).toBe(200);
    expect(acct.transactional).toHaveLength(1);
    expect(acct.transactional[0]).toMatchObject({ to: ["qa@shop.example"], subject: "[Test] Live issue" });
    expect(acct.transactional[0]!.html).toContain("{{ unsubscribe }}");
    expectClean(brevo);
  });
});
