// The dashboard's frame in process: the grouped navigation (views/nav.ts) with the current page marked in the
// sidebar and in the phone's Menu; the reconnect banner on every page while a channel of this org and mode needs
// reconnecting (never another org's or mode's); the events list filtered by post, linked from the post's page;
// the queue's count of posts waiting for approval without a time; and the SQLite plans of the two counts every
// such page runs.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { adminActor } from "../../../src/domain/actor.ts";
import { countChannelsNeedingReauth } from "../../../src/domain/channels/needs-reauth.ts";
import { countWaitingForSlot } from "../../../src/domain/posts/waiting-for-slot.ts";
import { scopesOfRole } from "../../../src/domain/scopes.ts";
import { newId } from "../../../src/lib/ids.ts";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { member, type Tenant, tenant } from "../../helpers/factories.ts";
import { explain, indexDefinitions, statementsOf } from "../../helpers/sqlite-plans.ts";

const PASSWORD = "correct horse battery staple";
const between = (html: string, from: string, to: string) => {
  const i = html.indexOf(from);
  return i < 0 ? "" : html.slice(i, html.indexOf(to, i));
};

describeEachDialect("dashboard frame", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await webApp(dialect);
  });
  afterAll(() => t.close());

  const sandbox = async (a: Tenant) => {
    const r = await t.request("POST", "/v1/channels", {
      key: a.testKey,
      body: { brand: a.brandId, provider: "sandbox", emulates: "bluesky" },
    });
    expect(r.status).toBe(201);
    return r.body.id as string;
  };
  const needsReauth = (id: string) =>
    t.app.db.updateTable("channels").set({ status: "needs_reauth" }).where("id", "=", id).execute();

  test("the sidebar and the phone's Menu: the same groups in order, the current page marked in both", async () => {
    const a = await tenant(t.app);
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const page = await b.get("/queue");
    expect(page.status).toBe(200);
    const side = between(page.html, '<nav aria-label="Main" class="side-nav">', "</nav>");
    const menu = between(page.html, '<details class="nav-menu">', "</details>");
    for (const nav of [side, menu]) {
      const labels = [...nav.matchAll(/<p class="nav-label">([^<]+)<\/p>/g)].map((m) => m[1]);
      expect(labels).toEqual(["Publish", "Library", "Insights", "Accounts", "Developers", "Org", "You"]);
      expect([...nav.matchAll(/aria-current="page"/g)]).toHaveLength(1);
      expect(nav).toContain('<a href="/queue" aria-current="page">Queue</a>');
      expect(nav).toContain('<a href="/posts">Posts</a>');
    }
    expect(menu).toContain("<summary>Menu</summary>");
    // A viewer's sidebar has no Developers links it could not use, and no empty group heading.
    const email = `viewer-${Math.random().toString(36).slice(2, 8)}@example.com`;
    await member(t.app, a.orgId, email, "viewer");
    const v = new TestBrowser(t);
    await v.signIn(email, PASSWORD);
    const vside = between((await v.get("/home")).html, '<nav aria-label="Main" class="side-nav">', "</nav>");
    expect(vside).not.toContain('href="/api-keys"');
    expect(vside).not.toContain('href="/posts/new"');
    expect(vside).toContain('<a href="/home" aria-current="page">Home</a>');
  });

  test("the reconnect banner: on every page while a channel of this org and mode needs reconnecting", async () => {
    const a = await tenant(t.app);
    const other = await tenant(t.app);
    const broken = await sandbox(a);
    await sandbox(a);
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    expect((await b.get("/home")).html).not.toContain('id="reconnect-banner"');

    await needsReauth(broken);
    for (const path of ["/home", "/posts", "/queue", "/events", "/media", "/members"]) {
      const p = await b.get(path);
      expect({ path, status: p.status }).toEqual({ path, status: 200 });
      const banner = between(p.html, 'id="reconnect-banner"', "</div>");
      expect({ path, banner: banner.includes("1 channel needs") }).toEqual({ path, banner: true });
      expect(banner).toContain('href="/channels"');
    }
    // /channels lists them itself, with a Reconnect form each: the frame's banner is not repeated there.
    const channels = await b.get("/channels");
    expect(channels.html).not.toContain('id="reconnect-banner"');
    expect(channels.html).toContain('id="reauth-banner"');

    const second = await sandbox(a);
    await needsReauth(second);
    expect((await b.get("/home")).html).toContain("2 channels need");

    // Live mode has its own channels: the test channels' state is not its banner.
    await b.post("/mode", { livemode: "true", back: "/home" });
    expect((await b.get("/home")).html).not.toContain('id="reconnect-banner"');
    // A live channel (sandbox channels are test-mode only, so a copy of the row stands for a live network's).
    const row = await t.app.db
      .selectFrom("channels")
      .selectAll()
      .where("id", "=", second)
      .executeTakeFirstOrThrow();
    await t.app.db
      .insertInto("channels")
      .values({ ...row, id: newId("chan"), livemode: 1, status: "needs_reauth" })
      .execute();
    expect((await b.get("/home")).html).toContain("1 channel needs");

    // Another org sees nothing of it.
    const o = new TestBrowser(t);
    await o.signIn(other.email, PASSWORD);
    expect((await o.get("/home")).html).not.toContain('id="reconnect-banner"');
    const owner = adminActor(a.orgId, "test", scopesOfRole("owner"));
    expect(await countChannelsNeedingReauth(t.app, owner)).toBe(2);
    expect(await countChannelsNeedingReauth(t.app, { ...owner, livemode: true })).toBe(1);
  });

  test("events by post: the post's own and its targets' events, linked from its page; other orgs' look empty", async () => {
    const a = await tenant(t.app);
    const other = await tenant(t.app);
    await sandbox(a);
    const make = async (tn: Tenant, body: string) => {
      const r = await t.request("POST", "/v1/posts", {
        key: tn.testKey,
        body: { brand: tn.brandId, content: { body }, publish_at: "next_slot" },
      });
      expect(r.status).toBe(201);
      return r.body.id as string;
    };
    const mine = await make(a, "Cold brew is back.");
    const sibling = await make(a, "Latte art on Saturday.");
    await sandbox(other);
    const theirs = await make(other, "Another org's post.");
    expect((await t.request("POST", `/v1/posts/${mine}/cancel`, { key: a.testKey })).status).toBe(200);

    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const detail = await b.get(`/posts/${mine}`);
    expect(detail.html).toContain(`href="/events?post=${mine}" id="post-events"`);

    const all = await b.get("/events");
    expect(all.html).toContain(sibling);
    const filtered = await b.get(`/events?post=${mine}`);
    expect(filtered.status).toBe(200);
    expect(filtered.html).toContain('id="events-of-post"');
    const types = [...filtered.html.matchAll(/<code class="log-type">([^<]+)<\/code>/g)].map((m) => m[1]);
    expect(types).toContain("post.created");
    expect(types).toContain("post.canceled");
    expect(filtered.html).not.toContain(`href="/posts/${sibling}"`);
    // The filter stays with the type filter.
    const created = await b.get(`/events?post=${mine}&type=post.created`);
    expect([...created.html.matchAll(/<code class="log-type">([^<]+)<\/code>/g)].map((m) => m[1])).toEqual([
      "post.created",
    ]);

    const foreign = await b.get(`/events?post=${theirs}`);
    expect(foreign.status).toBe(200);
    expect(foreign.html).toContain('id="events-empty"');
    expect(foreign.html).not.toContain("Another org");

    const bad = await b.get(`/events?post=${encodeURIComponent("post_%")}`);
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('id="f-post-error"');
  });

  test("the queue names posts waiting for approval without a time; counted by index", async () => {
    const a = await tenant(t.app);
    await sandbox(a);
    expect(
      (
        await t.request("POST", `/v1/brands/${a.brandId}`, {
          key: a.testKey,
          body: { approval_policy: "required_for_all" },
        })
      ).status,
    ).toBe(200);
    for (const body of ["One", "Two"])
      expect(
        (
          await t.request("POST", "/v1/posts", {
            key: a.testKey,
            body: { brand: a.brandId, content: { body }, publish_at: "next_slot" },
          })
        ).status,
      ).toBe(201);
    const owner = adminActor(a.orgId, "test", scopesOfRole("owner"));
    expect(await countWaitingForSlot(t.app, owner, a.brandId)).toBe(2);
    expect(await countWaitingForSlot(t.app, { ...owner, livemode: true }, a.brandId)).toBe(0);
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    expect((await b.get(`/queue?brand=${a.brandId}`)).html).toContain("2 posts wait for approval</a>");
  });

  test("channels_needs_reauth is partial; both counts read an index", async () => {
    const defs = await indexDefinitions(t, dialect, "channels");
    expect(defs.channels_needs_reauth).toMatch(/\(\s*org_id,\s*livemode,\s*brand_id\s*\)\s*WHERE/i);
    expect(defs.channels_needs_reauth).toContain("needs_reauth");
    if (dialect !== "sqlite") return;
    const a = await tenant(t.app);
    const owner = adminActor(a.orgId, "test", scopesOfRole("owner"));
    const seen = await statementsOf(t, async (app) => {
      await countChannelsNeedingReauth(app, owner);
      await countWaitingForSlot(app, owner, a.brandId);
    });
    const reauth = seen.find((s) => /from "channels"/i.test(s.sql))!;
    expect(explain(t, reauth.sql, reauth.parameters).join("\n")).toMatch(
      /USING (COVERING )?INDEX channels_needs_reauth/,
    );
    const waiting = seen.find((s) => /from "posts"/i.test(s.sql))!;
    expect(explain(t, waiting.sql, waiting.parameters).join("\n")).toMatch(
      /INDEX posts_brand_time \(org_id=\? AND livemode=\? AND brand_id=\? AND publish_at=\?\)|INDEX posts_brand_time \(org_id=\? AND livemode=\? AND brand_id=\? AND publish_at IS NULL\)/,
    );
  });
});
