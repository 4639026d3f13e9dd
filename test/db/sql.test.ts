// Every hand-written statement under src/db/sql/, on both databases: the folder's files are read at run time, so a
// new file is covered without being listed here. Each export must be a statement (statement.ts), and each text of
// each dialect is compiled (prepared; on Postgres, EXPLAINed) against a freshly migrated database of that dialect, so a syntax error, an unknown
// table or column, or a parameter Postgres cannot type fails here rather than in the path that runs it. A few
// statements are also run, for what they must do.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { CompiledQuery, sql } from "kysely";
import type { Database, Dialect } from "../../src/db/index.ts";
import { eventCursor } from "../../src/db/sql/event-cursor.ts";
import { eventFeedAfter } from "../../src/db/sql/event-feed-after.ts";
import { eventFeedHead } from "../../src/db/sql/event-feed-head.ts";
import { type EventRow, insertEvents } from "../../src/db/sql/insert-events.ts";
import { lockBrandSlots } from "../../src/db/sql/lock-brand-slots.ts";
import { lockOrgForCount, orgLimits } from "../../src/db/sql/org-limits.ts";
import { postMetadataEquals, postTextContains } from "../../src/db/sql/post-filters.ts";
import {
  type Condition,
  isSqlExport,
  placeholders,
  run,
  runRows,
  type SqlExport,
  statement,
  type Texts,
  where,
} from "../../src/db/sql/statement.ts";
import { storeIdempotentAnswer } from "../../src/db/sql/store-idempotent-answer.ts";
import { tablesWithColumn } from "../../src/db/sql/tables-with-column.ts";
import type { BunSqliteConnection } from "../../src/db/sqlite.ts";
import { describeEachDialect, freshDatabase } from "../helpers/db.ts";

const DIR = join(import.meta.dir, "../../src/db/sql");
/** statement.ts is the kit the others are made with; every other file is an operation. */
const files = readdirSync(DIR)
  .filter((f) => f.endsWith(".ts") && f !== "statement.ts")
  .sort();
const modules: [file: string, exports: Record<string, unknown>][] = await Promise.all(
  files.map(async (f) => [f, (await import(join(DIR, f))) as Record<string, unknown>] as const),
);

/** The texts an export stands for: its own, or those of its example shape; a condition inside a SELECT. */
function textsOf(s: SqlExport): Texts {
  switch (s.kind) {
    case "statement":
      return s;
    case "shaped":
      return s.of(...s.example);
    case "rows":
      return s.of(...s.example);
    case "condition":
      return {
        sqlite: `SELECT 1 FROM ${s.table} WHERE ${s.sqlite}`,
        postgres: `SELECT 1 FROM ${s.table} WHERE ${s.postgres}`,
      };
  }
}

const pgText = (text: string) => {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
};

/**
 * Compiles the text without running it: SQLite prepares it (bun:sqlite's EXPLAIN of a write leaves the statement
 * open, which then blocks COMMIT), Postgres plans it with every parameter null. What preparing it would refuse
 * (syntax, an unknown table or column, a parameter Postgres cannot type), this refuses.
 */
async function compile(database: Database, dialect: Dialect, text: string): Promise<void> {
  if (dialect === "sqlite") {
    await database.db
      .getExecutor()
      .provideConnection(async (c) => (c as BunSqliteConnection).db.prepare(text).finalize());
    return;
  }
  const nulls = Array.from({ length: placeholders(text) }, () => null);
  await database.db.executeQuery(CompiledQuery.raw(`EXPLAIN ${pgText(text)}`, nulls));
}

test("every file under db/sql is named by its operation (kebab-case) and exports at least one statement", () => {
  expect(files.length).toBeGreaterThan(0);
  for (const [file, exports] of modules) {
    expect(file).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*\.ts$/);
    expect(Object.keys(exports).length).toBeGreaterThan(0);
  }
});

