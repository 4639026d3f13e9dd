// The newsletter and mail-account pages in process: connect a sandbox mail account and set the email theme from
// the page; list, create (errors beside the fields), preview (sandboxed iframe srcdoc, never inlined; the htmx
// fragment), save, schedule in the brand's zone, unschedule, cancel, a test send's errors, the timeline and results
// table; markup people typed shows as text; another org's issue and the other mode's look missing; a viewer reads
// but cannot change.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { member, type Tenant, tenant } from "../../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";
const MARKUP = `<script>alert(1)</script>&<b>`;
const form = (b: TestBrowser, pairs: [string, string][]) => ({
  body: new URLSearchParams([["_csrf", b.csrf], ...pairs]).toString(),
  headers: {
    "content-type": "application/x-www-form-urlencoded",
    "sec-fetch-site": "same-origin",
    origin: "http://localhost",
  },
});

describeEachDialect("dashboard newsletters", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let other: Tenant;
  let b: TestBrowser;
  let acct = "";
  beforeAll(async () => {
    t = await webApp(dialect);
    a = await tenant(t.app, "News Org");
    other = await tenant(t.app, "Other Org");
    b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
  });
  afterAll(() => t.close());

  const api = (method: string, path: string, body?: unknown, key = a.testKey) =>
    t.request(method, path, { key, ...(body ? { body } : {}) });

  test("mail accounts: connect with the provider's fields, errors beside them, the email theme", async () => {
    const empty = await b.get("/mail-accounts");
    expect(empty.status).toBe(200);
    expect(empty.html).toContain('id="mail-accounts-empty"');
    expect(empty.html).toContain('name="field.sandbox.account"');
    expect(empty.html).not.toContain('name="field.brevo.api_key"'); // live only: not offered in test mode

    const bad = await b.request(
      "POST",
      "/mail-accounts",
      form(b, [
        ["brand", a.brandId],
        ["provider", "sandbox"],
        ["from_name", "Acme"],
        ["from_email", "not-an-address"],
      ]),
    );
    expect(bad.status).toBe(422);
    expect(bad.html).toContain('id="f-from_email-error"');
    expect((await api("GET", "/v1/mail_accounts")).body.data).toHaveLength(0);

    const ok = await b.request(
      "POST",
      "/mail-accounts",
      form(b, [
        ["brand", a.brandId],
        ["provider", "sandbox"],
        ["field.sandbox.account", "dash"],
        ["from_name", MARKUP],
        ["from_email", "news@acme.example"],
        ["default_audiences", "everyone"],
      ]),
    );
    expect(ok.status).toBe(303);
    const [m] = (await api("GET", "/v1/mail_accounts")).body.data;
    expect(m.default_audiences).toEqual(["everyone"]);
    acct = m.id;
    const listed = await b.follow(ok);
    expect(listed.html).toContain(`id="mail-account-${acct}"`);
    expect(listed.html).not.toContain(MARKUP);
    expect(listed.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");

    const pale = await b.request(
      "POST",
      `/mail-accounts/theme/${a.brandId}`,
      form(b, [
        ["accent", "#eeeeee"],
        ["postal_address", "Acme Ltd, 1 Main Street"],
        ["footer", ""],
        ["logo", ""],
      ]),
    );
    expect(pale.status).toBe(422);
    expect(pale.html).toContain('id="f-accent-error"');
    expect(pale.html).toContain("too light");
    const saved = await b.request(
      "POST",
      `/mail-accounts/theme/${a.brandId}`,
      form(b, [
        ["accent", "#1a4d8f"],
        ["postal_address", "Acme Ltd, 1 Main Street"],
        ["footer", "Thanks for reading"],
        ["logo", ""],
      ]),
    );
    expect(saved.status).toBe(303);
    const brand = (await api("GET", `/v1/brands/${a.brandId}`)).body;
    expect(brand.email_theme).toMatchObject({ accent: "#1a4d8f", postal_address: "Acme Ltd, 1 Main Street" });
    expect((await b.follow(saved)).html).toContain("Thanks for reading");
  });

  test("issues: create, preview in a sandboxed iframe, save, schedule in the brand's zone, unschedule, cancel", async () => {
    const list = await b.get("/newsletters");
    expect(list.status).toBe(200);
    expect(list.html).toContain('id="newsletters-empty"');
    expect(list.html).toContain('href="/newsletters"'); // the sidebar link
    const editor = await b.get("/newsletters/new");
    expect(editor.status).toBe(200);
    expect(editor.html).toContain(`name="deliver" value="${acct}"`);
    expect(editor.html).toContain(`name="audiences.${acct}" value="customers"`);

    const missing = await b.request(
      "POST",
      "/newsletters",
      form(b, [
        ["brand", a.brandId],
        ["subject", ""],
        ["body", "Hello"],
      ]),
    );
    expect(missing.status).toBe(422);
    expect(missing.html).toContain('id="f-subject-error"');

    const content: [string, string][] = [
      ["brand", a.brandId],
      ["subject", `March ${MARKUP}`],
      ["preview_text", "What changed"],
      ["body", `# Hello\n\n${MARKUP} and [a link](https://acme.example/x)`],
      ["deliver", acct],
      ["audiences.acct_none", "x"],
      [`audiences.${acct}`, "customers"],
    ];
    // Without JavaScript: the Preview button re-renders the editor with the email, nothing saved.
    const pv = await b.request("POST", "/newsletters", form(b, [...content, ["do", "preview"]]));
    expect(pv.status).toBe(200);
    expect(pv.html).toMatch(
      /<iframe sandbox="" title="The email at desktop width" id="preview-desktop" srcdoc="/,
    );
    expect(pv.html).toContain('id="preview-phone"');
    // The email is only in the escaped srcdoc attribute: no raw <table> or script of it in the page.
    expect(pv.html).not.toContain(MARKUP);
    expect(pv.html).not.toContain("<script>alert");
    expect(pv.html).toContain("&lt;table");
    expect((await api("GET", "/v1/newsletters")).body.data).toHaveLength(0);
    // htmx: the pane alone.
    const frag = await b.request("POST", "/newsletters/preview", {
      ...form(b, content),
      headers: { ...form(b, content).headers, "hx-request": "true" },
    });
    expect(frag.status).toBe(200);
    expect(frag.html).toStartWith('<div id="preview"');
    expect(frag.html).not.toContain("<!doctype");
    expect(frag.html).not.toContain(MARKUP);

    const made = await b.request("POST", "/newsletters", form(b, content));
    expect(made.status).toBe(303);
    const [issue] = (await api("GET", "/v1/newsletters")).body.data;
    expect(made.location).toBe(`/newsletters/${issue.id}`);
    expect(issue.subject).toBe(`March ${MARKUP}`);
    expect(issue.deliveries).toMatchObject([{ mail_account: acct, audiences: ["customers"] }]);
    const page = await b.follow(made);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain(MARKUP);
    expect(page.html).toContain("March &lt;script&gt;alert(1)&lt;/script&gt;&amp;&lt;b&gt;");
    expect(page.html).toContain('id="preview-desktop"');
    expect(page.html).toContain("newsletter.create");
    expect(page.html).toContain('id="results"');

    const listed = await b.get(`/newsletters?status=draft&brand=${a.brandId}`);
    expect(listed.html).toContain(`id="issue-${issue.id}"`);
    expect(listed.html).not.toContain(MARKUP);
    expect((await b.get("/newsletters?status=sent")).html).toContain('id="newsletters-empty"');
    expect((await b.get("/newsletters?status=bogus")).status).toBe(400);

    const saved = await b.request(
      "POST",
      `/newsletters/${issue.id}`,
      form(b, [
        ["subject", "April news"],
        ["preview_text", ""],
        ["body", "Hi again"],
        ["deliver", acct],
      ]),
    );
    expect(saved.status).toBe(303);
    const after = (await api("GET", `/v1/newsletters/${issue.id}`)).body;
    expect(after.subject).toBe("April news");
    expect(after.deliveries[0].audiences).toEqual(["everyone"]); // none ticked: the account's defaults

    const past = await b.request(
      "POST",
      `/newsletters/${issue.id}/schedule`,
      form(b, [["send_at", "2020-01-01T09:00"]]),
    );
    expect(past.status).toBe(422);
    expect(past.html).toContain('id="f-send_at-error"');

    // 09:00 in the brand's zone, a week ahead.
    const tz = (await api("GET", `/v1/brands/${a.brandId}`)).body.timezone as string;
    const day = new Date(Date.now() + 7 * 86400_000).toISOString().slice(0, 10);
    const sched = await b.request(
      "POST",
      `/newsletters/${issue.id}/schedule`,
      form(b, [["send_at", `${day}T09:00`]]),
    );
    expect(sched.status).toBe(303);
    const scheduled = (await api("GET", `/v1/newsletters/${issue.id}`)).body;
    expect(scheduled.status).toBe("scheduled");
    const local = new Intl.DateTimeFormat("en-GB", {
      timeZone: tz,
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(new Date(scheduled.send_at));
    expect(local).toBe("09:00");
    const shown = await b.follow(sched);
    expect(shown.html).toContain("Scheduled");
    expect(shown.html).toContain(`value="${day}T09:00"`);
    expect(shown.html).toContain("newsletter.schedule");
    // Not a draft now: saving is refused with the API's message beside nothing it can fix, shown at the top.
    const locked = await b.request(
      "POST",
      `/newsletters/${issue.id}`,
      form(b, [
        ["subject", "x"],
        ["body", "y"],
      ]),
    );
    expect(locked.status).toBe(409);
    expect(locked.html).toContain('role="alert"');

    expect((await b.request("POST", `/newsletters/${issue.id}/unschedule`, form(b, []))).status).toBe(303);
    expect((await api("GET", `/v1/newsletters/${issue.id}`)).body.status).toBe("draft");

    const badTest = await b.request(
      "POST",
      `/newsletters/${issue.id}/test`,
      form(b, [
        ["mail_account", acct],
        ["to", "a@x.example, b, c, d, e, f"],
      ]),
    );
    expect(badTest.status).toBe(422);
    expect(badTest.html).toContain('id="f-to-error"');

    expect((await b.request("POST", `/newsletters/${issue.id}/cancel`, form(b, []))).status).toBe(303);
    const canceled = await b.get(`/newsletters/${issue.id}`);
    expect(canceled.html).toContain("Canceled");
    expect(canceled.html).not.toContain('id="schedule-form"');
    expect(canceled.html).not.toContain('id="cancel-button"');
  });

  test("approval: a key's issue waits; the page approves or rejects with a note; no one reviews their own", async () => {
    await api("POST", `/v1/brands/${a.brandId}`, { approval_policy: "required_for_all" });
    const sendAt = new Date(Date.now() + 3 * 86400_000).toISOString();
    const waiting = async (subject: string) => {
      const made = await api("POST", "/v1/newsletters", {
        brand: a.brandId,
        subject,
        body: "Hi",
        deliveries: [{ mail_account: acct }],
      });
      const s = await api("POST", `/v1/newsletters/${made.body.id}/schedule`, { send_at: sendAt });
      expect(s.body.status).toBe("pending_approval");
      return made.body.id as string;
    };
    const one = await waiting("Approve me");
    const page = await b.get(`/newsletters/${one}`);
    expect(page.html).toContain('id="approve-button"');
    const approved = await b.request(
      "POST",
      `/newsletters/${one}/approve`,
      form(b, [["note", `Fine ${MARKUP}`]]),
    );
    expect(approved.status).toBe(303);
    expect((await api("GET", `/v1/newsletters/${one}`)).body.status).toBe("scheduled");
    const after = await b.follow(approved);
    expect(after.html).toContain("newsletter.approve");
    expect(after.html).not.toContain(MARKUP);

    const other = await waiting("Reject me");
    const rejected = await b.request("POST", `/newsletters/${other}/reject`, form(b, [["note", "Too long"]]));
    expect(rejected.status).toBe(303);
    const back = (await api("GET", `/v1/newsletters/${other}`)).body;
    expect(back.status).toBe("draft");
    expect((await b.follow(rejected)).html).toContain("Too long");

    // Written and scheduled from the page by this person, it waits; the same person cannot approve it.
    const made = await b.request(
      "POST",
      "/newsletters",
      form(b, [
        ["brand", a.brandId],
        ["subject", "My own"],
        ["body", "Hi"],
        ["deliver", acct],
      ]),
    );
    const two = made.location!.split("/").pop()!;
    const mine = await b.request(
      "POST",
      `/newsletters/${two}/schedule`,
      form(b, [["send_at", new Date(Date.now() + 4 * 86400_000).toISOString().slice(0, 16)]]),
    );
    expect(mine.status).toBe(303);
    expect((await api("GET", `/v1/newsletters/${two}`)).body.status).toBe("pending_approval");
    const self = await b.request("POST", `/newsletters/${two}/approve`, form(b, [["note", ""]]));
    expect(self.status).toBe(403);
    expect(self.html).toContain('role="alert"');
    expect((await api("GET", `/v1/newsletters/${two}`)).body.status).toBe("pending_approval");
    await api("POST", `/v1/brands/${a.brandId}`, { approval_policy: "none" });
  });

  test("another org's issue and the other mode's look missing; a cross-site form changes nothing", async () => {
    const theirs = await api(
      "POST",
      "/v1/newsletters",
      { brand: other.brandId, subject: "Theirs", body: "Hi" },
      other.testKey,
    );
    expect(theirs.status).toBe(201);
    expect((await b.get(`/newsletters/${theirs.body.id}`)).status).toBe(404);
    expect((await b.request("POST", `/newsletters/${theirs.body.id}/cancel`, form(b, []))).status).toBe(404);
    expect(
      (await api("GET", `/v1/newsletters/${theirs.body.id}`, undefined, other.testKey)).body.status,
    ).toBe("draft");
    expect((await b.get("/newsletters")).html).not.toContain(theirs.body.id);

    const mine = await api("POST", "/v1/newsletters", { brand: a.brandId, subject: "Test mode", body: "Hi" });
    await b.post("/mode", { livemode: "true" });
    expect((await b.get(`/newsletters/${mine.body.id}`)).status).toBe(404);
    expect((await b.get("/newsletters")).html).not.toContain(mine.body.id);
    await b.post("/mode", { livemode: "false" });
    expect((await b.get(`/newsletters/${mine.body.id}`)).status).toBe(200);

    const cross = await b.post(`/newsletters/${mine.body.id}/cancel`, {}, { site: "cross-site" });
    expect(cross.status).toBe(403);
    expect((await api("GET", `/v1/newsletters/${mine.body.id}`)).body.status).toBe("draft");
  });

  test("a test send without the install's mail shows mail_unavailable; deleting a mail account in use is refused", async () => {
    const [issue] = (await api("GET", "/v1/newsletters?status=pending_approval")).body.data;
    const sent = await b.request(
      "POST",
      `/newsletters/${issue.id}/test`,
      form(b, [
        ["mail_account", acct],
        ["to", "me@acme.example"],
      ]),
    );
    expect(sent.status).toBe(503);
    expect(sent.html).toContain('role="alert"');
    expect(sent.html).toContain('value="me@acme.example"'); // kept in the form to try again, not stored

    const inUse = await b.request("POST", `/mail-accounts/${acct}/delete`, form(b, []));
    expect(inUse.status).toBe(409);
    expect(inUse.html).toContain('role="alert"');
    expect((await api("GET", `/v1/mail_accounts/${acct}`)).status).toBe(200);

    const spare = await api("POST", "/v1/mail_accounts", {
      brand: a.brandId,
      provider: "sandbox",
      fields: { account: "spare" },
      from_name: "Spare",
      from_email: "spare@acme.example",
    });
    expect(spare.status).toBe(201);
    const theirs = await api(
      "POST",
      "/v1/mail_accounts",
      { brand: other.brandId, provider: "sandbox", from_name: "T", from_email: "t@other.example" },
      other.testKey,
    );
    expect((await b.request("POST", `/mail-accounts/${theirs.body.id}/delete`, form(b, []))).status).toBe(
      404,
    );
    expect((await b.get("/mail-accounts")).html).not.toContain(theirs.body.id);
    const gone = await b.request("POST", `/mail-accounts/${spare.body.id}/delete`, form(b, []));
    expect(gone.status).toBe(303);
    expect((await api("GET", `/v1/mail_accounts/${spare.body.id}`)).status).toBe(404);
  });

  test("a viewer reads the issues but gets no change buttons and no editor", async () => {
    const email = `viewer-${Date.now()}@example.com`;
    await member(t.app, a.orgId, email, "viewer");
    const v = new TestBrowser(t);
    await v.signIn(email, PASSWORD);
    const list = await v.get("/newsletters");
    expect(list.status).toBe(200);
    expect(list.html).not.toContain('id="new-issue"');
    expect((await v.get("/newsletters/new")).status).toBe(403);
    const [issue] = (await api("GET", "/v1/newsletters?status=draft")).body.data;
    const page = await v.get(`/newsletters/${issue.id}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('id="save-draft"');
    expect(page.html).not.toContain('id="schedule-form"');
    expect((await v.request("POST", `/newsletters/${issue.id}/cancel`, form(v, []))).status).toBe(403);
  });
});
