// Transactions that run together (on SQLite they commit as one group): each one's failure undoes only its own
// writes, none resolves before its writes are committed (visible to another connection), a COMMIT that fails
// fails every transaction in it, and another process writing to the same file meanwhile loses nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Kysely, sql } from "kysely";
import { type Database, openDatabase } from "../../src/db/index.ts";
import { raw } from "../../src/db/raw.ts";
import type { DB } from "../../src/db/schema.ts";
import { BunSqliteDialect, openSqlite } from "../../src/db/sqlite.ts";
import { describeEachDialect, freshDatabase } from "../helpers/db.ts";

async function count(d: Database, where = "1 = 1"): Promise<number> {
  const [r] = await raw<{ n: number }>(
    d.db,
    d.dialect,
    `SELECT COUNT(*) AS n FROM gc_rows WHERE ${where}`,
    [],
  );
  return Number(r!.n);
}

describeEachDialect("transactions run together", (dialect) => {
  let d: Database;
  let other: Database;
  beforeAll(async () => {
    const f = await freshDatabase(dialect);
    d = f.database;
    other = openDatabase(f.url);
    await sql`CREATE TABLE gc_rows (id TEXT PRIMARY KEY, n INTEGER NOT NULL)`.execute(d.db);
  });
  afterAll(async () => {
    await other.close();
    await d.close();
  });

  test("a failing transaction among many undoes only its own rows; each success is committed when it resolves", async () => {
    const seenFromOther: boolean[] = [];
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        d.db
          .transaction()
          .execute(async (tx) => {
            await raw(tx, d.dialect, "INSERT INTO gc_rows (id, n) VALUES (?, ?)", [`a${i}`, i]);
            await raw(tx, d.dialect, "INSERT INTO gc_rows (id, n) VALUES (?, ?)", [`b${i}`, i]);
            if (i % 3 === 1) throw new Error(`member ${i} fails`);
          })
          .then(async () => {
            const [r] = await raw<{ n: number }>(
              other.db,
              other.dialect,
              "SELECT COUNT(*) AS n FROM gc_rows WHERE id = ?",
              [`b${i}`],
            );
            seenFromOther[i] = Number(r!.n) === 1;
          }),
      ),
    );
    const failed = results.flatMap((r, i) => (r.status === "rejected" ? [i] : []));
    expect(failed).toEqual(Array.from({ length: 10 }, (_, k) => 3 * k + 1));
    for (const r of results)
      if (r.status === "rejected") expect((r.reason as Error).message).toMatch(/member \d+ fails/);
    expect(await count(d)).toBe(40);
    expect(await count(d, "n % 3 = 1")).toBe(0);
    expect(seenFromOther.filter(Boolean)).toHaveLength(20);
  });

  test("a plain query sent while transactions run sees committed rows and its own writes persist", async () => {
    const [, , inserted] = await Promise.all([
      d.db
        .transaction()
        .execute((tx) => raw(tx, d.dialect, "INSERT INTO gc_rows (id, n) VALUES ('p1', 1)", [])),
      d.db
        .transaction()
        .execute((tx) => raw(tx, d.dialect, "INSERT INTO gc_rows (id, n) VALUES ('p2', 2)", [])),
      raw(d.db, d.dialect, "INSERT INTO gc_rows (id, n) VALUES ('p3', 3) RETURNING id", []),
    ]);
    expect(inserted).toEqual([{ id: "p3" }]);
    expect(await count(other, "id IN ('p1', 'p2', 'p3')")).toBe(3);
  });
});

