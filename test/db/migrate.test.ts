// Migrations: idempotent, safe with concurrent migrators (in one process and in several), bounded by the 5 s lock
// wait, and readiness: /readyz and /v1 answer 503 until the schema is current.
import { Database as SqliteFile } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import pg from "pg";
import { migrations } from "../../migrations/index.ts";
import { migrateInBackground } from "../../src/boot.ts";
import { openDatabase } from "../../src/db/index.ts";
import { latestVersion, MigrationLockTimeout, migrate, schemaVersion } from "../../src/db/migrate.ts";
import type { Migration } from "../../src/db/migration.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect, dropCreatedDatabases, freshDatabase } from "../helpers/db.ts";
import { tenant } from "../helpers/factories.ts";

const LOCK_KEY = 0x5356_4d49; // the migrator's advisory lock key ("SVMI")

test("the version a current schema is checked against is the number of migrations listed", () => {
  // migrations/latest.ts is what a start compares with, so that the list's modules load only to migrate.
  expect(latestVersion()).toBe(migrations.length);
  expect(migrations.map((m) => m.name)).toEqual([...new Set(migrations.map((m) => m.name))]);
});

describeEachDialect("migrations", (dialect) => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of closers.reverse()) await c();
    await dropCreatedDatabases();
  });
  const handle = (url: string) => {
    const d = openDatabase(url, { poolSize: 2 });
    closers.push(() => d.close());
    return d;
  };
  const handle1 = (url: string) => {
    const d = openDatabase(url, { poolSize: 1 });
    closers.push(() => d.close());
    return d;
  };
  const empty = async () => {
    const d = await freshDatabase(dialect, { migrated: false });
    closers.push(() => d.database.close());
    return d;
  };

  test("migrating a current database again changes nothing", async () => {
    const { database } = await freshDatabase(dialect);
    closers.push(() => database.close());
    const before = await database.db.selectFrom("schema_migrations").selectAll().orderBy("version").execute();
    expect(before.map((r) => r.version)).toEqual(Array.from({ length: latestVersion() }, (_, i) => i + 1));
    expect(before[0]!.name).toBe("core");
    expect(await migrate(database.db, dialect)).toBe(latestVersion());
    expect(await migrate(database.db, dialect)).toBe(latestVersion());
    const after = await database.db.selectFrom("schema_migrations").selectAll().orderBy("version").execute();
    expect(after).toEqual(before);
  });

  test("an empty database is at version 0 and migrates to the latest", async () => {
    const { database } = await empty();
    expect(await schemaVersion(database.db)).toBe(0);
    expect(await migrate(database.db, dialect)).toBe(latestVersion());
    expect(await schemaVersion(database.db)).toBe(latestVersion());
  });

  test("two migrators on one database at once both end at the latest version", async () => {
    const { url } = await empty();
    const one = handle(url);
    const two = handle(url);
    const started = Date.now();
    const results = await Promise.all([migrate(one.db, dialect), migrate(two.db, dialect)]);
    expect(results).toEqual([latestVersion(), latestVersion()]);
    expect(Date.now() - started).toBeLessThan(4000); // they took turns; nobody waited out the lock
    const rows = await one.db.selectFrom("schema_migrations").select("version").execute();
    expect(rows.length).toBe(latestVersion());
  });

  test("two `svc migrate` processes at once both succeed", async () => {
    const { url } = await empty();
    const run = () =>
      Bun.spawn(["bun", "src/main.ts", "migrate"], {
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", SVC_DATABASE_URL: url },
        stdout: "pipe",
        stderr: "pipe",
      });
    const procs = [run(), run(), run()];
    const outs = await Promise.all(
      procs.map(async (p) => [
        await p.exited,
        (await new Response(p.stdout).text()).trim(),
        await new Response(p.stderr).text(),
      ]),
    );
    for (const [code, out, err] of outs) {
      expect(err).toBe("");
      expect([code, out]).toEqual([0, `schema version ${latestVersion()}`]);
    }
  });

  test("a lock held by another session for over 5 s makes migrate fail with MigrationLockTimeout", async () => {
    const { url, database } = await empty();
    let release: () => Promise<void>;
    if (dialect === "postgres") {
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      await other.query("SELECT pg_advisory_lock($1)", [LOCK_KEY]);
      release = async () => {
        await other.query("SELECT pg_advisory_unlock($1)", [LOCK_KEY]);
        await other.end();
      };
    } else {
      // Another process's migration (or any write) holds the SQLite write lock.
      const other = new SqliteFile(url.slice("sqlite:".length));
      other.run("BEGIN IMMEDIATE");
      release = async () => {
        other.run("ROLLBACK");
        other.close();
      };
    }
    // The wait must not block this process: a timer keeps firing meanwhile.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 100);
    const started = Date.now();
    const err = await migrate(database.db, dialect).then(
      () => null,
      (e) => e,
    );
    const waited = Date.now() - started;
    clearInterval(timer);
    expect(err).toBeInstanceOf(MigrationLockTimeout);
    expect(err.message).toBe("another migrator held the migration lock for more than 5 s; try again");
    expect(waited).toBeGreaterThanOrEqual(5000);
    expect(waited).toBeLessThan(8000);
    expect(ticks).toBeGreaterThan(30);
    expect(await schemaVersion(database.db)).toBe(0);
    // Once the other session lets go, a retry succeeds.
    await release();
    expect(await migrate(database.db, dialect)).toBe(latestVersion());
  }, 20_000);

  if (dialect === "postgres") {
    test("a concurrent step builds its index outside a transaction, and an index a failed run left invalid is built again", async () => {
      const { url, database } = await freshDatabase(dialect);
      closers.push(() => database.close());
      // One connection, so that what the step sets on the migrator's connection can be read back on it.
      const { db } = handle1(url);
      await sql`CREATE TABLE scratch_codes (code INTEGER NOT NULL)`.execute(db);
      await sql`INSERT INTO scratch_codes (code) VALUES (1), (1), (2)`.execute(db);
      const unique: Migration = {
        name: "scratch_codes_unique",
        concurrently: true,
        up: () => [
          "CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS scratch_codes_code ON scratch_codes (code)",
        ],
      };
      const list = [...migrations, unique];
      const valid = async () =>
        (
          await sql<{ valid: boolean }>`SELECT i.indisvalid AS valid FROM pg_class c
            JOIN pg_index i ON i.indexrelid = c.oid WHERE c.relname = 'scratch_codes_code'`.execute(db)
        ).rows.map((r) => r.valid);

      // The duplicate makes the build fail halfway: Postgres keeps the index, invalid, and the step is not
      // recorded. (Inside a transaction the statement would have failed at once, and left nothing.)
      const err = await migrate(db, dialect, list).then(
        () => null,
        (e: Error) => e,
      );
      expect(String(err)).toMatch(/could not create unique index/);
      expect(await valid()).toEqual([false]);
      expect(await schemaVersion(db)).toBe(latestVersion());

      // Fixed data, next run: the invalid index is dropped and built again, and the step recorded once.
      await sql`DELETE FROM scratch_codes WHERE code = 1`.execute(db);
      expect(await migrate(db, dialect, list)).toBe(latestVersion() + 1);
      expect(await valid()).toEqual([true]);
      expect(await migrate(db, dialect, list)).toBe(latestVersion() + 1);
      const rows = await db
        .selectFrom("schema_migrations")
        .selectAll()
        .where("name", "=", unique.name)
        .execute();
      expect(rows.map((r) => r.version)).toEqual([latestVersion() + 1]);
      const dup = await sql`INSERT INTO scratch_codes (code) VALUES (2)`.execute(db).then(
        () => null,
        (e: Error) => e,
      );
      expect(String(dup)).toMatch(/duplicate key/);
      // The lock timeout the step set for itself does not outlive it on the migrator's connection.
      const timeout = await db
        .connection()
        .execute((c) => sql<{ lock_timeout: string }>`SHOW lock_timeout`.execute(c));
      expect(timeout.rows[0]!.lock_timeout).toBe("0");
    });
  }

  describe("readiness", () => {
    let t: TestApp;
    afterAll(() => t.close());

    test("/readyz and /v1 answer 503 on an empty database until the migration runs", async () => {
      t = await testApp(dialect, { migrated: false });
      const ready = await t.request("GET", "/readyz");
      expect([ready.status, ready.body]).toEqual([503, { status: "migrating" }]);
      expect(ready.headers.get("retry-after")).toBe("5");
      expect((await t.request("GET", "/healthz")).body).toEqual({ status: "ok" });
      const me = await t.request("GET", "/v1/me", { key: `svc_user_${"a".repeat(32)}` });
      expect([me.status, me.body.code]).toEqual([503, "service_unavailable"]);
      expect(me.headers.get("retry-after")).toBe("30");
      const brands = await t.request("POST", "/v1/brands", { body: { name: "Early" } });
      expect([brands.status, brands.body.code]).toEqual([503, "service_unavailable"]);

      // What `svc server` does at start: migrate in the background.
      await migrateInBackground(t.app).done;
      expect((await t.request("GET", "/readyz")).body).toEqual({ status: "ready" });
      expect((await t.request("GET", "/v1/me")).body.code).toBe("api_key_missing");
      const a = await tenant(t.app);
      const ok = await t.request("GET", "/v1/me", { key: a.testKey });
      expect([ok.status, ok.body.org.id]).toEqual([200, a.orgId]);
    });
  });
});