describeEachDialect("db/sql", (dialect) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await freshDatabase(dialect));
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  for (const [file, exports] of modules)
    for (const [name, value] of Object.entries(exports))
      test(`${file}: ${name} is a statement whose ${dialect} text the database accepts`, async () => {
        if (!isSqlExport(value)) throw new Error(`${file} exports ${name}, which is not a statement`);
        const texts = textsOf(value);
        // Null says "nothing to run on this dialect"; a statement with no text at all says nothing.
        expect(texts.sqlite !== null || texts.postgres !== null).toBe(true);
        // A statement takes the same parameters on both dialects (a text may take none: it needs none).
        if (value.kind === "statement" && value.takes.sqlite && value.takes.postgres)
          expect(placeholders(value.sqlite)).toBe(placeholders(value.postgres));
        const text = texts[dialect];
        if (text !== null) await compile(database, dialect, text);
      });

  test("a statement null on a dialect runs nothing there; elsewhere it runs", async () => {
    const [org] = await run(database.db, dialect, orgLimits, ["org_none"]);
    expect(org).toBeUndefined();
    await database.db.transaction().execute(async (tx) => {
      await run(tx, dialect, lockBrandSlots, ["post_slots:brand_x:0"]);
      // SQLite's single writer needs no advisory lock; Postgres holds one until the transaction ends.
      const [held] = await run(tx, dialect, advisoryLocksHeld, []);
      expect(Number(held!.n)).toBe(dialect === "postgres" ? 1 : 0);
      expect(await run(tx, dialect, lockOrgForCount, ["org_none"])).toEqual([]);
    });
  });

  test("storing an idempotent answer twice under one key stores it once", async () => {
    const answer = ["cred_1", "key_1", "fp", 201, '{"ok":true}', 1] as const;
    expect(await run(database.db, dialect, storeIdempotentAnswer, [...answer])).toEqual([{ key: "key_1" }]);
    expect(await run(database.db, dialect, storeIdempotentAnswer, [...answer])).toEqual([]);
  });

  test("the tables with org_id are listed by name, the orgs table itself not among them", async () => {
    const names = (await run(database.db, dialect, tablesWithColumn, ["org_id"])).map((t) => t.table_name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain("api_keys");
    expect(names).toContain("events");
    expect(names).not.toContain("orgs");
    expect(names.some((n) => n.startsWith("sqlite_"))).toBe(false);
  });

  test("a condition binds its input: a metadata key with a quote, LIKE's own characters taken literally", async () => {
    const post = {
      metadata: JSON.stringify({ 'say "hi"': "yes", plain: "x" }),
      search_text: "50% off_now",
    };
    const matches = async <I extends readonly unknown[]>(c: Condition<I>, input: NoInfer<I>) =>
      (
        await sql<{ n: number }>`SELECT 1 AS n FROM (SELECT CAST(${post.metadata} AS TEXT) AS metadata,
          CAST(${post.search_text} AS TEXT) AS search_text) AS posts WHERE ${where(dialect, c, input)}`.execute(
          database.db,
        )
      ).rows.length === 1;
    expect(await matches(postMetadataEquals, ['say "hi"', "yes"])).toBe(true);
    expect(await matches(postMetadataEquals, ['say "hi"', "no"])).toBe(false);
    expect(await matches(postMetadataEquals, ["plain", "x"])).toBe(true);
    expect(await matches(postTextContains, ["50% off"])).toBe(true);
    // Unescaped, _ would match the 0 and % anything.
    expect(await matches(postTextContains, ["5_%"])).toBe(false);
    expect(await matches(postTextContains, ["off_"])).toBe(true);
  });

  test("the event feed: the head is past what is committed, and reading resumes after a cursor", async () => {
    const event = (id: string, org: string): EventRow => ({
      id,
      org_id: org,
      livemode: 0,
      type: "t",
      request_id: null,
      data: "{}",
      created_at: 1,
    });
    const insert = (id: string, org: string) => runRows(database.db, dialect, insertEvents, [event(id, org)]);
    // Several rows in one statement: VALUES rows on SQLite, one array per column on Postgres.
    await runRows(database.db, dialect, insertEvents, [
      event("evt_a1", "org_a"),
      event("evt_b1", "org_b"),
      event("evt_a2", "org_a"),
    ]);
    const after = (tx: number, seq: number) =>
      run(database.db, dialect, eventFeedAfter, ["org_a", 0, tx, tx, seq, 10]);
    // Postgres shows an event once every older transaction has ended, in any database of the server.
    expect((await settled(() => after(0, 0), 2)).map((e) => e.id)).toEqual(["evt_a1", "evt_a2"]);
    const first = await run(database.db, dialect, eventCursor, ["evt_a1", "org_a", 0]);
    expect((await after(Number(first[0]!.tx), Number(first[0]!.seq))).map((e) => e.id)).toEqual(["evt_a2"]);
    // Another org's event has no cursor here.
    expect(await run(database.db, dialect, eventCursor, ["evt_b1", "org_a", 0])).toEqual([]);
    const head = await run(database.db, dialect, eventFeedHead, ["org_a", 0]);
    const skip = new Set(head.flatMap((r) => (r.id ? [r.id] : [])));
    const tail = await after(Number(head[0]!.tx), Number(head[0]!.seq ?? 0));
    expect(tail.filter((e) => !skip.has(e.id))).toEqual([]);
    await insert("evt_a3", "org_a");
    const next = await settled(
      async () =>
        (await after(Number(head[0]!.tx), Number(head[0]!.seq ?? 0))).filter((e) => !skip.has(e.id)),
      1,
    );
    expect(next.map((e) => e.id)).toEqual(["evt_a3"]);
  });
});

/** Reads until `n` rows come back (or 10 s pass): what the feed shows once older transactions end. */
async function settled<T>(read: () => Promise<T[]>, n: number): Promise<T[]> {
  const until = Date.now() + 10_000;
  for (;;) {
    const rows = await read();
    if (rows.length >= n || Date.now() > until) return rows;
    await Bun.sleep(20);
  }
}

/** Advisory locks this connection holds (none on SQLite, which has no such thing). */
const advisoryLocksHeld = statement<[], { n: number }>({
  sqlite: "SELECT 0 AS n",
  postgres:
    "SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted",
});
