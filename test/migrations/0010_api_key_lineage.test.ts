// Migration 0010: keys rolled before it get their lineage (the first key of the chain) and their successor, so
// rules that compare the acting key see an existing roll chain as one credential after the upgrade.
import { afterAll, expect, test } from "bun:test";
import { sql } from "kysely";
import { migrations } from "../../migrations/index.ts";
import { migrate } from "../../src/db/migrate.ts";
import { describeEachDialect, dropCreatedDatabases, freshDatabase } from "../helpers/db.ts";

describeEachDialect("migration 0010 API key lineage", (dialect) => {
  afterAll(() => dropCreatedDatabases());

  test("existing roll chains get their lineage and successor", async () => {
    const { database } = await freshDatabase(dialect, { migrated: false });
    const db = database.db;
    try {
      const before = migrations.findIndex((m) => m.name === "api_key_lineage");
      await migrate(db, dialect, migrations.slice(0, before));
      await sql`INSERT INTO orgs (id, name, created_at, updated_at) VALUES ('org_1', 'O', 0, 0)`.execute(db);
      const key = (id: string, from: string | null) =>
        sql`INSERT INTO api_keys (id, org_id, livemode, name, hash, hint, rolled_from, created_at)
            VALUES (${id}, 'org_1', 0, 'k', ${`h_${id}`}, 'h', ${from}, 0)`.execute(db);
      await key("key_a", null);
      await key("key_b", "key_a");
      await key("key_c", "key_b");
      await key("key_x", null);
      await migrate(db, dialect);
      const rows = await sql<{ id: string; lineage_id: string; rolled_to: string | null }>`
        SELECT id, lineage_id, rolled_to FROM api_keys ORDER BY id`.execute(db);
      expect(rows.rows).toEqual([
        { id: "key_a", lineage_id: "key_a", rolled_to: "key_b" },
        { id: "key_b", lineage_id: "key_a", rolled_to: "key_c" },
        { id: "key_c", lineage_id: "key_a", rolled_to: null },
        { id: "key_x", lineage_id: "key_x", rolled_to: null },
      ]);
    } finally {
      await database.close();
    }
  });
});
