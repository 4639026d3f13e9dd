#!/usr/bin/env bun
import { randomBytes } from "node:crypto";
// api-post: POST /v1/posts with 4 sandbox channels and a fresh Idempotency-Key per request, on SQLite; requests
// per second and p99, beside a bare Elysia POST route parsing the same body, measured in the same run with the
// same client (a separate process, 8 requests in flight). Two more lines for scale: a second floor that writes
// only the rows the specification requires of a post (bench/required-writes-server.ts), and svc's latency
// below saturation, at a fixed offered rate (--rate, default 1000 a second), timed from each request's
// scheduled start so a slow answer cannot hide the requests queued behind it.
// Usage: bun bench/api.ts [--quick] [--rate N] [--seconds N]   (--seconds: each load's length, 5 quick, else 20)
import { readFileSync } from "node:fs";
import { apiWorld } from "./api-world.ts";

const quick = process.argv.includes("--quick");
const rateArg = process.argv.indexOf("--rate");
const offered = rateArg > 0 ? Number(process.argv[rateArg + 1]) : 1000;
const secondsArg = process.argv.indexOf("--seconds");
const seconds = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) : quick ? 5 : 20;
const inFlight = 8;
const { env, app, keys, body } = await apiWorld("api");
await app.close();

async function serve(mode: "svc" | "bare" | "required", port: number) {
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

let n = 0;
async function post(port: number): Promise<number> {
  const key = keys[n++ % keys.length]!;
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
  return r.status;
}

async function load(port: number): Promise<{ rps: number; p99: number; errors: number; requests: number }> {
  const lat: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        if ((await post(port)) !== 201) errors++;
        lat.push(performance.now() - t);
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

/** Open loop: requests start on a fixed schedule whatever the answers do; latency from the scheduled start. */
async function atRate(
  port: number,
  rate: number,
): Promise<{ p50: number; p99: number; max: number; errors: number }> {
  const lat: number[] = [];
  const pending: Promise<void>[] = [];
  let errors = 0;
  const start = performance.now();
  const total = rate * seconds;
  for (let sent = 0; sent < total; ) {
    const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000));
    for (; sent < due; sent++) {
      const scheduled = start + (sent * 1000) / rate;
      pending.push(
        post(port).then((status) => {
          if (status !== 201) errors++;
          lat.push(performance.now() - scheduled);
        }),
      );
    }
    await Bun.sleep(1);
  }
  await Promise.all(pending);
  lat.sort((x, y) => x - y);
  const at = (q: number) => lat[Math.min(lat.length - 1, Math.floor(lat.length * q))]!;
  return { p50: at(0.5), p99: at(0.99), max: lat[lat.length - 1]!, errors };
}

const bare = await serve("bare", 19501);
await load(19501); // warm up
const floor = await load(19501);
bare.kill();
const required = await serve("required", 19503);
await load(19503);
const req = await load(19503);
required.kill();
await required.exited;
const svc = await serve("svc", 19502);
await load(19502);
const cpu0 = cpuSeconds(svc.pid);
const ours = await load(19502);
const serverCpu = ((cpuSeconds(svc.pid) - cpu0) / ours.requests) * 1e6;
const below = await atRate(19502, offered);
svc.kill("SIGINT");
await svc.exited;
if (ours.errors + below.errors + req.errors)
  console.log(`warning: ${ours.errors + below.errors + req.errors} requests did not answer 201`);
console.log(`bare elysia post: ${Math.round(floor.rps)} req/s, p99 ${floor.p99.toFixed(2)} ms`);
console.log(
  `required writes only: ${Math.round(req.rps)} req/s, p99 ${req.p99.toFixed(2)} ms; svc ÷ required writes ${(ours.rps / req.rps).toFixed(2)}`,
);
console.log(
  `api-post at ${offered} req/s offered: p50 ${below.p50.toFixed(2)} ms, p99 ${below.p99.toFixed(2)} ms, max ${below.max.toFixed(2)} ms`,
);
console.log(`server CPU: ${serverCpu.toFixed(0)} µs a request`);
console.log(
  `api-post: ${Math.round(ours.rps)} req/s, p99 ${ours.p99.toFixed(2)} ms, ratio ${(ours.rps / floor.rps).toFixed(2)}`,
);
process.exit(0);
