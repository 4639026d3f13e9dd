// The log pages in process: events (type filter, paging, this mode only, payload escaped), the audit log (action
// and outcome filters; admins and owners only) and the request log (the org's keys and CLI sign-ins in this mode,
// filters by status, problem code and key; admins and owners only); another org's rows never show.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { member, tenant, userToken } from "../../helpers/factories.ts";
import { testEvent } from "../../helpers/webhooks.ts";

const PASSWORD = "correct horse battery staple";
const MARKUP = `<img src=x onerror="alert(1)">&<b>`;
const ids = (html: string, prefix: string) =>
  [...html.matchAll(new RegExp(`id="${prefix}-([a-z]+_[A-Za-z0-9]+)"`, "g"))].map((m) => m[1]!);

describeEachDialect("dashboard logs", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await webApp(dialect);
  });
  afterAll(() => t.close());

  test("events: this org and mode only, filtered by type, paged, payload escaped", async () => {
    const a = await tenant(t.app);
    const other = await tenant(t.app);
    const made: string[] = [];
    for (let i = 0; i < 55; i++)
      made.push((await testEvent(t.app, a, { type: i % 5 === 0 ? "post.failed" : "post.created" })).id);
    const marked = await testEvent(t.app, a, {
      type: "channel.connected",
      object: { id: "chan_x", object: "channel", display_name: MARKUP },
    });
    const live = await testEvent(t.app, a, { type: "post.created", livemode: true });
    const theirs = await testEvent(t.app, other, { type: "post.created" });
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const first = await b.get("/events");
    expect(first.status).toBe(200);
    const shown = ids(first.html, "event");
    expect(shown).toHaveLength(50);
    expect(shown[0]).toBe(marked.id);
    expect(first.html).not.toContain(MARKUP);
    expect(first.html).toContain("&lt;img src=x");
    expect(first.html).not.toContain(live.id);
    expect(first.html).not.toContain(theirs.id);
    const older = /href="(\/events\?starting_after=[^"]+)"/.exec(first.html)![1]!.replaceAll("&amp;", "&");
    const second = await b.get(older);
    const all = [...shown, ...ids(second.html, "event")];
    expect(new Set(all).size).toBe(all.length);
    for (const id of made) expect(all).toContain(id);
    expect(second.html).toContain('rel="prev"');

    const failed = await b.get("/events?type=post.failed");
    expect(ids(failed.html, "event")).toHaveLength(11);
    expect(failed.html).toContain("Clear filters");
    const bad = await b.get(`/events?type=${encodeURIComponent(MARKUP)}`);
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('id="f-type-error"');
    expect(bad.html).not.toContain(MARKUP);

    await b.post("/mode", { livemode: "true" });
    const liveShown = await b.get("/events");
    expect(ids(liveShown.html, "event")).toEqual([live.id]);
  });

  test("audit log: filters by action and outcome; editors and viewers are refused", async () => {
    const a = await tenant(t.app);
    const other = await tenant(t.app);
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    await t.request("POST", "/v1/webhook_endpoints", {
      key: a.testKey,
      body: { url: "http://example.com/a", description: MARKUP },
    });
    await t.request("POST", "/v1/webhook_endpoints", {
      key: other.testKey,
      body: { url: "http://example.com/theirs" },
    });
    const page = await b.get("/audit");
    expect(page.status).toBe(200);
    expect(page.html).toContain("webhook_endpoint.create");
    expect(page.html).not.toContain("example.com/theirs");
    const byPrefix = await b.get("/audit?action=webhook_endpoint.");
    expect(ids(byPrefix.html, "audit").length).toBe(1);
    const exact = await b.get("/audit?action=webhook_endpoint.delete");
    expect(exact.html).toContain('id="audit-empty"');
    expect(exact.html).toContain("Nothing matches these filters");
    const bad = await b.get("/audit?outcome=maybe");
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('id="f-outcome-error"');
    // The same filters on the API.
    const api = await t.request("GET", "/v1/audit_events?action=webhook_endpoint.", { key: a.testKey });
    expect(api.status).toBe(200);
    expect(api.body.data.map((x: { action: string }) => x.action)).toEqual(["webhook_endpoint.create"]);

    for (const role of ["editor", "viewer"]) {
      const email = `${role}-${Date.now()}@example.com`;
      await member(t.app, a.orgId, email, role);
      const p = new TestBrowser(t);
      await p.signIn(email, PASSWORD);
      expect((await p.get("/audit")).status).toBe(403);
      expect((await p.get("/requests")).status).toBe(403);
      const home = await p.get("/events");
      expect(home.status).toBe(200);
      expect(home.html).not.toContain('href="/requests"');
      expect(home.html).not.toContain('href="/audit"');
    }
  });

  test("request log: keys and CLI sign-ins of this org and mode, filtered by status, code and key", async () => {
    const a = await tenant(t.app);
    const other = await tenant(t.app);
    const cli = await userToken(t.app, a.userId, { name: "laptop" });
    expect((await t.request("GET", "/v1/brands", { key: a.testKey })).status).toBe(200);
    expect((await t.request("GET", "/v1/posts/post_nope", { key: a.testKey })).status).toBe(404);
    expect((await t.request("GET", "/v1/brands", { key: a.liveKey })).status).toBe(200);
    expect((await t.request("GET", "/v1/brands", { key: other.testKey })).status).toBe(200);
    const viaCli = await t.request("GET", "/v1/channels", {
      key: cli.secret,
      headers: { "svc-org": a.orgId },
    });
    expect(viaCli.status).toBe(200);
    // A CLI sign-in's name is what the person's machine called itself: shown as text.
    const marked = await userToken(t.app, a.userId, { name: MARKUP });
    await t.request("GET", "/v1/brands", { key: marked.secret, headers: { "svc-org": a.orgId } });
    await t.http.ctx.requestLog.flush();

    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const page = await b.get("/requests");
    expect(page.status).toBe(200);
    const rows = ids(page.html, "request");
    expect(rows).toHaveLength(4);
    expect(page.html).not.toContain(MARKUP);
    expect(page.html).toContain("CLI &lt;img src=x");
    expect(page.html).toContain("GET /v1/posts/post_nope");
    expect(page.html).toContain("resource_missing");
    expect(page.html).toContain("CLI laptop of");
    expect(page.html).toContain("test full");

    expect(ids((await b.get("/requests?status=4xx")).html, "request")).toHaveLength(1);
    expect(ids((await b.get("/requests?status=200")).html, "request")).toHaveLength(3);
    expect(ids((await b.get("/requests?code=resource_missing")).html, "request")).toHaveLength(1);
    expect(ids((await b.get(`/requests?key=${cli.id}`)).html, "request")).toHaveLength(1);
    const bad = await b.get(`/requests?code=${encodeURIComponent(MARKUP)}`);
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('id="f-code-error"');
    expect(bad.html).not.toContain(MARKUP);
    // Another org's key is no filter that finds anything.
    const keys = await t.request("GET", "/v1/api_keys", { key: other.testKey });
    const theirKey = keys.body.data[0].id;
    expect((await b.get(`/requests?key=${theirKey}`)).html).toContain('id="requests-empty"');

    await b.post("/mode", { livemode: "true" });
    expect(ids((await b.get("/requests")).html, "request")).toHaveLength(1);
  });
});
