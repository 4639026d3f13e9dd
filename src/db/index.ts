// The database: one Kysely instance over bun:sqlite (default) or pg, chosen by the URL.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { Kysely, PostgresDialect, type Transaction } from "kysely";
import type { Dialect } from "./migration.ts";
import type { DB } from "./schema.ts";
import { BunSqliteDialect, openSqlite } from "./sqlite.ts";

export type Db = Kysely<DB>;
export type Tx = Transaction<DB>;
export type { Dialect };

// pg is loaded only for Postgres: an appliance on SQLite never pays its start-up time and memory.
let pgModule: typeof import("pg") | null = null;
function loadPg(): typeof import("pg") {
  if (!pgModule) {
    pgModule = require("pg") as typeof import("pg");
    // int8 (COUNT, BIGINT times, BIGSERIAL) comes back as a string by default; our values fit in a double.
    pgModule.types.setTypeParser(20, (v) => Number(v));
  }
  return pgModule;
}

export interface Database {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
}

export function openDatabase(url: string, opts: { poolSize?: number } = {}): Database {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const pg = loadPg();
    const pool = new pg.Pool({
      connectionString: url,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30000,
    });
    // A dropped idle connection must not crash the process; the pool makes a new one on the next query.
    pool.on("error", () => {});
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
