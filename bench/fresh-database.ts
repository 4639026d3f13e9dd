// A fresh database for one benchmark run: a new SQLite file in a temporary folder, or a new Postgres database on
// the local server (never the `postgres` database itself), and how to drop it afterwards.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export const PG = process.env.SVC_BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function freshDatabase(dialect: "sqlite" | "postgres", prefix: string): Promise<FreshDatabase> {
  if (dialect === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), `svc-bench-${prefix}-`));
    return {
      url: `sqlite:${join(dir, `${prefix}.db`)}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `svc_bench_${prefix}_${randomBytes(4).toString("hex")}`;
  const c = new pg.Client({ connectionString: PG });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const u = new URL(PG);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const d = new pg.Client({ connectionString: PG });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    },
  };
}
