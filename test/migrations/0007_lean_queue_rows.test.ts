// Migration 0007: fewer B-trees written per published target. On SQLite channel_locks and post_attempts are
// WITHOUT ROWID tables (their rows survive the rebuild), the due index carries channel and org so the claim's
// candidate scan reads it alone, and the unavailable channels and suspended orgs are read once per claim from
// partial indexes. On both databases events has no created_at index (events.prune deletes an ID range).
import { Database as SqliteFile } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { sql } from "kysely";
import { migrations } from "../../migrations/index.ts";
import { migrate } from "../../src/db/migrate.ts";
import { newId } from "../../src/lib/ids.ts";
import { CANDIDATES } from "../../src/queue/publish/claim.ts";
import { describeEachDialect, dropCreatedDatabases, freshDatabase } from "../helpers/db.ts";

afterAll(() => dropCreatedDatabases());

const before0007 = migrations.slice(
  0,
  migrations.findIndex((m) => m.name === "lean_queue_rows"),
);

describeEachDialect("migration 0007 lean queue rows", (dialect) => {
  test("attempt rows and channel locks written before the migration are there after it", async () => {
    const { database, url } = await freshDatabase(dialect, { migrated: false });
    const db = database.db;
    try {
      await migrate(db, dialect, before0007);
      const now = Date.parse("2026-03-01T08:00:00Z");
      const ids = {
        org: newId("org", now),
        brand: newId("brand", now),
        post: newId("post", now),
        target: newId("ptgt", now),
        chan: newId("chan", now),
        att: newId("att", now),
      };
      await sql`INSERT INTO orgs (id, name, status, created_at, updated_at) VALUES (${ids.org}, 'O', 'active', ${now}, ${now})`.execute(
        db,
      );
      await sql`INSERT INTO brands (id, org_id, slug, name, timezone, approval_policy, utm_domains, slots, created_at, updated_at)
        VALUES (${ids.brand}, ${ids.org}, 'b', 'B', 'UTC', '{}', '[]', '[]', ${now}, ${now})`.execute(db);
      await sql`INSERT INTO posts (id, org_id, brand_id, livemode, status, content, metadata, media, search_text, created_at, updated_at)
        VALUES (${ids.post}, ${ids.org}, ${ids.brand}, 0, 'publishing', '{}', '{}', '[]', '', ${now}, ${now})`.execute(
        db,
      );
      await sql`INSERT INTO post_targets (id, org_id, livemode, post_id, channel_id, provider, channel_name, parts, status, attempts, created_at, updated_at)
        VALUES (${ids.target}, ${ids.org}, 0, ${ids.post}, ${ids.chan}, 'sandbox', 'C', '["x"]', 'publishing', 1, ${now}, ${now})`.execute(
        db,
      );
      await sql`INSERT INTO post_attempts (id, org_id, target_id, attempt, started_at, outcome)
        VALUES (${ids.att}, ${ids.org}, ${ids.target}, 1, ${now}, 'running')`.execute(db);
      await sql`INSERT INTO channel_locks (channel_id, target_id, leased_until) VALUES (${ids.chan}, ${ids.target}, ${now + 1000})`.execute(
        db,
      );

      await migrate(db, dialect);

      const attempts = await sql<{
        id: string;
        outcome: string;
      }>`SELECT id, outcome FROM post_attempts`.execute(db);
      expect(attempts.rows).toEqual([{ id: ids.att, outcome: "running" }]);
      const locks = await sql<{ target_id: string }>`SELECT target_id FROM channel_locks`.execute(db);
      expect(locks.rows).toEqual([{ target_id: ids.target }]);
      // The keys still hold: one attempt number per target, one lock per channel.
      await expect(
        sql`INSERT INTO post_attempts (id, org_id, target_id, attempt, started_at, outcome)
          VALUES (${newId("att", now)}, ${ids.org}, ${ids.target}, 1, ${now}, 'running')`.execute(db),
      ).rejects.toThrow();
      await expect(
        sql`INSERT INTO channel_locks (channel_id, target_id, leased_until) VALUES (${ids.chan}, 'other', ${now})`.execute(
          db,
        ),
      ).rejects.toThrow();
      // Deleting the target still takes its attempts with it.
      await sql`DELETE FROM post_targets WHERE id = ${ids.target}`.execute(db);
      expect((await sql`SELECT id FROM post_attempts`.execute(db)).rows).toEqual([]);

      const events = await indexesOf(db, dialect, url, "events");
      expect(events).not.toContain("events_created");
      expect(events).toContain("events_org");

      if (dialect === "sqlite") {
        const f = new SqliteFile(url.replace(/^sqlite:/, ""), { readonly: true });
        try {
          const ddl = (name: string) =>
            f.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE name = ?").get(name)!.sql;
          expect(ddl("post_attempts")).toMatch(/WITHOUT ROWID\s*$/);
          expect(ddl("channel_locks")).toMatch(/WITHOUT ROWID\s*$/);
          expect(ddl("post_targets_due")).toMatch(
            /\(next_attempt_at, id, channel_id, org_id\) WHERE status = 'queued'$/,
          );
          // The candidate query: one scan of the due index alone, the locks, unavailable channels and suspended
          // orgs read once each (lists), no per-candidate lookups in channels or orgs, no sort.
          const plan = f
            .query<{ detail: string }, number[]>(`EXPLAIN QUERY PLAN ${CANDIDATES}`)
            .all(now, now, 20)
            .map((r) => r.detail);
          expect(plan).toContain("SEARCH t USING COVERING INDEX post_targets_due (next_attempt_at<?)");
          expect(plan.some((d) => /SCAN channels USING (COVERING )?INDEX channels_unavailable/.test(d))).toBe(
            true,
          );
          expect(plan.some((d) => /SCAN orgs USING (COVERING )?INDEX orgs_suspended/.test(d))).toBe(true);
          expect(
            plan.filter(
              (d) =>
                /^(SEARCH|SCAN) (c|o|channels|orgs)\b/.test(d) &&
                !/INDEX (channels_unavailable|orgs_suspended)/.test(d),
            ),
          ).toEqual([]);
          expect(plan.filter((d) => d.includes("TEMP B-TREE"))).toEqual([]);
        } finally {
          f.close();
        }
      }
    } finally {
      await database.close();
    }
  });
});

async function indexesOf(
  db: Parameters<typeof migrate>[0],
  dialect: string,
  _url: string,
  table: string,
): Promise<string[]> {
  const r =
    dialect === "postgres"
      ? await sql<{
          name: string;
        }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = ${table}`.execute(db)
      : await sql<{
          name: string;
        }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ${table}`.execute(db);
  return r.rows.map((x) => x.name);
}
