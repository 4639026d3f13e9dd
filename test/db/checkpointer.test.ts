// WAL checkpoints off the serving thread (SQLite): once a process commits often, a thread of its own copies the
// write-ahead log into the database file (PASSIVE), the connection's own auto-checkpoint becomes a backstop, and
// stopping (or closing the database) hands checkpoints back to the connection at the default 1,000 pages.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kysely, sql } from "kysely";
import { openDatabase } from "../../src/db/index.ts";
import type { DB } from "../../src/db/schema.ts";
import { BunSqliteDialect, openSqlite } from "../../src/db/sqlite.ts";

const dir = mkdtempSync(join(tmpdir(), "svc-checkpointer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = () => join(dir, `cp${++n}.db`);

// biome-ignore lint/suspicious/noExplicitAny: a scratch table outside the schema
type Scratch = Kysely<any>;

async function autocheckpoint(db: Scratch): Promise<number> {
  const r = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(db);
  return Number(r.rows[0]!.wal_autocheckpoint);
}

/** A scratch table, and an empty log: everything the database file holds from here on was checkpointed into it. */
async function scratch(db: Scratch): Promise<void> {
  await sql`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`.execute(db);
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
}

/** `count` small transactions in quick succession, one row each (about one page of log per commit). */
async function commits(db: Scratch, count: number, from = 0): Promise<void> {
  for (let i = from; i < from + count; i++)
    await db
      .transaction()
      .execute((tx) => sql`INSERT INTO notes (body) VALUES (${`note ${i} `.repeat(20)})`.execute(tx));
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await Bun.sleep(20);
  }
}

describe("WAL checkpointer (sqlite)", () => {
  test("a database opened with openDatabase that commits often gets its log copied into the file by another thread", async () => {
    const path = file();
    const { db, close } = openDatabase(`sqlite:${path}`);
    try {
      await scratch(db);
      expect(await autocheckpoint(db)).toBe(1000);
      const before = statSync(path).size;
      // 300 commits of one small row each: a few hundred log pages, well under the connection's own 1,000-page
      // auto-checkpoint, so the connection never copies them itself.
      await commits(db, 300);
      // The thread is running: the connection's auto-checkpoint is now only a backstop, far larger.
      expect(await autocheckpoint(db)).toBeGreaterThan(1000);
      const walPages = Math.ceil(statSync(`${path}-wal`).size / 4096);
      expect(walPages).toBeLessThan(1000);
      await until("the database file grows", () => statSync(path).size > before);
      // Every row is in the file (read back through the main connection).
      const r = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM notes`.execute(db);
      expect(Number(r.rows[0]!.n)).toBe(300);
    } finally {
      await close();
    }
  });

  test("the thread starts only after enough commits in quick succession, counts its checkpoints, and stop() hands checkpoints back at 1,000 pages", async () => {
    const path = file();
    const dialect = new BunSqliteDialect(openSqlite(path), { path });
    const db: Scratch = new Kysely<DB>({ dialect });
    const cp = dialect.checkpointer!;
    try {
      expect(cp).not.toBeNull();
      await scratch(db);
      await commits(db, 100);
      expect(cp.running).toBe(false);
      expect(await autocheckpoint(db)).toBe(1000);
      const before = statSync(path).size;
      await commits(db, 200, 100);
      expect(cp.running).toBe(true);
      expect(await autocheckpoint(db)).toBeGreaterThan(1000);
      await until("the thread reports a checkpoint", () => cp.checkpoints > 0);
      expect(cp.lastError).toBeNull();
      expect(statSync(path).size).toBeGreaterThan(before);
      cp.stop();
      expect(cp.running).toBe(false);
      expect(await autocheckpoint(db)).toBe(1000);
      // Stopping twice is harmless, and a busy spell later starts it again.
      cp.stop();
      await commits(db, 250, 300);
      expect(cp.running).toBe(true);
    } finally {
      await db.destroy();
    }
    // Closing the database stops the thread.
    expect(cp.running).toBe(false);
  });

  test("closing the database stops a running thread and the file holds every row", async () => {
    const path = file();
    const dialect = new BunSqliteDialect(openSqlite(path), { path });
    const db: Scratch = new Kysely<DB>({ dialect });
    await scratch(db);
    await commits(db, 250);
    expect(dialect.checkpointer!.running).toBe(true);
    await db.destroy();
    expect(dialect.checkpointer!.running).toBe(false);
    const again = openSqlite(path);
    try {
      expect(again.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM notes").get()!.n).toBe(250);
    } finally {
      again.close();
    }
  });

  test("an in-memory database has no checkpointer", () => {
    const dialect = new BunSqliteDialect(openSqlite(":memory:"), { path: ":memory:" });
    expect(dialect.checkpointer).toBeNull();
    expect(new BunSqliteDialect(openSqlite(":memory:")).checkpointer).toBeNull();
    dialect.db.close();
  });
});
