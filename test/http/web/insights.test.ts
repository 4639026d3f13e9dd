// The dashboard's Insights page in process: empty states, then the org's ad accounts and analytics sources of this
// mode with spend per campaign and visitors per post after collection; names people typed are escaped; another
// org's accounts never show.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { collectDueAdAccounts } from "../../../src/domain/ads/collect.ts";
import { collectDueAnalyticsSources } from "../../../src/domain/analytics/collect.ts";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { tenant } from "../../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";
const MARKUP = `<img src=x onerror="alert(1)">&<b>`;

describeEachDialect("dashboard insights", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await webApp(dialect);
  });
  afterAll(() => t.close());

  test("empty, then accounts, campaigns and visits of this org and mode, escaped", async () => {
    const a = await tenant(t.app);
    const other = await tenant(t.app);
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const empty = await b.get("/insights");
    expect(empty.status).toBe(200);
    expect(empty.html).toContain('id="ad-accounts-empty"');
    expect(empty.html).toContain('id="analytics-sources-empty"');
    expect(empty.html).toContain('href="/insights"');

    const mine = await t.request("POST", "/v1/ad_accounts", {
      key: a.testKey,
      body: { brand: a.brandId, network: "sandbox", fields: { account_name: MARKUP } },
    });
    const theirs = await t.request("POST", "/v1/ad_accounts", {
      key: other.testKey,
      body: { brand: other.brandId, network: "sandbox", fields: { account_name: "Theirs" } },
    });
    await t.request("POST", "/v1/analytics_sources", {
      key: a.testKey,
      body: { brand: a.brandId, provider: "sandbox", goals: ["Signup"] },
    });
    await collectDueAdAccounts(t.app);
    await collectDueAnalyticsSources(t.app);
    const page = await b.get("/insights");
    expect(page.html).toContain(`id="ad-account-${mine.body.id}"`);
    expect(page.html).not.toContain(theirs.body.id);
    expect(page.html).not.toContain(MARKUP);
    expect(page.html).toContain("&lt;img src=x");
    expect(page.html).toContain('id="campaigns"');
    expect(page.html).toContain("Spring launch");
    expect(page.html).toContain('id="post-visits"');
    expect(page.html).toContain("Untagged visits");
  });
});
