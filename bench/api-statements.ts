#!/usr/bin/env bun
// Where POST /v1/posts spends its time, statement by statement: the bench/api.ts setup (a brand with 4 sandbox
// channels on SQLite), N requests handed straight to the app's fetch handler (8 in flight, no sockets), and every
// SQLite call timed by its SQL text. Prints the process's CPU per request, then each statement's time per
// request, calls, and time per call. A tool for finding what to work on next; bench/api.ts is the benchmark.
// Usage: bun bench/api-statements.ts [N]   (default 5,000 requests)
import { Database } from "bun:sqlite";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/app/config.ts";
import { createApp } from "../src/app/context.ts";
import { silentLogger } from "../src/app/log.ts";
import { migrate } from "../src/db/migrate.ts";
import { BunSqliteConnection } from "../src/db/sqlite.ts";
import { adminActor } from "../src/domain/actor.ts";
import { createApiKey } from "../src/domain/api-keys/service.ts";
import { bootstrap } from "../src/domain/bootstrap/service.ts";
import { createChannel } from "../src/domain/channels/service.ts";
import { scopesOfRole } from "../src/domain/scopes.ts";
import { createHttp } from "../src/http/server.ts";

const N = Number(process.argv[2] ?? 5_000);
const stats = new Map<string, { calls: number; ns: number; max: number }>();
let timing = false;
/** Calls over 3 ms, with when they ended: the tail of the latency. */
const slow: string[] = [];
let started = Bun.nanoseconds();
function record(text: string, ns: number): void {
  if (!timing) return;
  const key = text.replace(/\s+/g, " ").slice(0, 110);
  const s = stats.get(key) ?? { calls: 0, ns: 0, max: 0 };
  s.calls++;
  s.ns += ns;
  if (ns > s.max) s.max = ns;
  if (ns > 3e6)
    slow.push(
      `${((Bun.nanoseconds() - started) / 1e6).toFixed(0)} ms: ${(ns / 1e6).toFixed(1)} ms ${key.slice(0, 40)}`,
    );
  stats.set(key, s);
}
function timeCalls(proto: object, name: string, sqlOf: (arg: unknown) => string, prefix = ""): void {
  const p = proto as Record<string, (...args: unknown[]) => unknown>;
  const original = p[name]!;
  p[name] = function (this: unknown, ...args: unknown[]) {
    const start = Bun.nanoseconds();
    const out = original.apply(this, args);
    record(prefix + sqlOf(args[0]), Bun.nanoseconds() - start);
    return out;
  };
}
timeCalls(BunSqliteConnection.prototype, "rows", (t) => t as string);
timeCalls(BunSqliteConnection.prototype, "executeQuery", (q) => (q as { sql: string }).sql);
timeCalls(Database.prototype, "run", (t) => t as string, "run: ");

const dir = mkdtempSync(join(tmpdir(), "svc-bench-apistmts-"));
const config = loadConfig({
  SVC_DATA_DIR: dir,
  SVC_MASTER_KEYS: `b:${randomBytes(32).toString("base64")}`,
  SVC_AUTO_MIGRATE: "true",
});
const app = createApp(config, { log: silentLogger });
await migrate(app.db, app.dialect);
const b = await bootstrap(app, { email: "bench@example.com", org: "Bench", sandbox: false });
const owner = adminActor(b.org.id, "bench", scopesOfRole("owner"));
for (let i = 0; i < 4; i++) await createChannel(app, owner, { brand: b.brand.id, provider: "sandbox" });
const keys: string[] = [];
for (let i = 0; i < 400; i++) keys.push((await createApiKey(app, owner, { name: `bench ${i}` })).secret!);
const http = createHttp(app);
const body = JSON.stringify({
  brand: b.brand.slug,
  content: {
    body: "Benchmarking the publishing API: one post, four channels, checked against each network's rules. https://example.com/launch",
  },
  publish_at: new Date(Date.now() + 3600_000).toISOString(),
  metadata: { campaign: "bench" },
});
let n = 0;
let errors = 0;
const latencies: number[] = [];
async function run(count: number): Promise<void> {
  let left = count;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (left-- > 0) {
        const i = n++;
        const t = performance.now();
        const r = await http.handle(
          new Request("http://127.0.0.1/v1/posts", {
            method: "POST",
            headers: {
              authorization: `Bearer ${keys[i % keys.length]}`,
              "content-type": "application/json",
              "idempotency-key": `bench-${i}-${randomBytes(4).toString("hex")}`,
            },
            body,
          }),
        );
        await r.arrayBuffer();
        if (timing) latencies.push(performance.now() - t);
        if (r.status !== 201) errors++;
      }
    }),
  );
}
await run(1000); // warm up
timing = true;
started = Bun.nanoseconds();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await run(N);
const secs = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
timing = false;
await app.close();
if (process.env.KEEP) console.log(`kept ${dir}`);
else rmSync(dir, { recursive: true, force: true });

const rows = [...stats].sort((a, b) => b[1].ns - a[1].ns);
const total = rows.reduce((s, [, x]) => s + x.ns, 0);
const per = (ns: number) => (ns / 1000 / N).toFixed(1).padStart(6);
if (errors) console.log(`warning: ${errors} requests did not answer 201`);
console.log(
  `${N} requests in ${secs.toFixed(1)} s (${Math.round(N / secs)}/s); CPU ${((cpu.user + cpu.system) / N).toFixed(0)} µs a request, SQLite calls ${per(total).trim()} µs`,
);
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.floor(latencies.length * p)]!.toFixed(1);
console.log(
  `latency (8 in flight): p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
);
console.log(`calls over 3 ms: ${slow.length}`, slow.slice(0, 10));
console.log("µs/req  calls/req  µs/call   max ms  statement");
for (const [text, s] of rows.slice(0, 30))
  console.log(
    `${per(s.ns)}  ${(s.calls / N).toFixed(2).padStart(8)}  ${(s.ns / s.calls / 1000).toFixed(1).padStart(7)}  ${(s.max / 1e6).toFixed(2).padStart(7)}  ${text}`,
  );
process.exit(0);
