// Migration 0022: a brand's posts by time. The calendar's week and month ask for one brand's posts between two
// instants; on SQLite their reads are checked to search posts_brand_time by brand and time, not walk the brand's
// posts by ID.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { monthDayCounts, monthDayFirsts } from "../../src/db/sql/calendar-posts.ts";
import { adminActor } from "../../src/domain/actor.ts";
import { getWeek } from "../../src/domain/posts/week.ts";
import { scopesOfRole } from "../../src/domain/scopes.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { explain, indexDefinitions, statementsOf } from "../helpers/sqlite-plans.ts";

describeEachDialect("migration 0022 posts by brand and time", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
  });
  afterAll(() => t.close());

  test("posts_brand_time indexes org, mode, brand and publish_at; posts_brand stays", async () => {
    const defs = await indexDefinitions(t, dialect, "posts");
    expect(defs.posts_brand_time).toMatch(/\(\s*org_id,\s*livemode,\s*brand_id,\s*publish_at\s*\)/);
    expect(defs.posts_brand).toBeDefined();
  });

  if (dialect === "sqlite") {
    test("the week's post read searches the index by brand and time", async () => {
      const owner = adminActor(a.orgId, "test", scopesOfRole("owner"));
      const seen = await statementsOf(t, (app) => getWeek(app, owner, a.brandId));
      // The week reads only the columns a calendar shows (domain/posts/calendar-rows.ts).
      const found = seen.find((s) =>
        /^select "id", "status", "publish_at", "slot" from "posts"/i.test(s.sql),
      );
      expect(found).toBeDefined();
      expect(explain(t, found!.sql, found!.parameters)).toEqual([
        expect.stringMatching(
          /^SEARCH posts USING INDEX posts_brand_time \(org_id=\? AND livemode=\? AND brand_id=\? AND publish_at>\? AND publish_at<\?\)$/,
        ),
      ]);
    });

    test("the month's counts and first posts read each day from the index alone", () => {
      // Hand-written statements (src/db/sql/calendar-posts.ts), explained as getMonth runs them for two days.
      const range =
        /^SEARCH posts USING COVERING INDEX posts_brand_time \(org_id=\? AND livemode=\? AND brand_id=\? AND publish_at>\? AND publish_at<\?\)$/;
      const days = [a.orgId, 0, a.brandId, 1, 2, a.orgId, 0, a.brandId, 2, 3];
      const counts = explain(t, monthDayCounts.of(2).sqlite!, days).filter((l) => l.includes("posts"));
      expect(counts).toEqual([expect.stringMatching(range), expect.stringMatching(range)]);
      const firsts = explain(t, monthDayFirsts.of(2, 4).sqlite!, [a.orgId, 0, a.brandId, ...days]).filter(
        (l) => l.includes("posts"),
      );
      // The rows by the days' first times, by key; each day's first times from the index, never its rows.
      expect(firsts).toEqual([
        expect.stringMatching(
          /^SEARCH posts USING INDEX posts_brand_time \(org_id=\? AND livemode=\? AND brand_id=\? AND publish_at=\?\)$/,
        ),
        expect.stringMatching(range),
        expect.stringMatching(range),
      ]);
    });
  }
});
