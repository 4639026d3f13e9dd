// Share links and the monthly email: a link is made by admins and owners only, shown once (only its hash is
// stored), opens signed out as a noindex page, and stops working when changed, withdrawn, expired or the org is
// suspended; report.share and report.unshare are audited. Recipients: at most 20, each once. The monthly email
// through a real SMTP receiver: sent on the 1st of the month in the brand's zone with a live share link and RFC 8058
// one-click unsubscribe, not sent twice on the 2nd (clock moved), not in the second week, and not for test mode.
// Both databases.
import { afterAll, afterEach, beforeAll, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { sha256hex } from "../../../src/crypto/hash.ts";
import { mailReports } from "../../../src/domain/reports/mail.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { deliverDueMail } from "../../../src/mail/outbox.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { key, type Tenant, tenant } from "../../helpers/factories.ts";
import { seedPublished } from "../../helpers/published.ts";
import { schemaErrors } from "../../helpers/schema.ts";
import { type ReceivedMail, type SmtpReceiver, smtpReceiver } from "../../helpers/smtp.ts";

setDefaultTimeout(60_000);

const TZ = "Europe/Berlin";
const headerOf = (m: ReceivedMail, name: string) => {
  const head = m.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : null;
};

describeEachDialect("report share links and monthly email", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let smtp: SmtpReceiver;
  const clock = new FakeClock();
  beforeAll(async () => {
    smtp = await smtpReceiver();
  });
  afterAll(async () => {
    await smtp.close();
  });
  beforeEach(async () => {
    clock.set("2026-04-10T12:00:00Z");
    t = await testApp(dialect, { clock, env: smtp.env });
    a = await tenant(t.app);
    expect(
      (await t.request("POST", `/v1/brands/${a.brandId}`, { key: a.testKey, body: { timezone: TZ } })).status,
    ).toBe(200);
  });
  afterEach(async () => {
    await t.close();
  });

  const page = (path: string) => t.http.handle(new Request(`http://localhost${path}`));

  test("a share link is shown once, opens signed out as a noindex page, and stops when withdrawn", async () => {
    await seedPublished(t.app, { orgId: a.orgId, brandId: a.brandId, livemode: false }, [
      {
        publishedAt: Date.parse("2026-03-05T10:00:00Z"),
        provider: "bluesky",
        text: "<script>alert(1)</script> Spring launch",
        likes: 40,
        reposts: 4,
        replies: 2,
        quotes: 1,
        views: null,
      },
    ]);
    const r = await t.request("POST", "/v1/reports/share_links", {
      key: a.testKey,
      body: { brand: a.brandSlug, month: "2026-03" },
    });
    expect(r.status).toBe(201);
    expect(schemaErrors("ReportShareLink", r.body)).toBeNull();
    expect(r.body.url).toMatch(/^http:\/\/localhost:8080\/shared\/reports\/rpt_[0-9A-Za-z]{40}$/);
    expect(r.body.expires_at).toBe(new Date(clock.now() + 30 * 86400_000).toISOString());
    const token = r.body.url.split("/").pop();
    expect(r.body.secret).toBe(token);
    // Only the hash is stored; the list never shows the token.
    const row = await t.app.db.selectFrom("report_share_links").selectAll().executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256hex(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const list = await t.request("GET", `/v1/reports/share_links?brand=${a.brandId}`, { key: a.testKey });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].url).toBeUndefined();
    expect(JSON.stringify(list.body)).not.toContain(token);

    const open = await page(`/shared/reports/${token}`);
    expect(open.status).toBe(200);
    expect(open.headers.get("x-robots-tag")).toContain("noindex");
    expect(open.headers.get("referrer-policy")).toBe("no-referrer");
    expect(open.headers.get("set-cookie")).toBeNull();
    const html = await open.text();
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).toContain("March 2026");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; Spring launch");
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain("<svg");

    // Changed by one character, or not a token at all: refused, nothing shown.
    const last = token.slice(-1) === "a" ? "b" : "a";
    for (const bad of [`${token.slice(0, -1)}${last}`, "rpt_short", "x"]) {
      const p = await page(`/shared/reports/${bad}`);
      expect(p.status).toBe(404);
      expect(await p.text()).toContain("This report link does not work");
    }

    const gone = await t.request("DELETE", `/v1/reports/share_links/${r.body.id}`, { key: a.testKey });
    expect(gone.status).toBe(200);
    expect(gone.body.revoked_at).toBe(new Date(clock.now()).toISOString());
    expect((await page(`/shared/reports/${token}`)).status).toBe(404);
    const audit = await t.request("GET", "/v1/audit_events", { key: a.testKey });
    const actions = audit.body.data.map((e: { action: string; target: string }) => [e.action, e.target]);
    expect(actions).toContainEqual(["report.share", r.body.id]);
    expect(actions).toContainEqual(["report.unshare", r.body.id]);
  });

  test("under an Idempotency-Key the stored answer holds no token in clear, and a retry shows the same link", async () => {
    const send = () =>
      t.request("POST", "/v1/reports/share_links", {
        key: a.testKey,
        body: { brand: a.brandId, month: "2026-03" },
        headers: { "Idempotency-Key": "share-once" },
      });
    const first = await send();
    expect(first.status).toBe(201);
    const again = await send();
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect([again.body.id, again.body.url]).toEqual([first.body.id, first.body.url]);
    const stored = await t.app.db.selectFrom("idempotency_keys").select("response_body").execute();
    expect(stored.length).toBeGreaterThan(0);
    for (const row of stored) expect(row.response_body ?? "").not.toContain(first.body.secret);
    expect(await t.app.db.selectFrom("report_share_links").select("id").execute()).toHaveLength(1);
  });

  test("a link expires after 30 days and stops while the org is suspended; only admins and owners make them", async () => {
    const r = await t.request("POST", "/v1/reports/share_links", {
      key: a.liveKey,
      body: { brand: a.brandId },
    });
    expect(r.status).toBe(201);
    // Default month: the last whole month in Berlin.
    expect(r.body.month).toBe("2026-03");
    expect(r.body.livemode).toBe(true);
    const path = new URL(r.body.url).pathname;
    await t.app.db.updateTable("orgs").set({ status: "suspended" }).where("id", "=", a.orgId).execute();
    expect((await page(path)).status).toBe(404);
    await t.app.db.updateTable("orgs").set({ status: "active" }).where("id", "=", a.orgId).execute();
    clock.advance(30 * 86400_000 - 1000);
    expect((await page(path)).status).toBe(200);
    clock.advance(1000);
    expect((await page(path)).status).toBe(404);

    // A key without brands:write, and an editor, may not share.
    const reader = await key(t.app, a.orgId, { name: "reader", scopes: ["brands:read", "posts:read"] });
    const refused = await t.request("POST", "/v1/reports/share_links", {
      key: reader,
      body: { brand: a.brandId },
    });
    expect([refused.status, refused.body.code]).toEqual([403, "scope_missing"]);
    const bad = await t.request("POST", "/v1/reports/share_links", {
      key: a.testKey,
      body: { brand: a.brandId, month: "2026-3" },
    });
    expect([bad.status, bad.body.code]).toEqual([400, "month_invalid"]);
    // Another org and the other mode cannot see or withdraw it.
    const b = await tenant(t.app);
    const foreign = await t.request("DELETE", `/v1/reports/share_links/${r.body.id}`, { key: b.liveKey });
    expect(foreign.status).toBe(404);
    const otherMode = await t.request("DELETE", `/v1/reports/share_links/${r.body.id}`, { key: a.testKey });
    expect(otherMode.status).toBe(404);
    expect((await t.request("GET", "/v1/reports/share_links", { key: a.testKey })).body.data).toHaveLength(0);
    expect(await t.app.db.selectFrom("report_share_links").select("id").execute()).toHaveLength(1);
  });

  test("recipients: at most 20 per brand, each address once; other orgs see none", async () => {
    const add = (email: string, k = a.testKey) =>
      t.request("POST", `/v1/brands/${a.brandId}/report_recipients`, { key: k, body: { email } });
    const first = await add("  Client@Example.com ");
    expect(first.status).toBe(201);
    expect(schemaErrors("ReportRecipient", first.body)).toBeNull();
    expect(first.body.email).toBe("client@example.com");
    const again = await add("client@example.com");
    expect([again.status, again.body.code]).toEqual([409, "recipient_exists"]);
    for (let i = 2; i <= 20; i++) expect((await add(`r${i}@example.com`)).status).toBe(201);
    const over = await add("r21@example.com");
    expect([over.status, over.body.code]).toEqual([422, "recipients_limit"]);
    const bad = await add("not an address");
    expect([bad.status, bad.body.code]).toEqual([422, "email_invalid"]);
    const list = await t.request("GET", `/v1/brands/${a.brandId}/report_recipients`, { key: a.testKey });
    expect(list.body.data).toHaveLength(20);
    const b = await tenant(t.app);
    expect((await add("x@example.com", b.testKey)).status).toBe(404);
    const del = await t.request("DELETE", `/v1/brands/${a.brandId}/report_recipients/r20%40example.com`, {
      key: a.testKey,
    });
    expect(del.status).toBe(200);
    expect((await add("r21@example.com")).status).toBe(201);
  });

  test("the monthly email: on the 1st in the brand's zone, once per month, live mode, one-click unsubscribe", async () => {
    for (const email of ["one@example.com", "two@example.com"])
      expect(
        (
          await t.request("POST", `/v1/brands/${a.brandId}/report_recipients`, {
            key: a.liveKey,
            body: { email },
          })
        ).status,
      ).toBe(201);
    const live = (at: string, likes: number) => ({
      publishedAt: Date.parse(at),
      provider: "mastodon",
      text: "Live post",
      likes,
      reposts: 1,
      replies: 0,
      quotes: 0,
      views: null,
    });
    await seedPublished(t.app, { orgId: a.orgId, brandId: a.brandId, livemode: true }, [
      live("2026-04-03T10:00:00Z", 10),
      live("2026-04-20T10:00:00Z", 20),
      live("2026-05-06T10:00:00Z", 1),
    ]);
    // Test-mode figures never reach the email.
    await seedPublished(t.app, { orgId: a.orgId, brandId: a.brandId, livemode: false }, [
      live("2026-04-04T10:00:00Z", 999),
    ]);

    // 30 April 23:30 in Berlin: still April there, and past its first week.
    clock.set("2026-04-30T21:30:00Z");
    expect(await mailReports(t.app)).toBe(0);
    // 1 May 00:30 in Berlin (22:30Z the day before): the first day of the month there.
    clock.set("2026-04-30T22:30:00Z");
    expect(await mailReports(t.app)).toBe(2);
    await deliverDueMail(t.app);
    const one = await smtp.waitFor("one@example.com", /April 2026/);
    await smtp.waitFor("two@example.com", /April 2026/);
    expect(one.subject).toContain(`your report for April 2026`);
    // Exactly the live month's figures: the test-mode post (999 likes) would make them 3 and 1,032. (The raw
    // message also holds random IDs and tokens, so "999" itself may appear anywhere in it.)
    expect(one.text).toMatch(/Posts published: 2\.\s/);
    expect(one.text).toMatch(/Engagement \(likes, reposts, replies, quotes\): 32\.\s/);
    expect(headerOf(one, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    const oneClick = /^<([^>]+)>$/.exec(headerOf(one, "List-Unsubscribe")!)![1]!;
    expect(oneClick).toStartWith("http://localhost:8080/v1/reports/unsubscribe/");
    // The link in the email opens the live month, signed out.
    const link = /http:\/\/localhost:8080(\/shared\/reports\/rpt_[0-9A-Za-z]{40})/.exec(one.text)![1]!;
    const shared = await page(link);
    expect(shared.status).toBe(200);
    const html = await shared.text();
    expect(html).toContain("April 2026");
    const links = await t.app.db.selectFrom("report_share_links").selectAll().execute();
    expect(links.map((l) => [l.month, l.livemode, l.created_by_task])).toEqual([
      ["2026-04", 1, "reports.mail"],
    ]);

    // The same day again, and the 2nd: nothing more.
    expect(await mailReports(t.app)).toBe(0);
    clock.set("2026-05-02T08:00:00Z");
    expect(await mailReports(t.app)).toBe(0);
    await deliverDueMail(t.app);
    expect(smtp.mails.filter((m) => m.to.includes("one@example.com")).length).toBe(1);

    // One click (RFC 8058: a POST with no cookie and no credential) removes the address.
    const click = () =>
      t.http.handle(
        new Request(`http://localhost${new URL(oneClick).pathname}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "List-Unsubscribe=One-Click",
        }),
      );
    const c = await click();
    expect(c.status).toBe(200);
    expect(await c.json()).toMatchObject({ email: "one@example.com", unsubscribed: true });
    expect((await click()).status).toBe(404);
    const tampered = oneClick.replace(/.$/, (ch) => (ch === "A" ? "B" : "A"));
    const tc = await t.http.handle(
      new Request(`http://localhost${new URL(tampered).pathname}`, { method: "POST" }),
    );
    expect(tc.status).toBe(404);
    const left = await t.request("GET", `/v1/brands/${a.brandId}/report_recipients`, { key: a.liveKey });
    expect(left.body.data.map((r: { email: string }) => r.email)).toEqual(["two@example.com"]);

    // June's first week: May's report to the address that is left.
    clock.set("2026-06-03T08:00:00Z");
    expect(await mailReports(t.app)).toBe(1);
  });
});
