// The database: one Kysely instance over bun:sqlite (default) or pg, chosen by the URL.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { Kysely, PostgresDialect, type Transaction } from "kysely";
import type { Dialect } from "./migration.ts";
import { preparedNames } from "./prepared.ts";
import type { DB } from "./schema.ts";
import { BunSqliteDialect, openSqlite } from "./sqlite.ts";
import { walSync } from "./wal-sync.ts";

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
  /**
   * Calls `fn` whenever another connection NOTIFYs `channel` (Postgres). SQLite has no such thing: one file is
   * served by processes that wake each other through polling, and in-process through App.signals.
   */
  listen(channel: string, fn: () => void): Promise<() => Promise<void>>;
  /**
   * Resolves once what this process has committed would survive a power loss. Postgres commits durably already
   * (synchronous_commit); SQLite commits with synchronous = NORMAL and syncs its WAL here (src/db/wal-sync.ts).
   * Absent on databases made by hand in tests: nothing to sync.
   */
  syncWrites?(): Promise<void>;
  close(): Promise<void>;
}

export function openDatabase(url: string, opts: { poolSize?: number } = {}): Database {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const pg = loadPg();
    const pool = new pg.Pool({
      connectionString: url,
      // No JIT compilation: it pays off only for long analytical queries, and a plan whose estimate crosses
      // jit_above_cost (a stale statistic is enough) spends a second compiling a query that runs in a millisecond.
      options: "-c jit=off",
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30000,
    });
    // A dropped connection must not crash the process; the pool makes a new one on the next query. The pool
    // listens for errors only on idle clients: one lost while checked out (the database went away under a query)
    // emits "error" with no listener, which is an uncaught exception. Its query is rejected either way.
    pool.on("error", () => {});
    pool.on("connect", (client) => {
      client.on("error", () => {});
      prepareHotStatements(client);
    });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    const listen = async (channel: string, fn: () => void) => {
      const client = new pg.Client({ connectionString: url });
      client.on("error", () => {});
      client.on("notification", (n) => {
        if (n.channel === channel) fn();
      });
      await client.connect();
      await client.query(`LISTEN "${channel.replace(/"/g, "")}"`);
      return async () => {
        await client.end().catch(() => {});
      };
    };
    // Commits are durable when they return (synchronous_commit): nothing more to sync.
    return { db, dialect: "postgres", listen, syncWrites: async () => {}, close: () => db.destroy() };
  }
  const path = url.replace(/^sqlite:/, "");
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Kysely<DB>({ dialect: new BunSqliteDialect(openSqlite(path), { path }) });
  const wal = path === ":memory:" ? null : walSync(path);
  return {
    db,
    dialect: "sqlite",
    listen: async () => async () => {},
    syncWrites: async () => wal?.sync(),
    close: async () => {
      await db.destroy();
      await wal?.close();
    },
  };
}

/**
 * The texts src/db/raw.ts runs become prepared statements on each connection: Kysely passes (text, values), and
 * this client turns a known text into a named query, which pg parses once per connection and Postgres plans once
 * it has seen a few calls. Everything else passes through unchanged.
 */
function prepareHotStatements(client: import("pg").PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (config: unknown, values?: unknown, callback?: unknown) => {
    if (typeof config === "string" && Array.isArray(values) && values.length > 0) {
      const name = preparedNames.get(config);
      if (name !== undefined) return query({ name, text: config, values }, callback);
    }
    return query(config, values, callback);
  };
}

// SQLSTATEs that mean the server will not serve this connection now, though nothing is wrong with the query:
// class 08 (connection exception), 57P01-57P05 (shut down, crashed, starting up or in recovery, idle timeout),
// 53300 (too many connections), 3D000 (the database does not exist: dropped, or being restored).
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-5]|53300|3D000)$/;
const UNAVAILABLE_SQLITE = new Set(["SQLITE_BUSY", "SQLITE_IOERR", "SQLITE_CANTOPEN"]);
/** The system calls that open a connection: any failure of theirs is a database out of reach. */
const CONNECTING = new Set(["connect", "getaddrinfo"]);
/** Codes only a socket gives (a file read's ENOENT is not one of them). */
const LOST = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection timeout|Client has encountered a connection error|database is locked|timeout exceeded when trying to connect/i;

/**
 * True for errors that mean the database cannot be reached right now (not a bad query). Judged by class, not by a
 * list of codes met so far: a connection that could not be made (a Node system error of the `connect` or
 * `getaddrinfo` call, whatever its code: a stopped Postgres behind a Unix socket is ENOENT, behind TCP
 * ECONNREFUSED, an unresolvable host ENOTFOUND or EAI_AGAIN), or one lost on the way (a reset, a broken pipe, a
 * timeout). Postgres's own refusals carry a SQLSTATE (classes above), its answers to a bad query other SQLSTATEs
 * and never a syscall. Wrapped errors (`cause`, AggregateError) are looked through.
 */
export function isUnavailable(e: unknown, depth = 0): boolean {
  const err = e as {
    code?: unknown;
    message?: unknown;
    syscall?: unknown;
    cause?: unknown;
    errors?: unknown;
  } | null;
  if (!err || typeof err !== "object" || depth > 4) return false;
  const code = String(err.code ?? "");
  if (typeof err.syscall === "string" && CONNECTING.has(err.syscall)) return true;
  if (LOST.has(code) || UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SQLITE.has(code)) return true;
  if (UNAVAILABLE_MESSAGE.test(String(err.message ?? ""))) return true;
  if (Array.isArray(err.errors) && err.errors.some((x) => isUnavailable(x, depth + 1))) return true;
  return err.cause !== undefined && isUnavailable(err.cause, depth + 1);
}
