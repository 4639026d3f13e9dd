// GET /v1/reports end to end on seeded readings: the figures are computed again here, independently of the
// service's SQL (plain filtering and summing of what was seeded, local days with Intl), and must match; the
// period rules (default month in the brand's zone, since/until, the bad ones refused); sections a key may not
// see are null; org, mode and brand isolation. Both databases.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { FakeClock } from "../../../src/lib/clock.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { key, type Tenant, tenant } from "../../helpers/factories.ts";
import { type PublishedItem, seedPublished } from "../../helpers/published.ts";
import { schemaErrors } from "../../helpers/schema.ts";

const TZ = "America/New_York";
// March 2026 in New York: EST until 8 March 02:00, then EDT. The month starts at 05:00Z and ends at 04:00Z.
const SINCE = Date.parse("2026-03-01T05:00:00Z");
const UNTIL = Date.parse("2026-04-01T04:00:00Z");
const PREV = SINCE - (UNTIL - SINCE);

/** A small deterministic generator, so a failure can be reproduced. */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const PROVIDERS = ["bluesky", "mastodon", "linkedin"];

function items(n: number, seed: number, from: number, to: number): PublishedItem[] {
  const r = rng(seed);
  const out: PublishedItem[] = [];
  for (let i = 0; i < n; i++) {
    out.push({
      publishedAt: Math.floor(from + r() * (to - from)),
      provider: PROVIDERS[Math.floor(r() * 3)]!,
      text: `Post number ${i} <b>not bold</b>`,
      likes: Math.floor(r() * 50),
      reposts: Math.floor(r() * 10),
      replies: Math.floor(r() * 8),
      quotes: Math.floor(r() * 3),
      views: r() < 0.5 ? null : Math.floor(r() * 1000),
      readings: 1 + Math.floor(r() * 3),
      samePost: i > 0 && r() < 0.2,
    });
  }
  // A post to two networks keeps one time; sort so that a samePost item follows its post's first target.
  for (let i = 1; i < out.length; i++) if (out[i]!.samePost) out[i]!.publishedAt = out[i - 1]!.publishedAt;
  return out;
}

const localDay = (t: number) => new Date(t).toLocaleDateString("en-CA", { timeZone: TZ });