describe("group commit (sqlite)", () => {
  let d: Database;
  let url: string;
  beforeAll(async () => {
    const f = await freshDatabase("sqlite");
    await f.database.close();
    url = f.url;
    // A group open long enough that a slow machine cannot split the transactions these tests send together.
    const db = new Kysely<DB>({
      dialect: new BunSqliteDialect(openSqlite(url.replace(/^sqlite:/, "")), {
        groupLimits: { maxMembers: 16, maxGroupMs: 60_000 },
      }),
    });
    d = { db, dialect: "sqlite", listen: async () => async () => {}, close: () => db.destroy() };
    await sql`CREATE TABLE gc_parent (id TEXT PRIMARY KEY)`.execute(d.db);
    await sql`CREATE TABLE gc_rows (id TEXT PRIMARY KEY, n INTEGER NOT NULL)`.execute(d.db);
    // Checked at COMMIT, not at the statement: the way to make a group's COMMIT itself fail.
    await sql`CREATE TABLE gc_child (id TEXT PRIMARY KEY, parent TEXT REFERENCES gc_parent(id) DEFERRABLE INITIALLY DEFERRED)`.execute(
      d.db,
    );
  });
  afterAll(() => d.close());

  test("a COMMIT that fails fails every transaction of its group, and the next ones commit", async () => {
    const results = await Promise.allSettled([
      d.db.transaction().execute(async (tx) => {
        await raw(tx, "sqlite", "INSERT INTO gc_rows (id, n) VALUES ('c1', 1)", []);
        await raw(tx, "sqlite", "INSERT INTO gc_rows (id, n) VALUES ('c2', 2)", []);
      }),
      d.db.transaction().execute(async (tx) => {
        await raw(tx, "sqlite", "INSERT INTO gc_child (id, parent) VALUES ('x', 'missing')", []);
      }),
      d.db.transaction().execute(async (tx) => {
        await raw(tx, "sqlite", "INSERT INTO gc_rows (id, n) VALUES ('c3', 3)", []);
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    for (const r of results)
      expect(String((r as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY constraint failed/);
    expect(await count(d, "id LIKE 'c%'")).toBe(0);
    expect(await raw(d.db, "sqlite", "SELECT id FROM gc_child", [])).toEqual([]);
    await d.db
      .transaction()
      .execute((tx) => raw(tx, "sqlite", "INSERT INTO gc_rows (id, n) VALUES ('c4', 4)", []));
    expect(await count(d, "id LIKE 'c%'")).toBe(1);
  });

  test("the group's first transaction failing undoes only its rows; the ones after it commit", async () => {
    const results = await Promise.allSettled([
      d.db.transaction().execute(async (tx) => {
        await raw(tx, "sqlite", "INSERT INTO gc_rows (id, n) VALUES ('f1', 1)", []);
        throw new Error("the first fails");
      }),
      d.db
        .transaction()
        .execute((tx) => raw(tx, "sqlite", "INSERT INTO gc_rows (id, n) VALUES ('f2', 2)", [])),
      d.db.transaction().execute(async (tx) => {
        await raw(tx, "sqlite", "INSERT INTO gc_rows (id, n) VALUES ('f3', 3)", []);
        throw new Error("the third fails");
      }),
      d.db
        .transaction()
        .execute((tx) => raw(tx, "sqlite", "INSERT INTO gc_rows (id, n) VALUES ('f4', 4)", [])),
    ]);
    expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : "ok"))).toEqual([
      "Error: the first fails",
      "ok",
      "Error: the third fails",
      "ok",
    ]);
    const rows = await raw<{ id: string }>(
      d.db,
      "sqlite",
      "SELECT id FROM gc_rows WHERE id LIKE 'f%' ORDER BY id",
      [],
    );
    expect(rows.map((r) => r.id)).toEqual(["f2", "f4"]);
    // Committed, not left in an open transaction: another connection to the file sees them.
    const other = openSqlite(url.replace(/^sqlite:/, ""));
    try {
      expect(other.query("SELECT id FROM gc_rows WHERE id LIKE 'f%' ORDER BY id").all()).toEqual([
        { id: "f2" },
        { id: "f4" },
      ]);
    } finally {
      other.close();
    }
  });

  test("another process writing to the same file meanwhile: every row of both is there", async () => {
    const path = url.replace(/^sqlite:/, "");
    const script = `
      import { openSqlite } from "${process.cwd()}/src/db/sqlite.ts";
      const db = openSqlite(${JSON.stringify(path)});
      for (let i = 0; i < 300; i++) {
        db.run("BEGIN IMMEDIATE");
        db.run("INSERT INTO gc_rows (id, n) VALUES (?, ?)", ["proc" + i, i]);
        db.run("COMMIT");
        if (i % 20 === 0) await Bun.sleep(1);
      }
      db.close();
    `;
    const proc = Bun.spawn(["bun", "-e", script], { stdout: "inherit", stderr: "inherit" });
    let ours = 0;
    while (proc.exitCode === null && ours < 3000) {
      await Promise.all(
        Array.from({ length: 10 }, (_, k) =>
          d.db
            .transaction()
            .execute((tx) =>
              raw(tx, "sqlite", "INSERT INTO gc_rows (id, n) VALUES (?, ?)", [`ours${ours + k}`, k]),
            ),
        ),
      );
      ours += 10;
    }
    expect(await proc.exited).toBe(0);
    expect(await count(d, "id LIKE 'proc%'")).toBe(300);
    expect(await count(d, "id LIKE 'ours%'")).toBe(ours);
  });
});
