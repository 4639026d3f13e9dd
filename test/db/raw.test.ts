// Plain SQL text on Postgres (src/db/raw.ts): every text with parameters becomes a prepared statement on its
// connection, named `svc_…`; a text without parameters and the query builder's own queries pass through unprepared;
// and the texts the publish worker prepares keep working after a migration adds a column to every table (a
// prepared statement whose result shape followed a table's columns would fail with "cached plan must not change
// result type").
import { afterAll, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import { type App, createApp } from "../../src/app/context.ts";
import type { Logger } from "../../src/app/log.ts";
import { type Database, openDatabase } from "../../src/db/index.ts";
import { preparedNames } from "../../src/db/prepared.ts";
import { flushPending, pendingWrites, raw } from "../../src/db/raw.ts";
import { recordEvents } from "../../src/domain/events/record.ts";
import { adapterFor } from "../../src/platforms/adapter-registry.ts";
import { startPublishWorker } from "../../src/queue/publish/worker.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { dialects } from "../helpers/db.ts";
import { tenant } from "../helpers/factories.ts";

const pgText = (text: string) => {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
};

async function preparedOn(db: Database["db"]): Promise<Map<string, string>> {
  const r = await sql<{ name: string; statement: string }>`
    SELECT name, statement FROM pg_prepared_statements`.execute(db);
  return new Map(r.rows.map((x) => [x.statement, x.name]));
}

if (dialects.includes("postgres")) {
  describe("prepared statements (postgres)", () => {
    const closers: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const c of closers.reverse()) await c();
    });
    /** A test app, and a second handle on its database with one connection (so every check sees that one). */
    async function oneConnection(): Promise<{ t: TestApp; database: Database }> {
      const t = await testApp("postgres");
      const database = openDatabase(t.dbUrl, { poolSize: 1 });
      closers.push(
        () => t.close(),
        () => database.close(),
      );
      return { t, database };
    }

    test("a raw() text with parameters is prepared on its connection under its svc_ name and reused", async () => {
      const { t, database } = await oneConnection();
      const a = await tenant(t.app);
      const text = "SELECT id, name, status FROM orgs WHERE id = ?";
      expect(await raw(database.db, "postgres", text, ["org_none"])).toEqual([]);
      const rows = await raw<{ id: string }>(database.db, "postgres", text, [a.orgId]);
      expect(rows.map((r) => r.id)).toEqual([a.orgId]);
      const name = preparedNames.get(pgText(text));
      expect(name).toMatch(/^svc_\d+$/);
      const prepared = await preparedOn(database.db);
      expect(prepared.get(pgText(text))).toBe(name!);
      // Prepared once: one entry for the text after two calls.
      expect([...prepared.keys()].filter((s) => s === pgText(text))).toHaveLength(1);
    });

    test("a raw() text without parameters and the query builder's queries are not prepared, and still work", async () => {
      const { t, database } = await oneConnection();
      const a = await tenant(t.app);
      const bare = "SELECT id FROM orgs ORDER BY id";
      expect((await raw<{ id: string }>(database.db, "postgres", bare, [])).map((r) => r.id)).toContain(
        a.orgId,
      );
      const built = await database.db
        .selectFrom("orgs")
        .select(["id", "name"])
        .where("id", "=", a.orgId)
        .execute();
      expect(built.map((r) => r.id)).toEqual([a.orgId]);
      const inTx = await database.db
        .transaction()
        .execute((tx) => tx.selectFrom("orgs").select("id").where("id", "=", a.orgId).executeTakeFirst());
      expect(inTx?.id).toBe(a.orgId);
      const statements = [...(await preparedOn(database.db)).keys()];
      expect(statements).not.toContain(bare);
      expect(statements.filter((s) => s.includes('from "orgs"'))).toEqual([]);
    });

    test("the worker's prepared statements survive a migration that adds a column to every table", async () => {
      const { t, database } = await oneConnection();
      const errors: string[] = [];
      const log: Logger = {
        debug() {},
        info() {},
        warn(msg, f) {
          errors.push(`${msg} ${JSON.stringify(f)}`);
        },
        error(msg, f) {
          errors.push(`${msg} ${JSON.stringify(f)}`);
        },
      };
      const app = createApp(t.app.config, { database, log });
      const a = await tenant(t.app);
      const publishOne = async (body: string) => {
        const r = await t.request("POST", "/v1/posts", {
          key: a.testKey,
          body: { brand: a.brandId, content: { body } },
        });
        expect(r.status).toBe(201);
        await publishedWithin(app, r.body.id, 10_000);
      };

      const w1 = startPublishWorker(app, { adapterFor, pollMs: 20 });
      try {
        await publishOne("Before the migration");
      } finally {
        await w1.stop();
      }
      const before = await preparedOn(database.db);
      const claim = [...before.keys()].find((s) => s.startsWith("WITH candidates"));
      expect(claim).toBeDefined();
      expect([...before.keys()].some((s) => /UPDATE post_attempts/.test(s))).toBe(true);
      // A parameterless text the worker runs (the next-due probe) is not among them.
      expect([...before.keys()].some((s) => s.startsWith("SELECT next_attempt_at FROM post_targets"))).toBe(
        false,
      );

      // A control on the same connection: a text whose result follows a table's columns.
      const star = "SELECT * FROM channels WHERE id = ?";
      await raw(database.db, "postgres", star, ["ch_none"]);

      const tables = await sql<{ table_name: string }>`
        SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`.execute(
        t.app.db,
      );
      expect(tables.rows.length).toBeGreaterThan(10);
      for (const { table_name } of tables.rows)
        await sql`ALTER TABLE ${sql.id(table_name)} ADD COLUMN added_later integer`.execute(t.app.db);

      // The control now fails: the check can tell a shape that follows the table from one that does not.
      await expect(raw(database.db, "postgres", star, ["ch_none"])).rejects.toThrow(
        /cached plan must not change result type/,
      );
      const w2 = startPublishWorker(app, { adapterFor, pollMs: 20 });
      try {
        await publishOne("After the migration");
      } finally {
        await w2.stop();
      }
      expect(errors).toEqual([]);
      // The same prepared statements served both runs (the claim kept its name on this connection).
      expect((await preparedOn(database.db)).get(claim!)).toBe(before.get(claim!)!);
    });
  });
}

