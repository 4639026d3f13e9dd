// The dashboard's /reports page: a member sees the brand's month with its charts; an owner creates a share link
// (its address shown once), withdraws it, and edits the monthly email's recipients, each form with its CSRF token;
// a viewer sees the report but none of those controls and cannot post them; a form from another site changes
// nothing. Both databases.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { FakeClock } from "../../../src/lib/clock.ts";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { member, type Tenant, tenant } from "../../helpers/factories.ts";
import { seedPublished } from "../../helpers/published.ts";

const PASSWORD = "correct horse battery staple";

describeEachDialect("dashboard reports page", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  const clock = new FakeClock();
  beforeEach(async () => {
    clock.set("2026-04-10T12:00:00Z");
    t = await webApp(dialect, { clock });
    a = await tenant(t.app);
    await seedPublished(t.app, { orgId: a.orgId, brandId: a.brandId, livemode: false }, [
      {
        publishedAt: Date.parse("2026-03-12T15:00:00Z"),
        provider: "bluesky",
        text: "<img src=x onerror=alert(1)> Our March news",
        likes: 12,
        reposts: 3,
        replies: 1,
        quotes: 0,
        views: null,
      },
    ]);
  });
  afterEach(async () => {
    await t.close();
  });

  test("an owner sees the month, shares it once, withdraws it and edits recipients", async () => {
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const p = await b.get("/reports");
    expect(p.status).toBe(200);
    expect(p.html).toContain('id="report"');
    expect(p.html).toContain("March 2026");
    expect(p.html).toContain("&lt;img src=x onerror=alert(1)&gt; Our March news");
    expect(p.html).toContain('<svg class="chart"');
    expect(p.html).toContain('aria-current="page">Reports');

    const shared = await b.post("/reports/share", { brand: a.brandId, month: "2026-03" });
    expect(shared.status).toBe(201);
    const url = /id="share-url"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*id="share-url"/.exec(shared.html);
    const link = (url?.[1] ?? url?.[2])!;
    expect(link).toMatch(/\/shared\/reports\/rpt_/);
    // Shown once: the page after it lists the link by its last characters only.
    const again = await b.get("/reports?month=2026-03");
    expect(again.html).not.toContain(link);
    expect(again.html).toContain(`…${link.slice(-4)}`);
    expect((await t.http.handle(new Request(`http://localhost${new URL(link).pathname}`))).status).toBe(200);

    // Another site's form is refused and withdraws nothing.
    const id = (await t.app.db.selectFrom("report_share_links").select("id").executeTakeFirstOrThrow()).id;
    const cross = await b.post(`/reports/share/${id}/withdraw`, { month: "2026-03" }, { site: "cross-site" });
    expect(cross.status).toBe(403);
    expect((await t.http.handle(new Request(`http://localhost${new URL(link).pathname}`))).status).toBe(200);
    const w = await b.post(`/reports/share/${id}/withdraw`, { month: "2026-03" });
    expect(w.status).toBe(303);
    expect((await t.http.handle(new Request(`http://localhost${new URL(link).pathname}`))).status).toBe(404);

    const added = await b.post("/reports/recipients", {
      brand: a.brandId,
      month: "2026-03",
      email: "client@example.com",
    });
    expect(added.status).toBe(303);
    const dup = await b.post("/reports/recipients", {
      brand: a.brandId,
      month: "2026-03",
      email: "client@example.com",
    });
    expect(dup.status).toBe(409);
    expect(dup.html).toContain("already gets this brand");
    const listed = await b.get("/reports?month=2026-03");
    expect(listed.html).toContain("client@example.com");
    const removed = await b.post("/reports/recipients/remove", {
      brand: a.brandId,
      month: "2026-03",
      email: "client@example.com",
    });
    expect(removed.status).toBe(303);
    expect((await b.get("/reports?month=2026-03")).html).not.toContain("client@example.com");
    const badMonth = await b.get("/reports?month=2026-13");
    expect(badMonth.html).toContain("month is YYYY-MM");
  });

  test("a viewer sees the report but cannot share it or edit recipients", async () => {
    await member(t.app, a.orgId, "viewer@example.com", "viewer");
    const b = new TestBrowser(t);
    await b.signIn("viewer@example.com", PASSWORD);
    const p = await b.get("/reports?month=2026-03");
    expect(p.status).toBe(200);
    expect(p.html).toContain("Our March news");
    expect(p.html).not.toContain('id="share-form"');
    expect(p.html).not.toContain('id="recipient-form"');
    const refused = await b.post("/reports/share", { brand: a.brandId, month: "2026-03" });
    expect(refused.status).toBe(403);
    expect(await t.app.db.selectFrom("report_share_links").select("id").execute()).toHaveLength(0);
  });
});
