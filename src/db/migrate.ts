// Applies migrations/ in order. Concurrent migrators take turns on a lock and give up after 5 s (reference §10):
// Postgres uses a session advisory lock; SQLite uses the write lock of BEGIN IMMEDIATE, tried without waiting
// and retried asynchronously, because bun:sqlite's busy_timeout would block the whole process while it waits
// (a second migrator in the same process could then never let the first one finish).
import { type Kysely, sql, type Transaction } from "kysely";
import { LATEST_VERSION } from "../../migrations/latest.ts";
import type { Db } from "./index.ts";
import type { Dialect, Migration } from "./migration.ts";
import type { DB } from "./schema.ts";
import { BUSY_TIMEOUT_MS } from "./sqlite.ts";

const LOCK_KEY = 0x5356_4d49; // "SVMI"
const LOCK_WAIT_MS = 5000;

export class MigrationLockTimeout extends Error {
  constructor() {
    super("another migrator held the migration lock for more than 5 s; try again");
  }
}

/** The schema version this build reaches. */
export const latestVersion = (): number => LATEST_VERSION;

const loadAll = async (): Promise<Migration[]> => (await import("../../migrations/index.ts")).migrations;

/** The applied schema version, 0 for an empty database. */
export async function schemaVersion(db: Db): Promise<number> {
  try {
    const row = await db
      .selectFrom("schema_migrations")
      .select((eb) => eb.fn.max("version").as("v"))
      .executeTakeFirst();
    return Number(row?.v ?? 0);
  } catch (e) {
    // Only a missing table means "not migrated yet"; a missing database (also "does not exist") is an outage.
    const err = e as { code?: string; message?: string };
    if (err?.code === "42P01" || /no such table/i.test(String(err?.message))) return 0;
    throw e;
  }
}

const isBusy = (e: unknown) => /SQLITE_BUSY|database is locked/i.test(String((e as Error)?.message));

/** One migration transaction; on SQLite, retried while another connection holds the write lock. */
async function step(
  conn: Kysely<DB>,
  dialect: Dialect,
  fn: (trx: Transaction<DB>) => Promise<void>,
): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      return await conn.transaction().execute(fn);
    } catch (e) {
      if (dialect !== "sqlite" || !isBusy(e) || Date.now() > deadline) throw e;
      await Bun.sleep(25);
    }
  }
}

/** `CREATE [UNIQUE] INDEX CONCURRENTLY [IF NOT EXISTS] name`: the index a statement builds. */
const CONCURRENT_INDEX =
  /^\s*CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+(?:IF\s+NOT\s+EXISTS\s+)?("?)(\w+)\1/i;

/**
 * A Postgres step outside a transaction (Migration.concurrently), still under the migrator's advisory lock. A
 * CREATE INDEX CONCURRENTLY that was interrupted (the process died, a statement timed out) leaves an invalid index
 * behind, which IF NOT EXISTS would then take for done: it is dropped and built again. The version is recorded
 * after the last statement, so a step that stops halfway runs whole next time.
 */
async function concurrentStep(conn: Kysely<DB>, version: number, m: Migration): Promise<void> {
  if (await applied(conn, version)) return;
  await sql`SET lock_timeout = '5s'`.execute(conn);
  try {
    for (const stmt of m.up("postgres")) {
      const index = CONCURRENT_INDEX.exec(stmt)?.[2];
      if (index) {
        const invalid = await sql<{ n: number }>`
          SELECT 1 AS n FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
          JOIN pg_namespace s ON s.oid = c.relnamespace
          WHERE c.relname = ${index} AND s.nspname = current_schema() AND NOT i.indisvalid`.execute(conn);
        if (invalid.rows.length > 0)
          await sql.raw(`DROP INDEX CONCURRENTLY IF EXISTS "${index}"`).execute(conn);
      }
      await sql.raw(stmt).execute(conn);
    }
  } finally {
    await sql`RESET lock_timeout`.execute(conn);
  }
  await recordApplied(conn, version, m);
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`;

/** Whether `version` is recorded as applied (creating the record table on first use). */
async function applied(db: Kysely<DB>, version: number): Promise<boolean> {
  await sql.raw(CREATE_TABLE).execute(db);
  const row = await db
    .selectFrom("schema_migrations")
    .select("version")
    .where("version", "=", version)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether versions 1..n are all recorded (the version is the table's key): then there is nothing to apply. */
async function allApplied(db: Kysely<DB>, n: number): Promise<boolean> {
  try {
    const row = await db
      .selectFrom("schema_migrations")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("version", "<=", n)
      .executeTakeFirst();
    return Number(row?.n) === n;
  } catch {
    return false; // no record table yet: the steps make it
  }
}

async function recordApplied(db: Kysely<DB>, version: number, m: Migration): Promise<void> {
  await db
    .insertInto("schema_migrations")
    .values({ version, name: m.name, applied_at: Date.now() })
    .execute();
}

/** Applies every pending migration; returns the schema version reached. */
export async function migrate(db: Db, dialect: Dialect, given?: Migration[]): Promise<number> {
  return db.connection().execute(async (conn) => {
    // Every start of a process that migrates finds the schema current: one query, no lock and no steps (a step per
    // migration, each a transaction of three statements, was about 10 ms of CPU at start on SQLite), and none of the
    // migrations' modules loaded.
    if (await allApplied(conn, given?.length ?? LATEST_VERSION)) return schemaVersion(conn);
    const list = given ?? (await loadAll());
    if (dialect === "postgres") {
      const deadline = Date.now() + LOCK_WAIT_MS;
      for (;;) {
        const r = await sql<{ ok: boolean }>`SELECT pg_try_advisory_lock(${LOCK_KEY}) AS ok`.execute(conn);
        if (r.rows[0]?.ok) break;
        if (Date.now() > deadline) throw new MigrationLockTimeout();
        await Bun.sleep(100);
      }
    }
    if (dialect === "sqlite") await sql.raw("PRAGMA busy_timeout = 0").execute(conn);
    try {
      for (let version = 1; version <= list.length; version++) {
        const m = list[version - 1]!;
        if (m.concurrently && dialect === "postgres") {
          await concurrentStep(conn, version, m);
          continue;
        }
        await step(conn, dialect, async (trx) => {
          if (dialect === "postgres") await sql`SET LOCAL lock_timeout = '5s'`.execute(trx);
          if (await applied(trx, version)) return;
          for (const stmt of m.up(dialect)) await sql.raw(stmt).execute(trx);
          await recordApplied(trx, version, m);
        });
      }
    } catch (e) {
      if (isBusy(e)) throw new MigrationLockTimeout();
      throw e;
    } finally {
      if (dialect === "postgres") await sql`SELECT pg_advisory_unlock(${LOCK_KEY})`.execute(conn);
      else await sql.raw(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`).execute(conn);
    }
    return schemaVersion(conn);
  });
}
