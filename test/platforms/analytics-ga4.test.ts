// Google Analytics 4 (Data API v1beta) against its stand-in (runReport checked against the Discovery document's
// RunReportRequest/RunReportResponse): the refresh token is exchanged at Google's token endpoint, visitors
// (activeUsers) and goal conversions (eventCount of the named events) are read by date and session source, medium,
// campaign and manual ad content; "(direct)", "(none)" and "(not set)" are no tag. Documented failures: a
// revoked grant (invalid_grant) marks the source needs_reauth; quota (429) and 503 are retried. Both databases.
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "bun:test";
import { collectDueAnalyticsSources } from "../../src/domain/analytics/collect.ts";
import { FakeClock } from "../../src/lib/clock.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { type GaDay, type GaStandIn, startGoogleAnalytics } from "../stand-ins/google-analytics.ts";
import { expectClean } from "../stand-ins/server.ts";

const DAY = 86_400_000;
const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll("-", "");

let ga: GaStandIn;
beforeAll(async () => {
  ga = await startGoogleAnalytics();
});
afterAll(() => ga.stop());

describeEachDialect("Google Analytics 4", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  const clock = new FakeClock(Date.parse("2026-03-10T12:00:00Z"));
  beforeEach(async () => {
    clock.set(Date.parse("2026-03-10T12:00:00Z"));
    t = await testApp(dialect, {
      clock,
      env: {
        SVC_ALLOW_PRIVATE_NETWORKS: "true",
        SVC_PROVIDER_ORIGINS: `google_analytics=${ga.url},google_analytics.oauth=${ga.url}`,
      },
    });
    a = await tenant(t.app);
    ga.properties.clear();
    ga.grants.clear();
    ga.requests.length = 0;
  });
  afterEach(async () => {
    expectClean(ga);
    await t.close();
  });

  function seed(property: string): GaDay[] {
    const rows: GaDay[] = [];
    for (let d = 0; d < 35; d++) {
      const date = ymd(clock.now() - d * DAY);
      rows.push({
        date,
        source: "",
        medium: "",
        campaign: "",
        content: "",
        activeUsers: 70 + d,
        events: { sign_up: 3, page_view: 400 },
      });
      rows.push({
        date,
        source: "mastodon",
        medium: "social",
        campaign: "release",
        content: "post_0000000000000000000000000b",
        activeUsers: 9,
        events: { sign_up: 1 },
      });
    }
    ga.properties.set(property, rows);
    ga.grants.set("1//refresh", "client-1.apps.googleusercontent.com");
    return rows;
  }
  const fields = {
    property_id: "123456",
    client_id: "client-1.apps.googleusercontent.com",
    client_secret: "secret",
    refresh_token: "1//refresh",
  };
  const connect = (f: Record<string, string> = fields) =>
    t.request("POST", "/v1/analytics_sources", {
      key: a.liveKey,
      body: { brand: a.brandId, provider: "ga4", goals: ["sign_up"], fields: f },
    });

  test("connect, collect and summarise; the summary matches figures summed here", async () => {
    const rows = seed("123456");
    const denied = await connect({ ...fields, property_id: "999" });
    expect([denied.status, denied.body.code]).toEqual([422, "connect_failed"]);
    const badGrant = await connect({ ...fields, refresh_token: "1//other" });
    expect([badGrant.status, badGrant.body.errors[0].detail.reason]).toEqual([
      422,
      expect.stringContaining("invalid_grant"),
    ]);
    const ok = await connect();
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ provider: "ga4", site: "123456", goals: ["sign_up"] });
    const stored = await t.app.db.selectFrom("analytics_sources").selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.secrets).not.toContain("1//refresh");

    expect(await collectDueAnalyticsSources(t.app)).toEqual({ read: 1, refused: 0, failed: 0 });
    const from = ymd(clock.now() - 29 * DAY);
    const inWindow = rows.filter((r) => r.date >= from);
    const sum = (f: (r: GaDay) => boolean, pick: (r: GaDay) => number) =>
      inWindow.filter(f).reduce((n, r) => n + pick(r), 0);
    const post = (r: GaDay) => r.content.startsWith("post_");
    const bare = (r: GaDay) => r.source === "";
    const summary = (await t.request("GET", "/v1/analytics/summary?group_by=post", { key: a.liveKey })).body;
    expect(summary.data).toEqual([
      {
        post: "untagged",
        visitors: sum(bare, (r) => r.activeUsers),
        conversions: { sign_up: sum(bare, (r) => r.events!.sign_up!) },
        conversions_total: sum(bare, (r) => r.events!.sign_up!),
      },
      {
        post: "post_0000000000000000000000000b",
        visitors: sum(post, (r) => r.activeUsers),
        conversions: { sign_up: sum(post, () => 1) },
        conversions_total: sum(post, () => 1),
      },
    ]);
    const byCampaign = (await t.request("GET", "/v1/analytics/summary?group_by=campaign", { key: a.liveKey }))
      .body;
    expect(byCampaign.data.map((g: { campaign: string }) => g.campaign)).toEqual(["untagged", "release"]);
  });

  test("documented failures: quota and outages are retried; a revoked grant marks needs_reauth", async () => {
    seed("123456");
    const s = (await connect()).body;
    ga.fail("rate_limited");
    expect((await collectDueAnalyticsSources(t.app)).failed).toBe(1);
    clock.advance(3_600_000);
    ga.fail("server_error");
    expect((await collectDueAnalyticsSources(t.app)).failed).toBe(1);
    clock.advance(2 * 3_600_000);
    expect((await collectDueAnalyticsSources(t.app)).read).toBe(1);
    clock.advance(86_400_000);
    ga.grants.clear();
    expect((await collectDueAnalyticsSources(t.app)).refused).toBe(1);
    const got = (await t.request("GET", `/v1/analytics_sources/${s.id}`, { key: a.liveKey })).body;
    expect([got.status, got.status_note]).toEqual(["needs_reauth", expect.stringContaining("invalid_grant")]);
  });
});
