#!/usr/bin/env bun
// Where a SQLite queue drain spends its time, statement by statement: N due targets (bench/seed-queue.ts), one
// publish worker with an adapter that answers at once, and every SQLite call timed by its SQL text. Prints the
// process's CPU per target, then each statement's time per target, calls, and time per call. A tool for finding
// what to work on next, not a benchmark with a goal (bench/queue.ts is that).
// Usage: bun bench/queue-statements.ts [N]   (default 30,000 targets)
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { loadConfig } from "../src/app/config.ts";
import { createApp } from "../src/app/context.ts";
import { silentLogger } from "../src/app/log.ts";
import { registerHooks } from "../src/boot.ts";
import { openDatabase } from "../src/db/index.ts";
import { migrate } from "../src/db/migrate.ts";
import type { Adapter } from "../src/platforms/adapter.ts";
import { startPublishWorker } from "../src/queue/publish/worker.ts";
import { seedQueue } from "./seed-queue.ts";
import { timeStatements } from "./statement-timer.ts";

const N = Number(process.argv[2] ?? 30_000);
const timer = timeStatements();

const dir = mkdtempSync(join(tmpdir(), "svc-bench-stmts-"));
const url = `sqlite:${join(dir, "q.db")}`;
const config = loadConfig({
  SVC_DATABASE_URL: url,
  SVC_MASTER_KEYS: `b:${randomBytes(32).toString("base64")}`,
  SVC_DATA_DIR: dir,
});
const database = openDatabase(url);
await migrate(database.db, "sqlite");
registerHooks();
const app = createApp(config, { database, log: silentLogger });
await seedQueue(app, N, 1000, Date.now() - 1000);
await sql`ANALYZE`.execute(app.db);
const instant: Adapter = {
  provider: "sandbox",
  idempotent: false,
  publish: async () => ({ kind: "published", permalink: null }),
};

/** CPU time (ns) of each thread of this process, by thread ID and name (Linux /proc; empty elsewhere). */
function threads(): Map<string, { name: string; ns: number }> {
  const out = new Map<string, { name: string; ns: number }>();
  try {
    for (const tid of readdirSync("/proc/self/task")) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(tid, { name, ns: ((Number(f[11]) + Number(f[12])) * 1e9) / 100 }); // utime + stime, in ticks of 10 ms
    }
  } catch {}
  return out;
}

timer.start();
const threads0 = threads();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const worker = startPublishWorker(app, { adapterFor: () => instant, pollMs: 5 });
const left = (status: string) =>
  sql.raw(`SELECT 1 AS x FROM post_targets WHERE status = '${status}' LIMIT 1`).execute(app.db);
while ((await left("queued")).rows.length || (await left("publishing")).rows.length) await Bun.sleep(50);
const secs = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const threads1 = threads();
timer.timing = false;
await worker.stop();
await app.close();
rmSync(dir, { recursive: true, force: true });

const rows = timer.ranked();
const total = rows.reduce((n, [, s]) => n + s.ns, 0);
const perTarget = (ns: number) => (ns / 1000 / N).toFixed(2).padStart(6);
console.log(
  `${N} targets in ${secs.toFixed(1)} s (${Math.round(N / secs)}/s); CPU ${((cpu.user + cpu.system) / N).toFixed(1)} µs a target, SQLite calls ${perTarget(total).trim()} µs`,
);
// Where the process's CPU went, by thread (the main thread runs the worker; the others sync and checkpoint).
const byThread = new Map<string, number>();
for (const [tid, t] of threads1) {
  const name = tid === String(process.pid) ? "main" : t.name;
  byThread.set(name, (byThread.get(name) ?? 0) + t.ns - (threads0.get(tid)?.ns ?? 0));
}
console.log(
  `CPU by thread, µs a target: ${[...byThread]
    .filter(([, ns]) => ns > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([name, ns]) => `${name} ${perTarget(ns).trim()}`)
    .join(", ")}`,
);
console.log("µs/target  calls   µs/call  statement");
for (const [text, s] of rows.slice(0, 25))
  console.log(
    `${perTarget(s.ns)}  ${String(s.calls).padStart(7)}  ${(s.ns / s.calls / 1000).toFixed(1).padStart(7)}  ${text}`,
  );
process.exit(0);
