// Plausible's Stats API v2 against its stand-in (every query checked against Plausible's query schema): connecting
// checks the key and site, analytics.collect reads visitors and goal conversions by day and UTM tags (30 days,
// then 7), "(none)" is no tag, and the documented failures are classified: a revoked key (401) marks the source
// needs_reauth, the rate limit (429) and server errors are retried. The summary is checked against figures summed
// here from the stand-in's data. Both databases.
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "bun:test";
import { collectDueAnalyticsSources } from "../../src/domain/analytics/collect.ts";
import { FakeClock } from "../../src/lib/clock.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { type PlausibleStandIn, type PlausibleVisit, startPlausible } from "../stand-ins/plausible.ts";
import { expectClean } from "../stand-ins/server.ts";

const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

let plausible: PlausibleStandIn;
beforeAll(async () => {
  plausible = await startPlausible();
});
afterAll(() => plausible.stop());

describeEachDialect("Plausible", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  const clock = new FakeClock(Date.parse("2026-03-10T12:00:00Z"));
  beforeEach(async () => {
    clock.set(Date.parse("2026-03-10T12:00:00Z"));
    t = await testApp(dialect, {
      clock,
      env: { SVC_ALLOW_PRIVATE_NETWORKS: "true", SVC_PROVIDER_ORIGINS: `plausible=${plausible.url}` },
    });
    a = await tenant(t.app);
    plausible.sites.clear();
    plausible.requests.length = 0;
  });
  afterEach(async () => {
    expectClean(plausible);
    await t.close();
  });

  function seed(site: string): PlausibleVisit[] {
    const visits: PlausibleVisit[] = [];
    for (let d = 0; d < 40; d++) {
      const day = dayOf(clock.now() - d * DAY);
      visits.push({ day, visitors: 50 + d, goals: { Signup: 2 } });
      visits.push({
        day,
        source: "bluesky",
        medium: "social",
        content: "post_0000000000000000000000000a",
        visitors: 10 + (d % 3),
        goals: { Signup: 1, Trial: 1 },
      });
      visits.push({
        day,
        source: "newsletter",
        medium: "email",
        campaign: "nl_1",
        content: "link-1",
        visitors: 5,
        goals: { Purchase: 3 },
      });
    }
    plausible.sites.set(site, { key: `key-${site}`, visits });
    return visits;
  }
  const connect = (fields: Record<string, string>, goals = ["Signup", "Trial"]) =>
    t.request("POST", "/v1/analytics_sources", {
      key: a.liveKey,
      body: { brand: a.brandId, provider: "plausible", goals, fields },
    });

  test("connecting checks the key and the site; nothing is stored when refused; the key is sealed", async () => {
    seed("acme.com");
    const wrong = await connect({ site_id: "acme.com", api_key: "nope" });
    expect([wrong.status, wrong.body.code]).toEqual([422, "connect_failed"]);
    const missing = await connect({ site_id: "other.com", api_key: "key-acme.com" });
    expect([missing.status, missing.body.code, missing.body.errors[0].detail.reason]).toEqual([
      422,
      "connect_failed",
      expect.stringContaining("not found"),
    ]);
    plausible.fail("server_error");
    expect((await connect({ site_id: "acme.com", api_key: "key-acme.com" })).status).toBe(503);
    expect(await t.app.db.selectFrom("analytics_sources").selectAll().execute()).toEqual([]);
    const ok = await connect({ site_id: "acme.com", api_key: "key-acme.com" });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      provider: "plausible",
      site: "acme.com",
      goals: ["Signup", "Trial"],
      livemode: true,
    });
    const row = await t.app.db.selectFrom("analytics_sources").selectAll().executeTakeFirstOrThrow();
    expect(row.secrets).not.toContain("key-acme.com");
    expect((await connect({ site_id: "acme.com", api_key: "key-acme.com" })).body.code).toBe(
      "analytics_source_connected",
    );
  });

  test("analytics.collect reads visitors and goal conversions by day and tags; the summary matches", async () => {
    const visits = seed("acme.com");
    await connect({ site_id: "acme.com", api_key: "key-acme.com" });
    expect(await collectDueAnalyticsSources(t.app)).toEqual({ read: 1, refused: 0, failed: 0 });
    // After the connect's check (date_range "day"), two reads: visitors, then goal conversions.
    const queries = plausible.requests
      .map((r) => r.body as { date_range: string | string[]; dimensions: string[] })
      .filter((q) => Array.isArray(q.date_range));
    const since = dayOf(clock.now() - 29 * DAY);
    const today = dayOf(clock.now());
    expect(queries.map((q) => q.date_range)).toEqual([
      [since, today],
      [since, today],
    ]);
    expect(queries[1]!.dimensions).toContain("event:goal");

    const inWindow = visits.filter((v) => v.day >= since && v.day <= today);
    const visitors = (f: (v: PlausibleVisit) => boolean) =>
      inWindow.filter(f).reduce((n, v) => n + v.visitors, 0);
    const goal = (f: (v: PlausibleVisit) => boolean, g: string) =>
      inWindow.filter(f).reduce((n, v) => n + (v.goals?.[g] ?? 0), 0);
    const byPost = (await t.request("GET", "/v1/analytics/summary?group_by=post", { key: a.liveKey })).body;
    const isPost = (v: PlausibleVisit) => v.content === "post_0000000000000000000000000a";
    const bare = (v: PlausibleVisit) => !v.source;
    expect(byPost.data).toEqual([
      {
        post: "untagged",
        visitors: visitors(bare),
        conversions: { Signup: goal(bare, "Signup") },
        conversions_total: goal(bare, "Signup"),
      },
      {
        post: "post_0000000000000000000000000a",
        visitors: visitors(isPost),
        conversions: { Signup: goal(isPost, "Signup"), Trial: goal(isPost, "Trial") },
        conversions_total: goal(isPost, "Signup") + goal(isPost, "Trial"),
      },
    ]);
    // Newsletter visits are not a post's, but count in the totals; Purchase is not a goal of this source.
    expect(byPost.totals.visitors).toBe(visitors(() => true));
    expect(Object.keys(byPost.totals.conversions).sort()).toEqual(["Signup", "Trial"]);
    const byMedium = (await t.request("GET", "/v1/analytics/summary?group_by=medium", { key: a.liveKey }))
      .body;
    expect(byMedium.data.map((g: { medium: string; visitors: number }) => [g.medium, g.visitors])).toEqual([
      ["untagged", visitors(bare)],
      ["social", visitors(isPost)],
      ["email", visitors((v) => v.medium === "email")],
    ]);
  });

  test("documented failures: a revoked key marks needs_reauth; the rate limit and server errors are retried", async () => {
    seed("acme.com");
    const s = (await connect({ site_id: "acme.com", api_key: "key-acme.com" })).body;
    plausible.fail("rate_limited");
    expect((await collectDueAnalyticsSources(t.app)).failed).toBe(1);
    clock.advance(3_600_000);
    plausible.fail("server_error");
    expect((await collectDueAnalyticsSources(t.app)).failed).toBe(1);
    clock.advance(2 * 3_600_000);
    plausible.fail("revoked");
    expect((await collectDueAnalyticsSources(t.app)).refused).toBe(1);
    const got = (await t.request("GET", `/v1/analytics_sources/${s.id}`, { key: a.liveKey })).body;
    expect([got.status, got.status_note]).toEqual([
      "needs_reauth",
      expect.stringContaining("Invalid API key"),
    ]);
  });
});
