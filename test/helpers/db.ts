// One test body looped over every dialect (the Kysely model): SQLite always, Postgres when the test runner
// made a template database for this run (SVC_TEST_PG_TEMPLATE). Each test app gets a fresh database.
import { describe } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { type Database, openDatabase } from "../../src/db/index.ts";
import { migrate } from "../../src/db/migrate.ts";
import type { Dialect } from "../../src/db/migration.ts";

const PG_BASE = process.env.SVC_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PG_TEMPLATE = process.env.SVC_TEST_PG_TEMPLATE ?? null;

export const dialects: Dialect[] = PG_TEMPLATE ? ["sqlite", "postgres"] : ["sqlite"];

/** One test body over every dialect: `describe("<name> (<dialect>)")` for each, the body given the dialect. */
export function describeEachDialect(name: string, body: (dialect: Dialect) => void): void {
  for (const dialect of dialects) describe(`${name} (${dialect})`, () => body(dialect));
}

const withDb = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

let tmp: string | null = null;
const created: string[] = [];

/**
 * A fresh database of the dialect, and its URL (for child processes). Migrated unless `migrated: false`, which
 * gives an empty database (no tables at all), as a new install has before its first migration.
 */
export async function freshDatabase(
  dialect: Dialect,
  opts: { migrated?: boolean } = {},
): Promise<{ database: Database; url: string; drop(): Promise<void> }> {
  const migrated = opts.migrated ?? true;
  if (dialect === "sqlite") {
    tmp ??= mkdtempSync(join(tmpdir(), "svc-test-"));
    const url = `sqlite:${join(tmp, `${randomBytes(6).toString("hex")}.db`)}`;
    const database = openDatabase(url);
    if (migrated) await migrate(database.db, "sqlite");
    return { database, url, drop: async () => {} };
  }
  if (!PG_TEMPLATE) throw new Error("Postgres tests need SVC_TEST_PG_TEMPLATE (run them with bun run test)");
  const name = `${PG_TEMPLATE}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  try {
    // The name keeps the template's prefix so the runner drops it even if this file crashes.
    await admin.query(
      migrated ? `CREATE DATABASE "${name}" TEMPLATE "${PG_TEMPLATE}"` : `CREATE DATABASE "${name}"`,
    );
  } finally {
    await admin.end();
  }
  created.push(name);
  const url = withDb(PG_BASE, name);
  const database = openDatabase(url, { poolSize: 5 });
  return { database, url, drop: () => dropDatabases([name]) };
}

/** The Postgres URL the tests use for their own admin connections (for example to hold a lock). */
export const pgBaseUrl = PG_BASE;

/** Drops every Postgres database this file made (the runner also drops leftovers at the end). */
export async function dropCreatedDatabases(): Promise<void> {
  await dropDatabases(created.splice(0));
}

async function dropDatabases(names: string[]): Promise<void> {
  if (!names.length) return;
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  try {
    for (const name of names) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
