// The report's `ads` and `analytics` sections from seeded daily rows, checked against figures computed here: the
// period beside the previous one in the brand's zone, spend per currency, campaigns, signups from paid visits and
// the cost per signup, top posts and untagged visits; null when there is nothing. Both databases.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { adsReportSection } from "../../../src/domain/ads/report-section.ts";
import { analyticsReportSection } from "../../../src/domain/analytics/report-section.ts";
import type { ReportSectionInput } from "../../../src/domain/reports/sections.ts";
import { zonedToUtc } from "../../../src/lib/zoned.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

describeEachDialect("ads and analytics report sections", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeEach(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
  });
  afterEach(async () => {
    await t.close();
  });

  // February 2026 in New York, beside January (reference: the previous period of equal length is the month before
  // for a month report; here the 28 days before).
  const tz = "America/New_York";
  const since = zonedToUtc(2026, 2, 1, 0, 0, tz);
  const until = zonedToUtc(2026, 3, 1, 0, 0, tz);
  const input = (): ReportSectionInput => ({
    orgId: a.orgId,
    mode: "test",
    livemode: false,
    brandId: a.brandId,
    timezone: tz,
    since,
    until,
    previousSince: since - (until - since),
    previousUntil: since,
  });

  async function account(id: string, currency: string) {
    const now = Date.now();
    await t.app.db
      .insertInto("ad_accounts")
      .values({
        id,
        org_id: a.orgId,
        livemode: 0,
        brand_id: a.brandId,
        network: "sandbox",
        external_id: id,
        name: id,
        currency,
        settings: "{}",
        secrets: null,
        status: "active",
        status_note: null,
        collected_at: now,
        next_collect_at: now,
        collect_failures: 0,
        last_error: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  const spend = (account_id: string, currency: string, day: string, campaign_id: string, amount: number) =>
    t.app.db
      .insertInto("ad_daily")
      .values({
        account_id,
        day,
        campaign_id,
        org_id: a.orgId,
        livemode: 0,
        brand_id: a.brandId,
        campaign_name: `Campaign ${campaign_id}`,
        currency,
        spend: amount,
        impressions: amount * 2,
        clicks: 1,
      })
      .execute();

  async function source(goals: string[]) {
    const now = Date.now();
    await t.app.db
      .insertInto("analytics_sources")
      .values({
        id: "anlsrc_0000000000000000000000000a",
        org_id: a.orgId,
        livemode: 0,
        brand_id: a.brandId,
        provider: "sandbox",
        external_id: "example.com",
        name: "example.com",
        goals: JSON.stringify(goals),
        settings: "{}",
        secrets: null,
        status: "active",
        status_note: null,
        collected_at: now,
        next_collect_at: now,
        collect_failures: 0,
        last_error: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  const visit = (day: string, medium: string, content: string, goal: string, n: number) =>
    t.app.db
      .insertInto("analytics_daily")
      .values({
        source_id: "anlsrc_0000000000000000000000000a",
        day,
        utm_source: medium ? "meta" : "",
        utm_medium: medium,
        utm_campaign: "",
        utm_content: content,
        goal,
        org_id: a.orgId,
        livemode: 0,
        brand_id: a.brandId,
        visitors: goal === "" ? n : 0,
        conversions: goal === "" ? 0 : n,
      })
      .execute();

  test("nothing read: both sections are null", async () => {
    expect(await adsReportSection(t.app, input())).toBeNull();
    expect(await analyticsReportSection(t.app, input())).toBeNull();
  });

  test("figures of the period beside the previous one, per currency; cost per signup from paid visits", async () => {
    await account("adacct_0000000000000000000000000a", "USD");
    await account("adacct_0000000000000000000000000b", "JPY");
    const usd = "adacct_0000000000000000000000000a";
    const jpy = "adacct_0000000000000000000000000b";
    // In the period (the brand's February), its edges, and outside it.
    await spend(usd, "USD", "2026-02-01", "c1", 1000);
    await spend(usd, "USD", "2026-02-28", "c1", 500);
    await spend(usd, "USD", "2026-02-14", "c2", 2500);
    await spend(jpy, "JPY", "2026-02-10", "j1", 3000);
    await spend(usd, "USD", "2026-01-20", "c1", 700); // previous period
    await spend(usd, "USD", "2026-03-01", "c1", 99_999); // after it
    await source(["Signup"]);
    await visit("2026-02-03", "paid", "", "", 80);
    await visit("2026-02-03", "paid", "", "Signup", 8);
    await visit("2026-02-05", "social", "post_0000000000000000000000000p", "", 30);
    await visit("2026-02-05", "social", "post_0000000000000000000000000p", "Signup", 2);
    await visit("2026-02-06", "social", "post_0000000000000000000000000q", "", 45);
    await visit("2026-02-07", "", "", "", 200);
    await visit("2026-01-25", "paid", "", "Signup", 4);
    await visit("2026-01-25", "", "", "", 150);

    const ads = (await adsReportSection(t.app, input())) as Record<string, unknown>;
    expect(ads.spend).toEqual([
      { currency: "JPY", value: 3000, previous: 0 },
      { currency: "USD", value: 1000 + 500 + 2500, previous: 700 },
    ]);
    expect(
      (ads.campaigns as { campaign: string; spend: unknown }[]).map((c) => [c.campaign, c.spend]),
    ).toEqual([
      ["j1", { value: 3000, previous: 0 }],
      ["c2", { value: 2500, previous: 0 }],
      ["c1", { value: 1500, previous: 700 }],
    ]);
    expect(ads.signups).toEqual({ value: 8, previous: 4 });
    expect(ads.cost_per_signup).toEqual([
      // No yen spent in January: nothing per signup (null only when there was no signup to divide by).
      { currency: "JPY", value: Math.round(3000 / 8), previous: 0 },
      { currency: "USD", value: Math.round(4000 / 8), previous: Math.round(700 / 4) },
    ]);

    const visits = (await analyticsReportSection(t.app, input())) as Record<string, unknown>;
    expect(visits.visitors).toEqual({ value: 80 + 30 + 45 + 200, previous: 150 });
    expect(visits.conversions).toEqual({ value: 10, previous: 4 });
    expect(visits.goals).toEqual([{ goal: "Signup", value: 10, previous: 4 }]);
    expect(visits.top_posts).toEqual([
      { post: "post_0000000000000000000000000q", visitors: 45, conversions: 0 },
      { post: "post_0000000000000000000000000p", visitors: 30, conversions: 2 },
    ]);
    expect(visits.untagged).toEqual({ value: 200, previous: 150 });
  });

  test("without goals the ads section leaves signups out; another org's rows never show", async () => {
    await account("adacct_0000000000000000000000000a", "EUR");
    await spend("adacct_0000000000000000000000000a", "EUR", "2026-02-02", "e1", 1234);
    const other = await tenant(t.app);
    const ads = await adsReportSection(t.app, { ...input(), orgId: other.orgId, brandId: other.brandId });
    expect(ads).toBeNull();
    const mine = (await adsReportSection(t.app, input())) as Record<string, unknown>;
    expect(mine.spend).toEqual([{ currency: "EUR", value: 1234, previous: 0 }]);
    expect("signups" in mine).toBe(false);
    expect(await adsReportSection(t.app, { ...input(), mode: "live", livemode: true })).toBeNull();
  });
});
