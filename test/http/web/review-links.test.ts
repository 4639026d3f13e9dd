// The brand page's client review links in process: an owner makes one (its address in that answer only, then
// never again), sees it listed and withdraws it; the link's creator is the person; another org's and the other
// mode's links look missing; a cross-site form and an editor are refused; what was typed is escaped.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { member, type Tenant, tenant } from "../../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";
const XSS = `<script>alert(1)</script>`;

describeEachDialect("dashboard client review links", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let b: Tenant;
  let owner: TestBrowser;
  beforeAll(async () => {
    t = await webApp(dialect);
    a = await tenant(t.app, "Review Bakery");
    b = await tenant(t.app, "Other Org");
    owner = new TestBrowser(t);
    await owner.signIn(a.email, PASSWORD);
  });
  afterAll(() => t.close());

  const linkIn = (html: string) =>
    /(http:\/\/localhost:8080\/review\/svc_review_[0-9A-Za-z]{32})/.exec(html)?.[1];

  test("make a link: shown once, listed without it, made by the person; withdraw it", async () => {
    await owner.get(`/brands/${a.brandId}`);
    const made = await owner.post(`/brands/${a.brandId}/review-links`, { name: XSS, days: "7" });
    expect(made.status).toBe(200);
    const url = linkIn(made.html);
    expect(url).toBeDefined();
    expect(made.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(made.html).not.toContain("<script>alert(1)");
    const again = await owner.get(`/brands/${a.brandId}`);
    expect(linkIn(again.html)).toBeUndefined();
    const row = await t.app.db
      .selectFrom("review_links")
      .selectAll()
      .where("org_id", "=", a.orgId)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(again.html).toContain(`id="review-link-${row.id}"`);
    expect([row.created_by_user, row.created_by_key, row.livemode]).toEqual([a.userId, null, 0]);
    // Seven days from the moment the form was read (a few milliseconds before the row was written).
    expect(Math.abs(row.expires_at - row.created_at - 7 * 86400_000)).toBeLessThan(1000);
    // It opens, signed out.
    expect((await new TestBrowser(t).get(new URL(url!).pathname)).status).toBe(200);

    const w = await owner.post(`/brands/${a.brandId}/review-links/${row.id}/withdraw`, {});
    expect(w.status).toBe(303);
    const after = await owner.follow(w);
    expect(after.html).toContain("Review link withdrawn");
    expect((await new TestBrowser(t).get(new URL(url!).pathname)).status).toBe(404);
  });

  test("a missing name is shown beside its field; nothing is made", async () => {
    await owner.get(`/brands/${a.brandId}`);
    const before = await t.app.db
      .selectFrom("review_links")
      .select("id")
      .where("org_id", "=", a.orgId)
      .execute();
    const r = await owner.post(`/brands/${a.brandId}/review-links`, { name: "  ", days: "30" });
    expect(r.status).toBe(422);
    expect(r.html).toContain('id="f-review-name-error"');
    const after = await t.app.db
      .selectFrom("review_links")
      .select("id")
      .where("org_id", "=", a.orgId)
      .execute();
    expect(after.length).toBe(before.length);
  });

  test("another org's and the live mode's links look missing; cross-site and an editor are refused", async () => {
    const theirs = await t.request("POST", "/v1/review_links", {
      key: b.testKey,
      body: { brand: b.brandId, name: "Theirs" },
    });
    const live = await t.request("POST", "/v1/review_links", {
      key: a.liveKey,
      body: { brand: a.brandId, name: "Live one" },
    });
    await owner.get(`/brands/${a.brandId}`);
    for (const id of [theirs.body.id, live.body.id]) {
      const r = await owner.post(`/brands/${a.brandId}/review-links/${id}/withdraw`, {});
      expect(r.status).toBe(404);
    }
    expect((await owner.get(`/brands/${a.brandId}`)).html).not.toContain("Live one");
    for (const [k, id] of [
      [b.testKey, theirs.body.id],
      [a.liveKey, live.body.id],
    ] as const)
      expect((await t.request("GET", `/v1/review_links/${id}`, { key: k })).body.status).toBe("active");
    // Another org's brand is not this org's to make links for.
    expect((await owner.post(`/brands/${b.brandId}/review-links`, { name: "x", days: "1" })).status).toBe(
      404,
    );

    const cross = await owner.post(
      `/brands/${a.brandId}/review-links`,
      { name: "x" },
      { site: "cross-site" },
    );
    expect(cross.status).toBe(403);
    await member(t.app, a.orgId, "ed-review@example.com", "editor");
    const editor = new TestBrowser(t);
    await editor.signIn("ed-review@example.com", PASSWORD);
    await editor.get("/home");
    const refused = await editor.post(`/brands/${a.brandId}/review-links`, { name: "x", days: "1" });
    expect(refused.status).toBe(403);
  });
});