async function publishedWithin(app: App, postId: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const p = await app.db
      .selectFrom("posts")
      .select("status")
      .where("id", "=", postId)
      .executeTakeFirstOrThrow();
    if (p.status === "published") return;
    if (Date.now() > deadline) throw new Error(`post ${postId} still ${p.status}`);
    await Bun.sleep(20);
  }
}

if (dialects.includes("postgres")) {
  describe("pending writes (postgres)", () => {
    test("events handed to the next statement are written by it, or by flushPending when none takes them", async () => {
      const t = await testApp("postgres");
      try {
        const a = await tenant(t.app);
        const scope = { orgId: a.orgId, livemode: false, requestId: null };
        const count = async (db: Database["db"], type: string) =>
          Number(
            (await sql<{ n: number }>`SELECT COUNT(*) AS n FROM events WHERE type = ${type}`.execute(db))
              .rows[0]!.n,
          );
        await t.app.db.transaction().execute(async (tx) => {
          const pending = pendingWrites();
          await recordEvents(
            tx,
            t.app,
            [{ scope, type: "test.pending", object: { n: 1 } }],
            undefined,
            pending,
          );
          // Not written yet: the insert waits in `pending` for the transaction's next statement.
          expect(await count(tx, "test.pending")).toBe(0);
          expect(pending.texts).toHaveLength(1);
          await flushPending(tx, "postgres", pending);
          expect(pending.texts).toHaveLength(0);
          expect(await count(tx, "test.pending")).toBe(1);
        });
        expect(await count(t.app.db, "test.pending")).toBe(1);
      } finally {
        await t.close();
      }
    });
  });
}
