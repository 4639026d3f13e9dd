#!/usr/bin/env bun
// The whole test suite: every database test on SQLite and, when Postgres is reachable, on a throwaway Postgres
// database too. Ends with the line `N passed, N failed`.
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { openDatabase } from "../src/db/index.ts";
import { migrate } from "../src/db/migrate.ts";

const PG_URL = process.env.SVC_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const args = process.argv.slice(2);

async function reachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const env: Record<string, string> = { ...(process.env as Record<string, string>) };
let template: string | null = null;
if (process.env.SVC_TEST_SQLITE_ONLY !== "1" && (await reachable())) {
  template = `svc_test_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  await admin((c) => c.query(`CREATE DATABASE "${template}"`));
  const u = new URL(PG_URL);
  u.pathname = `/${template}`;
  const d = openDatabase(u.toString(), { poolSize: 1 });
  await migrate(d.db, "postgres");
  await d.close();
  env.SVC_TEST_PG_TEMPLATE = template;
  env.SVC_TEST_PG_URL = PG_URL;
  console.log(`Postgres: tests run on SQLite and on fresh databases made from ${template}`);
} else {
  console.log("Postgres: not reachable; tests run on SQLite only");
}

// The Bluesky tests' local PDS, installed before the workers start: in parallel each would try to install it at once.
// Instant when present (npm test has installed it already).
const installed = (dir: string) => {
  const at = join(import.meta.dir, "..", ".tools", dir);
  return existsSync(at) && readdirSync(at).some((f) => f.startsWith(".installed-"));
};
if (!installed("pds") || !installed("devenv"))
  console.log("Installing the local Bluesky PDS for its tests (once; a few minutes)…");
if (
  Bun.spawnSync(["bash", join(import.meta.dir, "install-pds.sh")], { stdout: "inherit", stderr: "inherit" })
    .exitCode !== 0
)
  console.error("warning: the local Bluesky PDS could not be installed; its tests will fail");

// Test files run in parallel, one worker process per core plus one (each file still runs its own tests in order, in
// a fresh module registry): most files wait on a browser, a network stand-in, a database or a protocol's own pause
// (a device sign-in polls every 5 s) as much as they compute, and with one worker per core a fifth of the CPU sat
// idle through the suite. test/timings.json holds each file's last measured duration so the slowest start first
// and none is left running alone at the end; `bun scripts/test.ts --update-timings` rewrites it.
// SVC_TEST_SERIAL=1 runs the files one after another in one process.
const parallel =
  process.env.SVC_TEST_SERIAL === "1" || args.some((a) => a.startsWith("--parallel"))
    ? []
    : [`--parallel=${navigator.hardwareConcurrency + 1}`];
const timings = args.some((a) => a.startsWith("--timings"))
  ? []
  : [`--timings=${join(import.meta.dir, "..", "test", "timings.json")}`];
const proc = Bun.spawn(["bun", "test", "--timeout", "60000", ...parallel, ...timings, ...args], {
  env,
  stdout: "pipe",
  stderr: "pipe",
});
let tail = "";
const pump = async (stream: ReadableStream<Uint8Array>, out: NodeJS.WriteStream) => {
  const dec = new TextDecoder();
  for await (const chunk of stream) {
    const s = dec.decode(chunk);
    out.write(s);
    tail = (tail + s).slice(-4000);
  }
};
await Promise.all([pump(proc.stdout, process.stdout), pump(proc.stderr, process.stderr)]);
const code = await proc.exited;

if (template) {
  // Drop the template and every database made from it (a crashed test file may have left some).
  await admin(async (c) => {
    const r = await c.query("SELECT datname FROM pg_database WHERE datname LIKE $1", [`${template}%`]);
    for (const row of r.rows) await c.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
  }).catch((e) => console.error(`could not drop test databases: ${e}`));
}

const passed = Number(/(\d+) pass\b/.exec(tail)?.[1] ?? 0);
const failed =
  Number(/(\d+) fail\b/.exec(tail)?.[1] ?? 0) + (code !== 0 && !/(\d+) fail\b/.test(tail) ? 1 : 0);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(code === 0 && failed === 0 && passed > 0 ? 0 : 1);
