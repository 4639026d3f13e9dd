// Migration 0036: target_engagement_org is gone (its columns lead target_engagement_report, which answers the same
// range), one index entry fewer for every target the worker publishes. The engagement summary, which read the
// dropped index, reads the wider one on SQLite (not the whole table), and still counts what it counted.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { adminActor } from "../../src/domain/actor.ts";
import { engagementSummary } from "../../src/domain/engagement/service.ts";
import { scopesOfRole } from "../../src/domain/scopes.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { seedPublished } from "../helpers/published.ts";
import { explain, indexDefinitions, statementsOf } from "../helpers/sqlite-plans.ts";

describeEachDialect("migration 0036 engagement org index", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
  });
  afterAll(() => t.close());

  test("target_engagement_org is gone; target_engagement_report leads with its columns", async () => {
    const defs = await indexDefinitions(t, dialect, "target_engagement");
    expect(defs.target_engagement_org).toBeUndefined();
    expect(defs.target_engagement_report).toMatch(/\(\s*org_id,\s*livemode,\s*published_at,\s*post_id/);
    expect(defs.target_engagement_due).toBeDefined();
  });

  test("the engagement summary counts an org's published targets in its window", async () => {
    const now = Date.now();
    const item = { provider: "sandbox", likes: 3, reposts: 1, replies: 0, quotes: 0, views: null };
    await seedPublished(t.app, { orgId: a.orgId, brandId: a.brandId, livemode: false }, [
      { ...item, publishedAt: now - 3600_000, text: "In" },
      { ...item, publishedAt: now - 3600_000, text: "In too", samePost: true },
      { ...item, publishedAt: now - 40 * 86400_000, text: "Before the window" },
    ]);
    const owner = adminActor(a.orgId, "test", scopesOfRole("owner"));
    const summary = await engagementSummary(t.app, owner, {});
    expect(summary.data).toHaveLength(1);
    expect(summary.data[0]).toMatchObject({ targets: 2, likes: 6, reposts: 2 });
  });

  if (dialect === "sqlite") {
    test("the summary reads target_engagement through target_engagement_report, not the table", async () => {
      const owner = adminActor(a.orgId, "test", scopesOfRole("owner"));
      const seen = await statementsOf(t, (other) => engagementSummary(other, owner, { group_by: "channel" }));
      const summary = seen.find((s) => /from "target_engagement"/i.test(s.sql));
      expect(summary).toBeDefined();
      const plan = explain(t, summary!.sql, summary!.parameters);
      expect(plan).toContainEqual(
        expect.stringMatching(
          /^SEARCH e USING (COVERING )?INDEX target_engagement_report \(org_id=\? AND livemode=\? AND published_at>\? AND published_at<\?\)$/,
        ),
      );
    });
  }
});
