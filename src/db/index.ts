// The database: one Kysely instance over bun:sqlite (default) or pg, chosen by the URL.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { Kysely, PostgresDialect, type Transaction } from "kysely";
import pg from "pg";
import type { Dialect } from "./migration.ts";
import type { DB } from "./schema.ts";
import { BunSqliteDialect, openSqlite } from "./sqlite.ts";

export type Db = Kysely<DB>;
export type Tx = Transaction<DB>;
export type { Dialect };

// int8 (COUNT, BIGINT times, BIGSERIAL) comes back as a string by default; our values fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));

export interface Database {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
}

export function openDatabase(url: string, opts: { poolSize?: number } = {}): Database {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({
      connectionString: url,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30000,
    });
    // A dropped connection must not crash the process; the pool makes a new one on the next query. The pool
    // listens for errors only on idle clients: one lost while checked out (the database went away under a query)
    // emits "error" with no listener, which is an uncaught exception. Its query is rejected either way.
    pool.on("error", () => {});
    pool.on("connect", (client) => client.on("error", () => {}));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: "postgres", close: () => db.destroy() };
  }
  const path = url.replace(/^sqlite:/, "");
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Kysely<DB>({ dialect: new BunSqliteDialect(openSqlite(path)) });
  return { db, dialect: "sqlite", close: () => db.destroy() };
}

/** True for errors that mean the database cannot be reached right now (not a bad query). */
export function isUnavailable(e: unknown): boolean {
  const err = e as { code?: string; message?: string } | null;
  if (!err) return false;
  const code = String(err.code ?? "");
  if (
    [
      "ECONNREFUSED",
      "ECONNRESET",
      "ETIMEDOUT",
      "ENOTFOUND",
      "EPIPE",
      "57P01",
      "57P02",
      "57P03",
      "08000",
      "08001",
      "08003",
      "08006",
      "53300",
      "3D000", // the database does not exist (dropped, or being restored)
      "SQLITE_BUSY",
      "SQLITE_IOERR",
      "SQLITE_CANTOPEN",
    ].includes(code)
  )
    return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|database is locked|timeout exceeded when trying to connect/i.test(
    err.message ?? "",
  );
}
