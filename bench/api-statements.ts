#!/usr/bin/env bun
// Where POST /v1/posts spends its time, statement by statement: the bench/api.ts world (a brand with 4 sandbox
// channels on SQLite), N requests handed straight to the app's fetch handler (8 in flight, no sockets), and every
// SQLite call timed by its SQL text. Prints the process's CPU per request, then each statement's time per
// request, calls, and time per call. A tool for finding what to work on next; bench/api.ts is the benchmark.
// Usage: bun bench/api-statements.ts [N]   (default 5,000 requests; KEEP=1 keeps the database)
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { createHttp } from "../src/http/server.ts";
import { apiWorld } from "./api-world.ts";
import { timeStatements } from "./statement-timer.ts";

const N = Number(process.argv[2] ?? 5_000);
const timer = timeStatements(110);
const { dir, app, keys, body } = await apiWorld("apistmts");
const http = createHttp(app);
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
        if (timer.timing) latencies.push(performance.now() - t);
        if (r.status !== 201) errors++;
      }
    }),
  );
}
await run(1000); // warm up
timer.start();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await run(N);
const secs = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
timer.timing = false;
await app.close();
if (process.env.KEEP) console.log(`kept ${dir}`);
else rmSync(dir, { recursive: true, force: true });

const rows = timer.ranked();
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
console.log(`calls over 3 ms: ${timer.slow.length}`, timer.slow.slice(0, 10));
console.log("µs/req  calls/req  µs/call   max ms  statement");
for (const [text, s] of rows.slice(0, 30))
  console.log(
    `${per(s.ns)}  ${(s.calls / N).toFixed(2).padStart(8)}  ${(s.ns / s.calls / 1000).toFixed(1).padStart(7)}  ${(s.max / 1e6).toFixed(2).padStart(7)}  ${text}`,
  );
process.exit(0);
