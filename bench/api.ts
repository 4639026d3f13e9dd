#!/usr/bin/env bun
import { randomBytes } from "node:crypto";
// api-post: POST /v1/posts with 4 sandbox channels and a fresh Idempotency-Key per request, on SQLite; requests
// per second and p99, beside a bare Elysia POST route parsing the same body, measured in the same run with the
// same client (a separate process, 8 requests in flight).
// Usage: bun bench/api.ts [--quick]
import { readFileSync } from "node:fs";
import { apiWorld } from "./api-world.ts";

const quick = process.argv.includes("--quick");
const seconds = quick ? 5 : 20;
const inFlight = 8;
const { env, app, keys, body } = await apiWorld("api");
await app.close();

async function serve(mode: "svc" | "bare", port: number) {
  const proc = Bun.spawn(
    [
      "bun",
      ...(process.env.PROFILE && mode === "svc"
        ? ["--cpu-prof", "--cpu-prof-md", "--cpu-prof-dir=/tmp/apiprof"]
        : []),
      "bench/api-server.ts",
      mode,
    ],
    { env: { ...env, PORT: String(port) }, stdout: "pipe", stderr: "inherit" },
  );
  const reader = proc.stdout.getReader();
  await reader.read();
  reader.releaseLock();
  return proc;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = f.slice(f.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 Hz)
  } catch {
    return Number.NaN;
  }
}

async function load(port: number): Promise<{ rps: number; p99: number; errors: number; requests: number }> {
  const lat: number[] = [];
  let errors = 0;
  let n = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < end) {
        const key = keys[n++ % keys.length]!;
        const t = performance.now();
        const r = await fetch(`http://127.0.0.1:${port}/v1/posts`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${key}`,
            "content-type": "application/json",
            "idempotency-key": `bench-${n}-${randomBytes(4).toString("hex")}`,
          },
          body,
        });
        await r.arrayBuffer();
        lat.push(performance.now() - t);
        if (r.status !== 201) errors++;
      }
    }),
  );
  lat.sort((x, y) => x - y);
  return {
    rps: lat.length / seconds,
    p99: lat[Math.floor(lat.length * 0.99)]!,
    errors,
    requests: lat.length,
  };
}

const bare = await serve("bare", 19501);
await load(19501); // warm up
const floor = await load(19501);
bare.kill();
const svc = await serve("svc", 19502);
await load(19502);
const cpu0 = cpuSeconds(svc.pid);
const ours = await load(19502);
const serverCpu = ((cpuSeconds(svc.pid) - cpu0) / ours.requests) * 1e6;
svc.kill("SIGINT");
await svc.exited;
if (ours.errors) console.log(`warning: ${ours.errors} requests did not answer 201`);
console.log(`bare elysia post: ${Math.round(floor.rps)} req/s, p99 ${floor.p99.toFixed(2)} ms`);
console.log(`server CPU: ${serverCpu.toFixed(0)} µs a request`);
console.log(
  `api-post: ${Math.round(ours.rps)} req/s, p99 ${ours.p99.toFixed(2)} ms, ratio ${(ours.rps / floor.rps).toFixed(2)}`,
);
process.exit(0);