describeEachDialect("reports", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  const clock = new FakeClock(Date.parse("2026-04-10T12:00:00Z"));
  beforeEach(async () => {
    clock.set("2026-04-10T12:00:00Z");
    t = await testApp(dialect, { clock });
    a = await tenant(t.app);
    const r = await t.request("POST", `/v1/brands/${a.brandId}`, { key: a.testKey, body: { timezone: TZ } });
    expect(r.status).toBe(200);
  });
  afterEach(async () => {
    await t.close();
  });

  test("a month's figures match those computed from the seeded readings, beside the previous period", async () => {
    const seeded = items(400, 7, PREV - 5 * 86400_000, UNTIL + 5 * 86400_000);
    // The edges: the period's first instant counts, its end does not; the instant before it is the previous one's.
    const edge = (publishedAt: number, likes: number): PublishedItem => ({
      publishedAt,
      provider: "bluesky",
      text: "edge",
      likes,
      reposts: 0,
      replies: 0,
      quotes: 0,
      views: null,
    });
    seeded.push(edge(SINCE, 3), edge(SINCE - 1, 5), edge(UNTIL, 1000), edge(PREV, 7), edge(PREV - 1, 1000));
    // Just after local midnight on a day after the DST change: it belongs to 10 March in New York.
    seeded.push(edge(Date.parse("2026-03-10T04:30:00Z"), 2));
    const postIds = await seedPublished(
      t.app,
      { orgId: a.orgId, brandId: a.brandId, livemode: false },
      seeded,
    );
    // Noise that must not count: the same brand in live mode, another brand, another org.
    await seedPublished(
      t.app,
      { orgId: a.orgId, brandId: a.brandId, livemode: true },
      items(50, 8, SINCE, UNTIL),
    );
    const other = await t.request("POST", "/v1/brands", {
      key: a.testKey,
      body: { name: "Other", slug: "other-brand", timezone: TZ },
    });
    expect(other.status).toBe(201);
    await seedPublished(
      t.app,
      { orgId: a.orgId, brandId: other.body.id, livemode: false },
      items(50, 9, SINCE, UNTIL),
    );
    const b = await tenant(t.app);
    await seedPublished(
      t.app,
      { orgId: b.orgId, brandId: b.brandId, livemode: false },
      items(50, 10, SINCE, UNTIL),
    );

    const r = await t.request("GET", `/v1/reports?brand=${a.brandSlug}&month=2026-03`, { key: a.testKey });
    expect(r.status).toBe(200);
    expect(schemaErrors("Report", r.body)).toBeNull();
    const rep = r.body;
    expect(rep.month).toBe("2026-03");
    expect(rep.since).toBe(new Date(SINCE).toISOString());
    expect(rep.until).toBe(new Date(UNTIL).toISOString());
    expect(rep.previous_since).toBe(new Date(PREV).toISOString());
    expect(rep.previous_until).toBe(new Date(SINCE).toISOString());
    expect(rep.timezone).toBe(TZ);

    // The figures again, from the seeded list.
    const rows = seeded.map((s, i) => ({ ...s, post: postIds[i]! }));
    const cur = rows.filter((x) => x.publishedAt >= SINCE && x.publishedAt < UNTIL);
    const prev = rows.filter((x) => x.publishedAt >= PREV && x.publishedAt < SINCE);
    const sum = (xs: typeof rows, f: (x: (typeof rows)[number]) => number) =>
      xs.reduce((n, x) => n + f(x), 0);
    const total = (x: PublishedItem) => x.likes + x.reposts + x.replies + x.quotes;
    const posts = rep.sections.posts;
    expect(posts.posts).toEqual({
      value: new Set(cur.map((x) => x.post)).size,
      previous: new Set(prev.map((x) => x.post)).size,
    });
    for (const p of PROVIDERS) {
      const n = posts.by_network.find((x: { network: string }) => x.network === p);
      expect(n.published).toEqual({
        value: cur.filter((x) => x.provider === p).length,
        previous: prev.filter((x) => x.provider === p).length,
      });
    }
    const e = rep.sections.engagement;
    for (const k of ["likes", "reposts", "replies", "quotes"] as const)
      expect(e[k]).toEqual({ value: sum(cur, (x) => x[k]), previous: sum(prev, (x) => x[k]) });
    expect(e.views).toEqual({
      value: sum(cur, (x) => x.views ?? 0),
      previous: sum(prev, (x) => x.views ?? 0),
    });
    expect(e.total).toEqual({ value: sum(cur, total), previous: sum(prev, total) });
    expect(e.per_target.value).toBeCloseTo(sum(cur, total) / cur.length, 1);
    // Every local day of March, in order, with what was published that day.
    expect(e.daily).toHaveLength(31);
    expect(e.daily[0].date).toBe("2026-03-01");
    expect(e.daily[30].date).toBe("2026-03-31");
    for (const d of e.daily) {
      const that = cur.filter((x) => localDay(x.publishedAt) === d.date);
      expect({ date: d.date, published: d.published, total: d.total }).toEqual({
        date: d.date,
        published: that.length,
        total: sum(that, total),
      });
    }
    // The top posts: summed over each post's targets, most engaging first (ties by ID), at most 5.
    const byPost = new Map<string, number>();
    for (const x of cur) byPost.set(x.post, (byPost.get(x.post) ?? 0) + total(x));
    const top = [...byPost].sort((p, q) => q[1] - p[1] || (p[0] < q[0] ? -1 : 1)).slice(0, 5);
    expect(
      rep.sections.top_posts.data.map((p: { post: string; total: number }) => [p.post, p.total]),
    ).toEqual(top);
    const first = rep.sections.top_posts.data[0];
    expect(first.text).toContain("<b>not bold</b>");
    expect(first.targets.length).toBe(cur.filter((x) => x.post === first.post).length);
  });

  test("the default period is the last whole month in the brand's zone; since/until are the brand's days", async () => {
    // 1 April 02:00Z is still 31 March in New York: the last whole month there is February.
    clock.set("2026-04-01T02:00:00Z");
    const r = await t.request("GET", `/v1/reports?brand=${a.brandId}`, { key: a.testKey });
    expect(r.status).toBe(200);
    expect(r.body.month).toBe("2026-02");
    expect(r.body.since).toBe("2026-02-01T05:00:00.000Z");
    expect(r.body.until).toBe("2026-03-01T05:00:00.000Z");
    // Nothing was published: every section is null, and the report still answers.
    expect(r.body.sections).toEqual({
      posts: null,
      engagement: null,
      top_posts: null,
      ads: null,
      analytics: null,
      newsletters: null,
    });
    const w = await t.request("GET", `/v1/reports?brand=${a.brandId}&since=2026-03-02&until=2026-03-08`, {
      key: a.testKey,
    });
    expect(w.status).toBe(200);
    expect(w.body.month).toBeNull();
    expect(w.body.since).toBe("2026-03-02T05:00:00.000Z");
    // `until` as a date includes the day: the period ends at local midnight after 8 March (now EDT).
    expect(w.body.until).toBe("2026-03-09T04:00:00.000Z");
    expect(Date.parse(w.body.previous_until)).toBe(Date.parse(w.body.since));
  });

  test("bad periods are refused with their codes", async () => {
    const get = (q: string) => t.request("GET", `/v1/reports?brand=${a.brandId}&${q}`, { key: a.testKey });
    for (const m of ["2026-13", "2026-3", "march", "2026-00"]) {
      const r = await get(`month=${m}`);
      expect([r.status, r.body.code]).toEqual([400, "month_invalid"]);
    }
    for (const q of [
      "since=2026-03-10&until=2026-03-01",
      "since=2025-01-01&until=2026-03-01",
      "since=2026-02-30&until=2026-03-01",
      "since=yesterday&until=2026-03-01",
      "since=2026-03-01",
    ]) {
      const r = await get(q);
      expect([q, r.status, r.body.code]).toEqual([q, 422, "window_invalid"]);
    }
    const both = await get("month=2026-03&since=2026-03-01&until=2026-03-05");
    expect([both.status, both.body.code]).toEqual([400, "parameter_conflict"]);
    const missing = await t.request("GET", "/v1/reports", { key: a.testKey });
    expect([missing.status, missing.body.code]).toEqual([400, "parameter_missing"]);
  });

  test("sections the key may not see are null; other orgs' brands are not found", async () => {
    await seedPublished(
      t.app,
      { orgId: a.orgId, brandId: a.brandId, livemode: false },
      items(20, 3, SINCE, UNTIL),
    );
    const brandsOnly = await key(t.app, a.orgId, { name: "brands only", scopes: ["brands:read"] });
    const r = await t.request("GET", `/v1/reports?brand=${a.brandId}&month=2026-03`, { key: brandsOnly });
    expect(r.status).toBe(200);
    expect(r.body.sections).toEqual({
      posts: null,
      engagement: null,
      top_posts: null,
      ads: null,
      analytics: null,
      newsletters: null,
    });
    const postsOnly = await key(t.app, a.orgId, { name: "posts only", scopes: ["posts:read"] });
    const denied = await t.request("GET", `/v1/reports?brand=${a.brandId}&month=2026-03`, { key: postsOnly });
    expect([denied.status, denied.body.code]).toEqual([403, "scope_missing"]);
    const both = await key(t.app, a.orgId, { name: "both", scopes: ["brands:read", "posts:read"] });
    const full = await t.request("GET", `/v1/reports?brand=${a.brandId}&month=2026-03`, { key: both });
    expect(full.body.sections.posts.posts.value).toBeGreaterThan(0);
    // Live mode sees none of the test-mode figures.
    const live = await t.request("GET", `/v1/reports?brand=${a.brandId}&month=2026-03`, { key: a.liveKey });
    expect(live.body.sections.posts).toBeNull();
    const b = await tenant(t.app);
    const foreign = await t.request("GET", `/v1/reports?brand=${a.brandId}&month=2026-03`, {
      key: b.testKey,
    });
    expect([foreign.status, foreign.body.code]).toEqual([404, "resource_missing"]);
  });
});
