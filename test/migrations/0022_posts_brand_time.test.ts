// Migration 0022: a brand's posts by time. The calendar's week and month ask for one brand's posts between two
// instants; on SQLite both reads are checked to search posts_brand_time by brand and time, not walk the brand's
// posts by ID.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { adminActor } from "../../src/domain/actor.ts";
import { getMonth } from "../../src/domain/posts/month.ts";
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
    test("the week's and the month's post reads search the index by brand and time", async () => {
      const owner = adminActor(a.orgId, "test", scopesOfRole("owner"));
      // The month's first read needs only the times: the index alone answers it.
      for (const [read, select, plan] of [
        [
          (app: TestApp["app"]) => getWeek(app, owner, a.brandId),
          // The week reads only the columns a calendar shows (domain/posts/calendar-rows.ts).
          /^select "id", "status", "publish_at", "slot" from "posts"/i,
          /^SEARCH posts USING INDEX posts_brand_time \(org_id=\? AND livemode=\? AND brand_id=\? AND publish_at>\? AND publish_at<\?\)$/,
        ],
        [
          (app: TestApp["app"]) => getMonth(app, owner, a.brandId),
          /^select "publish_at" from "posts"/i,
          /^SEARCH posts USING COVERING INDEX posts_brand_time \(org_id=\? AND livemode=\? AND brand_id=\? AND publish_at>\? AND publish_at<\?\)$/,
        ],
      ] as const) {
        const seen = await statementsOf(t, read);
        const found = seen.find((s) => select.test(s.sql));
        expect(found).toBeDefined();
        expect(explain(t, found!.sql, found!.parameters)).toEqual([expect.stringMatching(plan)]);
      }
    });
  }
});
