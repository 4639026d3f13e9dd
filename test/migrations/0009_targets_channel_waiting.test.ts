// Migration 0009: targets have no full index by channel any more (it cost a B-tree leaf per target written). A
// channel's deletion finds its queued targets through the due index and its held and needs_attention targets
// through a small partial index; on SQLite both statements it sends are checked to read an index, not the table.
// What deletion cancels is tested in test/http/api/v1/channel-lifecycle.test.ts.
import { Database as SqliteFile } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Kysely, sql } from "kysely";
import { createApp } from "../../src/app/context.ts";
import { silentLogger } from "../../src/app/log.ts";
import type { DB } from "../../src/db/schema.ts";
import { BunSqliteDialect, openSqlite } from "../../src/db/sqlite.ts";
import { adminActor } from "../../src/domain/actor.ts";
import { deleteChannel } from "../../src/domain/channels/service.ts";
import { scopesOfRole } from "../../src/domain/scopes.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { dialects } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";

for (const dialect of dialects) {
  describe(`migration 0009 targets by channel, waiting ones only (${dialect})`, () => {
    let t: TestApp;
    let a: Tenant;
    beforeAll(async () => {
      t = await testApp(dialect);
      a = await tenant(t.app);
    });
    afterAll(() => t.close());

    test("post_targets_channel is gone; post_targets_channel_waiting holds held and needs_attention targets only", async () => {
      const defs = await indexDefinitions(t, dialect);
      expect(defs.post_targets_channel).toBeUndefined();
      expect(defs.post_targets_channel_waiting).toMatch(
        /\(\s*channel_id\s*\)\s*WHERE\s*\(*\s*status\s*(IN \('held', 'needs_attention'\)|= ANY \(\(?ARRAY\['held'::text, 'needs_attention'::text\]\))/,
      );
    });

    if (dialect === "sqlite") {
      test("a channel's deletion reads the due index for queued targets and the partial index for the rest", async () => {
        const channel = await t.request("POST", "/v1/channels", {
          key: a.testKey,
          body: { brand: a.brandId, provider: "sandbox" },
        });
        const later = new Date(Date.now() + 3600_000).toISOString();
        const post = await t.request("POST", "/v1/posts", {
          key: a.testKey,
          body: {
            brand: a.brandId,
            content: { body: "Waiting" },
            channels: [channel.body.id],
            publish_at: later,
          },
        });
        expect([channel.status, post.status]).toEqual([201, 201]);
        // The statements exactly as deleteChannel builds them: a second App on the same file, logging its queries.
        const path = t.dbUrl.replace(/^sqlite:/, "");
        const seen: { sql: string; parameters: readonly unknown[] }[] = [];
        const db = new Kysely<DB>({
          dialect: new BunSqliteDialect(openSqlite(path)),
          log: (e) => {
            if (e.level === "query") seen.push({ sql: e.query.sql, parameters: e.query.parameters });
          },
        });
        const other = createApp(t.app.config, {
          database: { db, dialect: "sqlite", listen: async () => async () => {}, close: () => db.destroy() },
          log: silentLogger,
        });
        try {
          await deleteChannel(other, adminActor(a.orgId, "test", scopesOfRole("owner")), channel.body.id);
        } finally {
          await other.close();
        }
        const updates = seen.filter((s) => /^update "post_targets"/i.test(s.sql));
        expect(updates).toHaveLength(2);
        const plans = updates.map((u) => explain(t, u.sql, u.parameters));
        expect(plans[0]).toEqual([
          expect.stringMatching(/^SCAN post_targets USING COVERING INDEX post_targets_due$/),
        ]);
        expect(plans[1]).toEqual([
          expect.stringMatching(
            /^SEARCH post_targets USING INDEX post_targets_channel_waiting \(channel_id=\?\)$/,
          ),
        ]);
        const after = await t.request("GET", `/v1/posts/${post.body.id}`, { key: a.testKey });
        expect(after.body.targets[0].status).toBe("canceled");
      });
    }
  });
}

async function indexDefinitions(t: TestApp, dialect: string): Promise<Record<string, string>> {
  if (dialect === "postgres") {
    const r = await sql<{ indexname: string; indexdef: string }>`
      SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'post_targets'`.execute(t.app.db);
    return Object.fromEntries(r.rows.map((x) => [x.indexname, x.indexdef]));
  }
  const f = new SqliteFile(t.dbUrl.replace(/^sqlite:/, ""), { readonly: true });
  try {
    const rows = f
      .query<{ name: string; sql: string }, []>(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'post_targets' AND sql IS NOT NULL",
      )
      .all();
    return Object.fromEntries(rows.map((x) => [x.name, x.sql]));
  } finally {
    f.close();
  }
}

/** The plan's lines (EXPLAIN QUERY PLAN), on a connection of its own to the test's database file. */
function explain(t: TestApp, text: string, params: readonly unknown[]): string[] {
  const f = new SqliteFile(t.dbUrl.replace(/^sqlite:/, ""), { readonly: true });
  try {
    return f
      .query<{ detail: string }, never[]>(`EXPLAIN QUERY PLAN ${text}`)
      .all(...(params as never[]))
      .map((r) => r.detail);
  } finally {
    f.close();
  }
}
