// Applies migrations/ in order. Concurrent migrators take turns on a lock and give up after 5 s (reference §10):
// Postgres uses a session advisory lock; SQLite's BEGIN IMMEDIATE waits on the file lock (busy_timeout 5 s).
import { sql } from "kysely";
import { migrations as all } from "../../migrations/index.ts";
import type { Db } from "./index.ts";
import type { Dialect, Migration } from "./migration.ts";

const LOCK_KEY = 0x5356_4d49; // "SVMI"
const LOCK_WAIT_MS = 5000;

export class MigrationLockTimeout extends Error {
  constructor() {
    super("another migrator held the migration lock for more than 5 s; try again");
  }
}

export const latestVersion = (list: Migration[] = all) => list.length;

/** The applied schema version, 0 for an empty database. */
export async function schemaVersion(db: Db): Promise<number> {
  try {
    const row = await db
      .selectFrom("schema_migrations")
      .select((eb) => eb.fn.max("version").as("v"))
      .executeTakeFirst();
    return Number(row?.v ?? 0);
  } catch (e) {
    if (/no such table|does not exist/i.test(String((e as Error).message))) return 0;
    throw e;
  }
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`;

/** Applies every pending migration; returns the schema version reached. */
export async function migrate(db: Db, dialect: Dialect, list: Migration[] = all): Promise<number> {
  return db.connection().execute(async (conn) => {
    if (dialect === "postgres") {
      const deadline = Date.now() + LOCK_WAIT_MS;
      for (;;) {
        const r = await sql<{ ok: boolean }>`SELECT pg_try_advisory_lock(${LOCK_KEY}) AS ok`.execute(conn);
        if (r.rows[0]?.ok) break;
        if (Date.now() > deadline) throw new MigrationLockTimeout();
        await Bun.sleep(100);
      }
    }
    try {
      for (let version = 1; version <= list.length; version++) {
        const m = list[version - 1]!;
        await conn.transaction().execute(async (trx) => {
          if (dialect === "postgres") await sql`SET LOCAL lock_timeout = '5s'`.execute(trx);
          await sql.raw(CREATE_TABLE).execute(trx);
          const done = await trx
            .selectFrom("schema_migrations")
            .select("version")
            .where("version", "=", version)
            .executeTakeFirst();
          if (done) return;
          for (const stmt of m.up(dialect)) await sql.raw(stmt).execute(trx);
          await trx
            .insertInto("schema_migrations")
            .values({ version, name: m.name, applied_at: Date.now() })
            .execute();
        });
      }
    } catch (e) {
      if (/SQLITE_BUSY|database is locked/i.test(String((e as Error).message)))
        throw new MigrationLockTimeout();
      throw e;
    } finally {
      if (dialect === "postgres") await sql`SELECT pg_advisory_unlock(${LOCK_KEY})`.execute(conn);
    }
    return schemaVersion(conn);
  });
}
