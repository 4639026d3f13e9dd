// Migration 0028: on SQLite target_engagement is a WITHOUT ROWID table keyed by its target (one B-tree fewer for
// each published target); its rows survive the rebuild, its key, indexes and cascades still hold. Postgres keeps
// its table as it was.
import { Database as SqliteFile } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { sql } from "kysely";
import { migrations } from "../../migrations/index.ts";
import { migrate } from "../../src/db/migrate.ts";
import { newId } from "../../src/lib/ids.ts";
import { describeEachDialect, dropCreatedDatabases, freshDatabase } from "../helpers/db.ts";

afterAll(() => dropCreatedDatabases());

const at0028 = migrations.findIndex((m) => m.name === "engagement_without_rowid");
const before0028 = migrations.slice(0, at0028);
/** Through 0028 itself: a later migration (0036) drops the index this one rebuilt. */
const through0028 = migrations.slice(0, at0028 + 1);

describeEachDialect("migration 0028 engagement without rowid", (dialect) => {
  test("engagement rows written before the migration are there after it, with their key and cascade", async () => {
    const { database, url } = await freshDatabase(dialect, { migrated: false });
    const db = database.db;
    try {
      await migrate(db, dialect, before0028);
      const now = Date.parse("2026-03-01T08:00:00Z");
      const ids = {
        org: newId("org", now),
        brand: newId("brand", now),
        post: newId("post", now),
        target: newId("ptgt", now),
        chan: newId("chan", now),
      };
      await sql`INSERT INTO orgs (id, name, status, created_at, updated_at) VALUES (${ids.org}, 'O', 'active', ${now}, ${now})`.execute(
        db,
      );
      await sql`INSERT INTO brands (id, org_id, slug, name, timezone, approval_policy, utm_domains, slots, created_at, updated_at)
        VALUES (${ids.brand}, ${ids.org}, 'b', 'B', 'UTC', '{}', '[]', '[]', ${now}, ${now})`.execute(db);
      await sql`INSERT INTO posts (id, org_id, brand_id, livemode, status, content, metadata, media, search_text, created_at, updated_at)
        VALUES (${ids.post}, ${ids.org}, ${ids.brand}, 0, 'published', '{}', '{}', '[]', '', ${now}, ${now})`.execute(
        db,
      );
      await sql`INSERT INTO post_targets (id, org_id, livemode, post_id, channel_id, provider, channel_name, parts, status, attempts, created_at, updated_at)
        VALUES (${ids.target}, ${ids.org}, 0, ${ids.post}, ${ids.chan}, 'sandbox', 'C', '["x"]', 'published', 1, ${now}, ${now})`.execute(
        db,
      );
      await sql`INSERT INTO target_engagement (target_id, org_id, livemode, post_id, channel_id, provider, state, likes,
          published_at, readings, next_read_at, updated_at)
        VALUES (${ids.target}, ${ids.org}, 0, ${ids.post}, ${ids.chan}, 'sandbox', 'collecting', 7, ${now}, 1, ${now + 3600_000}, ${now})`.execute(
        db,
      );

      await migrate(db, dialect, through0028);

      const rows = await sql<{
        target_id: string;
        likes: number;
        readings: number;
        state: string;
      }>`SELECT target_id, likes, readings, state FROM target_engagement`.execute(db);
      expect(rows.rows.map((r) => ({ ...r, likes: Number(r.likes) }))).toEqual([
        { target_id: ids.target, likes: 7, readings: 1, state: "collecting" },
      ]);
      // One row per target still.
      await expect(
        sql`INSERT INTO target_engagement (target_id, org_id, livemode, post_id, channel_id, provider, state, published_at, updated_at)
          VALUES (${ids.target}, ${ids.org}, 0, ${ids.post}, ${ids.chan}, 'sandbox', 'collecting', ${now}, ${now})`.execute(
          db,
        ),
      ).rejects.toThrow();
      const indexes =
        dialect === "postgres"
          ? await sql<{
              name: string;
            }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'target_engagement'`.execute(db)
          : await sql<{
              name: string;
            }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'target_engagement'`.execute(
              db,
            );
      const names = indexes.rows.map((x) => x.name);
      expect(names).toContain("target_engagement_due");
      expect(names).toContain("target_engagement_org");
      // Deleting the target still takes its engagement with it.
      await sql`DELETE FROM post_targets WHERE id = ${ids.target}`.execute(db);
      expect((await sql`SELECT target_id FROM target_engagement`.execute(db)).rows).toEqual([]);

      if (dialect === "sqlite") {
        const f = new SqliteFile(url.replace(/^sqlite:/, ""), { readonly: true });
        try {
          const ddl = f
            .query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE name = ?")
            .get("target_engagement")!.sql;
          expect(ddl).toMatch(/WITHOUT ROWID\s*$/);
        } finally {
          f.close();
        }
      }
    } finally {
      await database.close();
    }
  });
});
