// The frame around every page, in process: the org switcher for a person in several orgs (another org cannot
// be chosen), a suspended org's note, and markup in names (org, brand, channel, post text, a browser's name)
// rendered as text on the pages that show them.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "kysely";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { key, member, tenant } from "../../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";
const MARK = (what: string) => `<script>alert("${what}")</script><b>${what}</b>`;
const escaped = (what: string) =>
  `&lt;script&gt;alert(&quot;${what}&quot;)&lt;/script&gt;&lt;b&gt;${what}&lt;/b&gt;`;

describeEachDialect("dashboard frame", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await webApp(dialect);
  });
  afterAll(() => t.close());

  test("a person in several orgs switches between them; an org they are not in cannot be chosen", async () => {
    const a = await tenant(t.app, "Alpha Org");
    const b = await tenant(t.app, MARK("beta"));
    const outsider = await tenant(t.app, "Outsider Org");
    await member(t.app, b.orgId, a.email, "viewer");
    const br = new TestBrowser(t);
    await br.signIn(a.email, PASSWORD);
    const home = await br.get("/home");
    expect(home.html).toContain('<label for="org-switch">Org</label>');
    const options = [...home.html.matchAll(/<option value="(org_[a-z0-9]+)"[^>]*>([^<]*)<\/option>/g)];
    expect(options.map((o) => `${o[1]} ${o[2]}`).sort()).toEqual(
      [`${a.orgId} Alpha Org`, `${b.orgId} ${escaped("beta")}`].sort(),
    );
    const alpha = await br.follow(await br.post("/org", { org: a.orgId, back: "/home" }));
    expect(alpha.html).toContain('<strong id="home-org">Alpha Org</strong>');
    expect(alpha.html).toContain("as owner");
    const switched = await br.follow(await br.post("/org", { org: b.orgId, back: "/home" }));
    expect(switched.html).toContain(`<strong id="home-org">${escaped("beta")}</strong>`);
    expect(switched.html).toContain("as viewer");
    expect(switched.html).toContain("Switched org.");
    // A viewer does not manage keys.
    expect((await br.get("/api-keys")).status).toBe(403);
    const refused = await br.post("/org", { org: outsider.orgId, back: "/home" });
    expect(refused.status).toBe(404);
    expect((await br.get("/home")).html).toContain(escaped("beta"));
  });

  test("org, brand, channel and post text with markup render as text; so does a browser's name", async () => {
    const a = await tenant(t.app, MARK("org"));
    await sql`UPDATE brands SET name = ${MARK("brand")} WHERE id = ${a.brandId}`.execute(t.app.db);
    await sql`UPDATE channels SET display_name = ${MARK("channel")} WHERE brand_id = ${a.brandId}`.execute(
      t.app.db,
    );
    const poster = await key(t.app, a.orgId, { name: "poster" });
    const p = await t.request("POST", "/v1/posts", {
      key: poster,
      body: {
        brand: a.brandId,
        content: { body: MARK("post") },
        publish_at: new Date(Date.now() + 3600_000).toISOString(),
      },
    });
    expect(p.status).toBe(201);
    const br = new TestBrowser(t);
    await br.get("/signin");
    await br.request("POST", "/signin", {
      body: new URLSearchParams({ _csrf: br.csrf, email: a.email, password: PASSWORD }).toString(),
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "sec-fetch-site": "same-origin",
        origin: "http://localhost",
        "user-agent": MARK("agent"),
      },
    });
    const home = await br.get("/home");
    for (const what of ["org", "brand", "channel", "post"]) {
      expect(home.html).toContain(escaped(what));
      expect(home.html).not.toContain(MARK(what));
    }
    const sessions = await br.get("/account/sessions");
    expect(sessions.html).toContain(escaped("agent"));
    for (const page of ["/api-keys", "/account/security", "/account/sessions"]) {
      const r = await br.get(page);
      expect(r.status).toBe(200);
      expect(r.html).toContain(escaped("org"));
      expect(r.html).not.toContain("<script>alert");
    }
  });

  test("a person in no org is told so after signing in", async () => {
    const a = await tenant(t.app, "Leaving Org");
    await t.app.db.deleteFrom("members").where("org_id", "=", a.orgId).execute();
    const br = new TestBrowser(t);
    const r = await br.follow(await br.signIn(a.email, PASSWORD));
    expect(r.html).toContain("not a member of any org");
    expect((await br.get("/home")).location).toBe("/signin");
  });

  test("a signed-in session sees a role change, a rename, the bell and its removal on the very next request", async () => {
    // The frame (the person, their orgs and role, the bell) is read on every request, never kept between them.
    const a = await tenant(t.app, "Gamma Org");
    const email = `editor-${dialect}@example.com`;
    await member(t.app, a.orgId, email, "editor");
    const userId = (
      await t.app.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()
    ).id;
    const br = new TestBrowser(t);
    await br.signIn(email, PASSWORD);
    const before = await br.get("/home");
    expect(before.html).toContain('href="/posts/new"');
    expect(before.html).toContain('<span class="org-name" id="org-name">Gamma Org</span>');
    expect(before.html).toContain('aria-label="Notifications, none unread"');
    expect((await br.get("/posts/new")).status).toBe(200);

    await t.app.db
      .updateTable("members")
      .set({ role: "viewer" })
      .where("org_id", "=", a.orgId)
      .where("user_id", "=", userId)
      .execute();
    await t.app.db.updateTable("orgs").set({ name: "Gamma Renamed" }).where("id", "=", a.orgId).execute();
    const after = await br.get("/home");
    expect(after.html).not.toContain('href="/posts/new"');
    expect(after.html).toContain('<span class="org-name" id="org-name">Gamma Renamed</span>');
    expect((await br.get("/posts/new")).status).toBe(403);

    await t.app.db
      .insertInto("notifications")
      .values({
        id: "ntf_00000000000000000000000001",
        org_id: a.orgId,
        user_id: userId,
        type: "post.failed",
        object_id: null,
        subject: "A post failed",
        body: "b",
        link: "/home",
        email: "none",
        mail_id: null,
        read_at: null,
        created_at: Date.now(),
      })
      .execute();
    expect((await br.get("/home")).html).toContain('aria-label="Notifications, 1 unread"');

    await t.app.db
      .deleteFrom("members")
      .where("org_id", "=", a.orgId)
      .where("user_id", "=", userId)
      .execute();
    expect((await br.get("/home")).location).toBe("/signin");
    expect((await br.get("/posts/new")).location).toBe("/signin");
  });

  test("a session whose org the person left acts in their other org, with that org's bell", async () => {
    const a = await tenant(t.app, "Epsilon Org");
    const b = await tenant(t.app, "Zeta Org");
    await member(t.app, b.orgId, a.email, "viewer");
    await t.app.db
      .insertInto("notifications")
      .values({
        id: "ntf_00000000000000000000000002",
        org_id: b.orgId,
        user_id: a.userId,
        type: "post.failed",
        object_id: null,
        subject: "A post failed",
        body: "b",
        link: "/home",
        email: "none",
        mail_id: null,
        read_at: null,
        created_at: Date.now(),
      })
      .execute();
    const br = new TestBrowser(t);
    await br.signIn(a.email, PASSWORD);
    const first = await br.get("/home");
    expect(first.html).toContain('<strong id="home-org">Epsilon Org</strong>');
    expect(first.html).toContain('aria-label="Notifications, none unread"');
    await t.app.db
      .deleteFrom("members")
      .where("org_id", "=", a.orgId)
      .where("user_id", "=", a.userId)
      .execute();
    const after = await br.get("/home");
    expect(after.status).toBe(200);
    expect(after.html).toContain('<strong id="home-org">Zeta Org</strong>');
    expect(after.html).toContain("as viewer");
    expect(after.html).toContain('aria-label="Notifications, 1 unread"');
  });

  test("a suspended org shows the operator's note and nothing else", async () => {
    const a = await tenant(t.app, "Paused Org");
    await sql`UPDATE orgs SET status = 'suspended', status_note = ${"Call <i>billing</i>"} WHERE id = ${a.orgId}`.execute(
      t.app.db,
    );
    const br = new TestBrowser(t);
    await br.signIn(a.email, PASSWORD);
    const home = await br.get("/home");
    expect(home.html).toContain("This org is suspended by the operator");
    expect(home.html).toContain("Call &lt;i&gt;billing&lt;/i&gt;");
    expect(home.html).not.toContain("Paused Org Brand");
    expect((await br.post("/api-keys", { name: "x" })).status).toBe(403);
  });
});
