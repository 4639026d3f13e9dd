// Migration 0008: posts no longer carry an index by created_at. The monthly count of live posts (posts_per_month)
// reads the org index from the month's first possible ID, since a post's ID carries its creation time; the count
// itself across a month boundary is tested in test/domain/posts/limits.test.ts.
import { afterAll, describe, expect, test } from "bun:test";
import { MONTH_COUNT } from "../../src/domain/posts/create.ts";
import { idAtTime, newId } from "../../src/lib/ids.ts";
import { describeEachDialect, dropCreatedDatabases, freshDatabase } from "../helpers/db.ts";
import { explain, indexDefinitions } from "../helpers/sqlite-plans.ts";

afterAll(() => dropCreatedDatabases());

describeEachDialect("migration 0008 posts month by ID", (dialect) => {
  test("posts_month is gone and posts_org remains", async () => {
    const { database, url } = await freshDatabase(dialect);
    try {
      const names = Object.keys(await indexDefinitions({ url, db: database.db }, dialect, "posts"));
      expect(names).toContain("posts_org");
      expect(names).not.toContain("posts_month");
    } finally {
      await database.close();
    }
  });
});

describe("the monthly count's plan (sqlite)", () => {
  test("walks posts_org from the month's first ID, reading nothing but the index", async () => {
    const { database, url } = await freshDatabase("sqlite");
    await database.close();
    const from = Date.parse("2026-03-01T00:00:00Z");
    const plan = explain({ url, db: database.db }, MONTH_COUNT, [newId("org", from), idAtTime("post", from)]);
    expect(plan).toEqual([
      expect.stringMatching(
        /^SEARCH posts USING COVERING INDEX posts_org \(org_id=\? AND livemode=\? AND id>\?\)$/,
      ),
    ]);
  });

  test("the month's first ID sorts after every ID of the month before and at or before every ID of the month", () => {
    const from = Date.parse("2026-03-01T00:00:00Z");
    const first = idAtTime("post", from);
    expect(newId("post", from - 1) < first).toBe(true);
    expect(newId("post", from) >= first).toBe(true);
    expect(newId("post", from + 86_400_000) > first).toBe(true);
  });
});
