// The API keys page, in process: create (sudo mode, secret shown once, scopes, brand limit, expiry), roll with an
// overlap, revoke; the other org's and the other mode's keys look missing; a read-only org refuses changes;
// names with markup render as text.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "kysely";
import { ALL_SCOPES } from "../../../src/domain/scopes.ts";
import { scopesInUse } from "../../../src/http/api/v1/index.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { key, member, tenant } from "../../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";
const MARKUP = `<img src=x onerror="alert(1)">&<b>`;

describeEachDialect("dashboard API keys", (dialect) => {
  let t: TestApp;
  const clock = new FakeClock(Date.parse("2026-03-02T09:00:00Z"));
  beforeAll(async () => {
    t = await webApp(dialect, { clock });
  });
  afterAll(() => t.close());

  const secretOf = (html: string) => /id="key-secret">([^<]+)</.exec(html)?.[1];

  test("create a key: shown once, works on /v1 with exactly its scopes and brand", async () => {
    const a = await tenant(t.app, "Keys Org");
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const page = await b.get("/api-keys");
    expect(page.html).toContain("Test keys");
    expect(page.html).toContain('value="audit:read"');
    const r = await b.request("POST", "/api-keys", {
      body: new URLSearchParams([
        ["_csrf", b.csrf],
        ["name", MARKUP],
        ["scopes", "posts:read"],
        ["scopes", "audit:read"],
        ["brand", a.brandId],
        ["expires_at", "2026-12-31"],
      ]).toString(),
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "sec-fetch-site": "same-origin",
        origin: "http://localhost",
      },
    });
    expect(r.status).toBe(201);
    const secret = secretOf(r.html)!;
    expect(secret).toStartWith("svc_test_");
    expect(r.html).not.toContain(MARKUP);
    expect(r.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&lt;b&gt;");
    const me = await t.request("GET", "/v1/me", { key: secret });
    expect(me.status).toBe(200);
    expect((await t.request("GET", "/v1/audit_events", { key: secret })).status).toBe(200);
    expect((await t.request("GET", "/v1/channels", { key: secret })).status).toBe(403);
    const keys = await t.request("GET", "/v1/api_keys", { key: a.testKey });
    const made = keys.body.data.find((k: { hint: string }) => secret.endsWith(k.hint.slice(1)));
    expect(made.brand).toBe(a.brandId);
    expect(made.expires_at).toBe("2026-12-31T23:59:59.000Z");
    // Not shown again.
    expect(secretOf((await b.get("/api-keys")).html)).toBeUndefined();
  });

  test("bad input is shown beside its field and creates nothing", async () => {
    const a = await tenant(t.app, "Bad Keys Org");
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    await b.get("/api-keys");
    const before = (await t.request("GET", "/v1/api_keys", { key: a.testKey })).body.data.length;
    const r = await b.post("/api-keys", { name: "" });
    expect(r.status).toBe(422);
    expect(r.html).toContain('id="f-name-error"');
    const past = await b.post("/api-keys", { name: "old", expires_at: "2020-01-01" });
    expect(past.status).toBe(400);
    expect(past.html).toContain('id="f-expires_at-error"');
    expect(past.html).toContain("expires_at must be in the future.");
    const other = await tenant(t.app, "Other Keys Org");
    const r2 = await b.post("/api-keys", { name: "x", brand: other.brandId });
    expect(r2.status).toBe(422);
    expect(r2.html).toContain("No brand");
    expect((await t.request("GET", "/v1/api_keys", { key: a.testKey })).body.data.length).toBe(before);
  });

  test("creating and rolling need sudo mode; revoking does not", async () => {
    const a = await tenant(t.app, "Sudo Keys Org");
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    clock.advance(11 * 60_000);
    const page = await b.get("/api-keys");
    expect(page.html).toContain("Creating and rolling API keys needs a recent password confirmation.");
    const r = await b.post("/api-keys", { name: "late" });
    expect(r.status).toBe(403);
    expect(r.html).toContain("Confirm your password to continue.");
    const id = (await t.request("GET", "/v1/api_keys", { key: a.testKey })).body.data[0].id;
    expect((await b.post(`/api-keys/${id}/roll`, { overlap_hours: "1" })).status).toBe(403);
    const revoked = await b.follow(await b.post(`/api-keys/${id}/revoke`, {}));
    expect(revoked.html).toContain("API key revoked.");
  });

  test("roll keeps the old key working for the overlap, then it expires", async () => {
    const a = await tenant(t.app, "Roll Org");
    const old = await key(t.app, a.orgId, { name: "rolling" });
    const id = (await t.request("GET", "/v1/me", { key: old })).body.api_key.id;
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const r = await b.post(`/api-keys/${id}/roll`, { overlap_hours: "1" });
    expect(r.status).toBe(200);
    const fresh = secretOf(r.html)!;
    expect(r.html).toContain("Rolled");
    expect((await t.request("GET", "/v1/me", { key: fresh })).status).toBe(200);
    expect((await t.request("GET", "/v1/me", { key: old })).status).toBe(200);
    clock.advance(3600_000 + 1);
    expect((await t.request("GET", "/v1/me", { key: old })).status).toBe(401);
  });

  test("another org's key and the other mode's key look missing", async () => {
    const a = await tenant(t.app, "Iso Org");
    const other = await tenant(t.app, "Iso Other");
    const foreign = (await t.request("GET", "/v1/me", { key: other.testKey })).body.api_key.id;
    const live = (await t.request("GET", "/v1/me", { key: a.liveKey })).body.api_key.id;
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    await b.get("/api-keys");
    expect((await b.post(`/api-keys/${foreign}/revoke`, {})).status).toBe(404);
    expect((await b.post(`/api-keys/${live}/revoke`, {})).status).toBe(404);
    expect((await b.post(`/api-keys/${foreign}/roll`, { overlap_hours: "0" })).status).toBe(404);
    expect((await t.request("GET", "/v1/me", { key: other.testKey })).status).toBe(200);
    expect((await t.request("GET", "/v1/me", { key: a.liveKey })).status).toBe(200);
    // In live mode the page lists live keys and creates live ones.
    await b.post("/mode", { livemode: "true" });
    const livePage = await b.get("/api-keys");
    expect(livePage.html).toContain("Live keys");
    const made = await b.post("/api-keys", { name: "live one" });
    expect(secretOf(made.html)).toStartWith("svc_live_");
  });

  test("a read-only org shows its note and refuses changes", async () => {
    const a = await tenant(t.app, "Frozen Org");
    await sql`UPDATE orgs SET status = 'read_only', status_note = ${"Unpaid <b>invoice</b>"} WHERE id = ${a.orgId}`.execute(
      t.app.db,
    );
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const page = await b.get("/api-keys");
    expect(page.html).toContain("This org is read-only");
    expect(page.html).toContain("Unpaid &lt;b&gt;invoice&lt;/b&gt;");
    const r = await b.post("/api-keys", { name: "nope" });
    expect(r.status).toBe(403);
    expect(r.html).toContain("org_read_only");
  });

  test("the form offers only scopes some route of this install needs; the spec's others would be listed as coming", async () => {
    const a = await tenant(t.app, "Scope Org");
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const page = await b.get("/api-keys");
    const offered = [...page.html.matchAll(/name="scopes" value="([^"]+)"/g)].map((m) => m[1]);
    expect(offered.sort()).toEqual(ALL_SCOPES.filter((s) => scopesInUse.has(s)).sort());
    const coming = ALL_SCOPES.filter((s) => !scopesInUse.has(s));
    // With ads, analytics and newsletters built, every scope of the specification has a route: none is "coming".
    expect(coming).toEqual([]);
    expect(offered).toContain("newsletters:write");
    expect(offered).toContain("ads:write");
    expect(page.html).not.toContain("Coming, not on this install yet");
  });

  test("revoking asks to confirm, naming the key", async () => {
    const a = await tenant(t.app, "Confirm Org");
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const page = await b.get("/api-keys");
    const forms = [...page.html.matchAll(/<form method="post" action="\/api-keys\/[^"]+\/revoke"[^>]*>/g)];
    // The test-mode key only: this session is in test mode.
    expect(forms.length).toBe(1);
    expect(forms[0]![0]).toMatch(
      /data-confirm="Revoke the key “test full” \(…[^)]+\)\? Whatever uses it stops working at once\."/,
    );
  });

  test("the nav offers each role only the pages it can use; the others refuse it", async () => {
    const a = await tenant(t.app, "Nav Org");
    const hidden: Record<string, string[]> = {
      owner: [],
      admin: [],
      editor: ["/api-keys"],
      viewer: ["/api-keys", "/posts/new"],
    };
    for (const role of ["owner", "admin", "editor", "viewer"]) {
      const email =
        role === "owner" ? a.email : `${role}-${Math.random().toString(36).slice(2, 7)}@example.com`;
      if (role !== "owner") await member(t.app, a.orgId, email, role);
      const b = new TestBrowser(t);
      await b.signIn(email, PASSWORD);
      const home = await b.get("/home");
      const start = home.html.indexOf('<nav aria-label="Main" class="side-nav">');
      const nav = home.html.slice(start, home.html.indexOf("</nav>", start));
      const links = [...nav.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
      expect(links).toContain("/home");
      // Every page the nav offers is one the role can use.
      for (const link of links)
        expect({ role, link, status: (await b.get(link)).status }).toEqual({ role, link, status: 200 });
      for (const link of hidden[role]!) {
        expect({ role, link, shown: links.includes(link) }).toEqual({ role, link, shown: false });
        const refused = await b.get(link);
        expect({ role, link, status: refused.status }).toEqual({ role, link, status: 403 });
      }
      // Nor does another page of theirs point to a page that refuses them.
      if (hidden[role]!.includes("/posts/new")) {
        expect((await b.get("/posts")).html).not.toContain('href="/posts/new"');
        expect(home.html).not.toContain('href="/posts/new"');
      }
    }
  });
});
