// Web analytics end to end in test mode against the sandbox tool: a post published with a link to the brand's
// UTM domain is tagged by render, the sandbox reports visits with those tags, analytics.collect keeps daily
// aggregates only (30 days first, then 7), and the summary per post, source, medium, campaign, content and day
// matches figures computed here; goals' limits, duplicate sources, mode rules, refusals and org/mode isolation.
// Both databases.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { collectDueAnalyticsSources } from "../../../src/domain/analytics/collect.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import { sandboxAnalyticsDay } from "../../../src/platforms/analytics/sandbox.ts";
import type { AnalyticsRow } from "../../../src/platforms/analytics/types.ts";
import { startPublishWorker } from "../../../src/queue/publish/worker.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { schemaErrors } from "../../helpers/schemas.ts";

const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describeEachDialect("analytics sources", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let clock: FakeClock;
  beforeEach(async () => {
    clock = new FakeClock(Date.parse("2026-03-10T12:00:00Z"));
    t = await testApp(dialect, { clock });
    a = await tenant(t.app);
  });
  afterEach(async () => {
    await t.close();
  });

  const connect = (body: unknown, k = a.testKey) =>
    t.request("POST", "/v1/analytics_sources", { key: k, body });
  const stored = async () =>
    Number(
      (
        await t.app.db
          .selectFrom("analytics_sources")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  async function publish(body: string) {
    const r = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: { brand: a.brandId, content: { body } },
    });
    expect(r.status).toBe(201);
    const w = startPublishWorker(t.app, { adapterFor, pollMs: 20 });
    for (let i = 0; i < 50; i++) {
      await Bun.sleep(20);
      await w.idle();
      const p = (await t.request("GET", `/v1/posts/${r.body.id}`, { key: a.testKey })).body;
      if (!["scheduled", "publishing"].includes(p.status)) break;
    }
    await w.stop();
    return (await t.request("GET", `/v1/posts/${r.body.id}`, { key: a.testKey })).body;
  }

  test("connecting refuses bad goals, providers and modes with their codes, storing nothing", async () => {
    const providers = await t.request("GET", "/v1/analytics_providers", { key: a.testKey });
    expect(providers.body.data.map((p: { provider: string }) => p.provider)).toEqual([
      "sandbox",
      "plausible",
      "ga4",
    ]);
    expect(schemaErrors("AnalyticsProvider", providers.body.data[2])).toBe("");
    const codes = async (body: unknown, k = a.testKey) => {
      const r = await connect(body, k);
      return [r.status, r.body.errors?.map((e: { code: string }) => e.code) ?? r.body.code];
    };
    const many = Array.from({ length: 21 }, (_, i) => `Goal ${i}`);
    expect(await codes({ brand: a.brandId, provider: "sandbox", goals: many })).toEqual([
      422,
      ["goals_too_many"],
    ]);
    expect(
      await codes({
        brand: a.brandId,
        provider: "sandbox",
        goals: ["x".repeat(121), "", "Signup", "Signup"],
      }),
    ).toEqual([422, ["goal_invalid", "goal_invalid", "goal_invalid"]]);
    expect(await codes({ brand: a.brandId, provider: "matomo" })).toEqual([422, ["provider_unsupported"]]);
    expect(
      await codes({ brand: a.brandId, provider: "plausible", fields: { site_id: "a.com", api_key: "k" } }),
    ).toEqual([422, ["livemode_required"]]);
    expect(await codes({ brand: a.brandId, provider: "sandbox" }, a.liveKey)).toEqual([
      422,
      ["testmode_required"],
    ]);
    expect(await codes({ brand: a.brandId, provider: "sandbox", fields: { token: "x" } })).toEqual([
      422,
      ["field_unknown"],
    ]);
    expect(await stored()).toBe(0);

    const ok = await connect({ brand: a.brandId, provider: "sandbox", goals: ["Signup", "x".repeat(120)] });
    expect(ok.status).toBe(201);
    expect(schemaErrors("AnalyticsSource", ok.body)).toBe("");
    expect([ok.body.site, ok.body.goals.length, ok.body.status]).toEqual(["example.com", 2, "active"]);
    expect(await codes({ brand: a.brandId, provider: "sandbox", fields: { site: "example.com" } })).toEqual([
      409,
      "analytics_source_connected",
    ]);
    expect(await stored()).toBe(1);
  });

  test("visits per post come from the tags render wrote; untagged visits are their own group", async () => {
    await t.request("POST", `/v1/brands/${a.brandId}`, {
      key: a.testKey,
      body: { utm_domains: ["example.com"] },
    });
    clock.advance(-3 * DAY);
    const post = await publish("Our launch: https://example.com/launch");
    clock.advance(3 * DAY);
    const target = post.targets[0];
    expect(target.status).toBe("published");
    // What the network received carries svc's tags: source the network, medium social, content the post ID.
    const text = target.parts[0] as string;
    const url = new URL(text.slice(text.indexOf("https://")));
    expect([url.searchParams.get("utm_medium"), url.searchParams.get("utm_content")]).toEqual([
      "social",
      post.id,
    ]);
    const network = url.searchParams.get("utm_source")!;

    const source = (await connect({ brand: a.brandSlug, provider: "sandbox", goals: ["Signup", "Trial"] }))
      .body;
    expect(await collectDueAnalyticsSources(t.app)).toEqual({ read: 1, refused: 0, failed: 0 });
    const now = clock.now();
    const days = Array.from({ length: 30 }, (_, i) => dayOf(now - (29 - i) * DAY));
    // Only daily aggregates are kept: one row per day and tag combination (and goal), never a visit.
    const rows = await t.app.db.selectFrom("analytics_daily").selectAll().execute();
    expect(Object.keys(rows[0]!).sort()).toEqual(
      [
        "brand_id",
        "conversions",
        "day",
        "goal",
        "livemode",
        "org_id",
        "source_id",
        "utm_campaign",
        "utm_content",
        "utm_medium",
        "utm_source",
        "visitors",
      ].sort(),
    );
    expect([...new Set(rows.map((r) => r.day))].sort()).toEqual(days);

    // Independently: the sandbox's formula for these days, this post and these goals, summed here.
    const posts = [
      { id: post.id, published_at: Date.parse(target.published_at), providers: [network], template: null },
    ];
    const all: AnalyticsRow[] = days.flatMap((d) => sandboxAnalyticsDay(d, ["Signup", "Trial"], posts));
    const sum = (xs: AnalyticsRow[], f: (r: AnalyticsRow) => number) => xs.reduce((n, r) => n + f(r), 0);
    const tagged = all.filter((r) => r.content === post.id);
    const untagged = all.filter((r) => r.content === "");
    const goalsOf = (xs: AnalyticsRow[]) => ({
      Signup: sum(
        xs.filter((r) => r.goal === "Signup"),
        (r) => r.conversions,
      ),
      Trial: sum(
        xs.filter((r) => r.goal === "Trial"),
        (r) => r.conversions,
      ),
    });

    const byPost = await t.request(
      "GET",
      `/v1/analytics/summary?brand=${a.brandSlug}&since=${days[0]}&until=${days[29]}`,
      {
        key: a.testKey,
      },
    );
    expect(byPost.status).toBe(200);
    expect(schemaErrors("AnalyticsSummary", byPost.body)).toBe("");
    const want = [
      { post: post.id, visitors: sum(tagged, (r) => r.visitors), conversions: goalsOf(tagged) },
      { post: "untagged", visitors: sum(untagged, (r) => r.visitors), conversions: goalsOf(untagged) },
    ]
      .map((g) => ({ ...g, conversions_total: g.conversions.Signup + g.conversions.Trial }))
      .sort((x, y) => y.visitors - x.visitors);
    expect(byPost.body.data).toEqual(want);
    expect(byPost.body.totals.visitors).toBe(sum(all, (r) => r.visitors));

    const bySource = await t.request("GET", `/v1/analytics/summary?group_by=source&since=${days[0]}`, {
      key: a.testKey,
    });
    expect(
      bySource.body.data.map((g: { source: string; visitors: number }) => [g.source, g.visitors]).sort(),
    ).toEqual(
      [
        [network, sum(tagged, (r) => r.visitors)],
        ["untagged", sum(untagged, (r) => r.visitors)],
      ].sort(),
    );
    const byMedium = await t.request("GET", "/v1/analytics/summary?group_by=medium", { key: a.testKey });
    expect(byMedium.body.data.map((g: { medium: string }) => g.medium).sort()).toEqual([
      "social",
      "untagged",
    ]);
    const byContent = await t.request("GET", "/v1/analytics/summary?group_by=content", { key: a.testKey });
    expect(byContent.body.data.map((g: { content: string }) => g.content).sort()).toEqual(
      [post.id, "untagged"].sort(),
    );
    const byCampaign = await t.request("GET", "/v1/analytics/summary?group_by=campaign", { key: a.testKey });
    // A post without a template has no utm_campaign: its visits count as untagged for campaigns.
    expect(byCampaign.body.data.map((g: { campaign: string }) => g.campaign)).toEqual(["untagged"]);
    const byDay = await t.request(
      "GET",
      `/v1/analytics/summary?group_by=day&since=${days[27]}&until=${days[29]}`,
      {
        key: a.testKey,
      },
    );
    expect(byDay.body.data.map((g: { day: string; visitors: number }) => [g.day, g.visitors])).toEqual(
      days.slice(27).map((d) => [
        d,
        sum(
          all.filter((r) => r.day === d),
          (r) => r.visitors,
        ),
      ]),
    );

    // A day later, 7 days are read again (30 + 1 days kept).
    clock.advance(DAY);
    expect((await collectDueAnalyticsSources(t.app)).read).toBe(1);
    const again = await t.app.db.selectFrom("analytics_daily").select("day").distinct().execute();
    expect(again).toHaveLength(31);
    expect(
      (await t.request("GET", `/v1/analytics_sources/${source.id}`, { key: a.testKey })).body.collected_at,
    ).toBe(new Date(clock.now()).toISOString());
  });

  test("a refusing tool marks the source needs_reauth; windows and groups are checked; isolation", async () => {
    const s = (await connect({ brand: a.brandId, provider: "sandbox", fields: { simulate: "refused" } }))
      .body;
    expect(await collectDueAnalyticsSources(t.app)).toEqual({ read: 0, refused: 1, failed: 0 });
    const got = (await t.request("GET", `/v1/analytics_sources/${s.id}`, { key: a.testKey })).body;
    expect([got.status, got.next_collect_at]).toEqual(["needs_reauth", null]);
    for (const [q, code] of [
      ["group_by=browser", "group_by_invalid"],
      ["since=2024-01-01&until=2026-01-01", "window_invalid"],
      ["until=2026-13-01", "window_invalid"],
    ]) {
      const r = await t.request("GET", `/v1/analytics/summary?${q}`, { key: a.testKey });
      expect([q, r.status, r.body.code]).toEqual([q, 422, code]);
    }
    const b = await tenant(t.app);
    for (const k of [b.testKey, a.liveKey]) {
      expect((await t.request("GET", `/v1/analytics_sources/${s.id}`, { key: k })).status).toBe(404);
      expect((await t.request("DELETE", `/v1/analytics_sources/${s.id}`, { key: k })).status).toBe(404);
      expect((await t.request("GET", "/v1/analytics_sources", { key: k })).body.data).toEqual([]);
    }
    const del = await t.request("DELETE", `/v1/analytics_sources/${s.id}`, { key: a.testKey });
    expect(del.body).toEqual({ id: s.id, object: "analytics_source", deleted: true });
    expect(await stored()).toBe(0);
  });
});
