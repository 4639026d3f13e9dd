// Index definitions and SQLite query plans, for the tests that check a migration's indexes and which index a
// statement reads: the definitions as each database reports them, a statement's EXPLAIN QUERY PLAN on a
// connection of its own, and a second App on the test's SQLite file that records every statement it sends (to
// explain a statement exactly as a domain function builds it).
import { Database as SqliteFile } from "bun:sqlite";
import { Kysely, sql } from "kysely";
import { type App, createApp } from "../../src/app/context.ts";
import { silentLogger } from "../../src/app/log.ts";
import type { Db } from "../../src/db/index.ts";
import type { DB } from "../../src/db/schema.ts";
import { BunSqliteDialect, openSqlite } from "../../src/db/sqlite.ts";
import { sqliteText } from "../../src/db/sqlite-params.ts";
import type { Clock } from "../../src/lib/clock.ts";
import type { TestApp } from "./app.ts";

/** A test's database: a TestApp's, or one from freshDatabase ({ url, db: database.db }). */
export type TestDatabase = TestApp | { url: string; db: Db };
const urlOf = (on: TestDatabase) => ("dbUrl" in on ? on.dbUrl : on.url);
const dbOf = (on: TestDatabase) => ("app" in on ? on.app.db : on.db);
const fileOf = (on: TestDatabase) => urlOf(on).replace(/^sqlite:/, "");

/** Each index of `table` by name, with its definition (SQLite's CREATE INDEX text, Postgres's indexdef). */
export async function indexDefinitions(
  on: TestDatabase,
  dialect: string,
  table: string,
): Promise<Record<string, string>> {
  if (dialect === "postgres") {
    const r = await sql<{ indexname: string; indexdef: string }>`
      SELECT indexname, indexdef FROM pg_indexes WHERE tablename = ${table}`.execute(dbOf(on));
    return Object.fromEntries(r.rows.map((x) => [x.indexname, x.indexdef]));
  }
  const f = new SqliteFile(fileOf(on), { readonly: true });
  try {
    const rows = f
      .query<{ name: string; sql: string }, [string]>(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
      )
      .all(table);
    return Object.fromEntries(rows.map((x) => [x.name, x.sql]));
  } finally {
    f.close();
  }
}

/**
 * The plan's lines (EXPLAIN QUERY PLAN), on a connection of its own to the test's database file, of the text as the
 * app's connection prepares it (its parameters written as values: src/db/sqlite-params.ts).
 */
export function explain(on: TestDatabase, text: string, params: readonly unknown[]): string[] {
  const f = new SqliteFile(fileOf(on), { readonly: true });
  try {
    return f
      .query<{ detail: string }, never[]>(`EXPLAIN QUERY PLAN ${sqliteText(text)}`)
      .all(...(params as never[]))
      .map((r) => r.detail);
  } finally {
    f.close();
  }
}

export interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

/** Runs `use` with a second App on the test's SQLite file and returns every statement that App sent. */
export async function statementsOf(
  t: TestApp,
  use: (app: App) => Promise<unknown>,
  opts: { clock?: Clock } = {},
): Promise<Statement[]> {
  const seen: Statement[] = [];
  const db = new Kysely<DB>({
    dialect: new BunSqliteDialect(openSqlite(fileOf(t))),
    log: (e) => {
      if (e.level === "query") seen.push({ sql: e.query.sql, parameters: e.query.parameters });
    },
  });
  const other = createApp(t.app.config, {
    database: { db, dialect: "sqlite", listen: async () => async () => {}, close: () => db.destroy() },
    log: silentLogger,
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  try {
    await use(other);
  } finally {
    await other.close();
  }
  return seen;
}
