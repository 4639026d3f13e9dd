#!/usr/bin/env bun
// What exporting costs: POST /v1/posts (bench/api.ts's load, 8 in flight) against svc with telemetry off
// (OTEL_SDK_DISABLED=true) and on (the Prometheus exporter, scraped every second, and every span sent over OTLP to
// a local receiver), alternating rounds in one run. Goal (issue "Operations"): on ≥ 0.9 of off.
// Usage: bun bench/telemetry.ts [--quick]
import { randomBytes } from "node:crypto";
import { apiWorld } from "./api-world.ts";

const quick = process.argv.includes("--quick");
const seconds = quick ? 4 : 10;
const rounds = quick ? 2 : 3;
const { env, app, keys, body } = await apiWorld("telemetry");
await app.close();

let spans = 0;
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    spans += (await req.arrayBuffer()).byteLength > 0 ? 1 : 0;
    return new Response(null, { status: 200 });
  },
});

async function serve(on: boolean, port: number) {
  const only = process.env.BENCH_OTEL; // "metrics" or "traces": one signal alone, to see what each costs
  const otel = on
    ? {
        OTEL_METRICS_EXPORTER: only === "traces" ? "none" : "prometheus",
        OTEL_EXPORTER_PROMETHEUS_HOST: "127.0.0.1",
        OTEL_EXPORTER_PROMETHEUS_PORT: String(port + 1000),
        OTEL_TRACES_EXPORTER: only === "metrics" ? "none" : "otlp",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${receiver.port}/v1/traces`,
      }
    : { OTEL_SDK_DISABLED: "true" };
  const proc = Bun.spawn(["bun", "bench/api-server.ts", "svc"], {
    env: { ...env, ...otel, PORT: String(port) },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = proc.stdout.getReader();
  await reader.read();
  reader.releaseLock();
  return proc;
}

let n = 0;
async function post(port: number): Promise<boolean> {
  const r = await fetch(`http://127.0.0.1:${port}/v1/posts`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${keys[n++ % keys.length]}`,
      "content-type": "application/json",
      "idempotency-key": `otel-${n}-${randomBytes(4).toString("hex")}`,
    },
    body,
  });
  await r.arrayBuffer();
  return r.status === 201;
}

async function load(port: number, scrape: boolean): Promise<number> {
  let done = 0;
  const end = performance.now() + seconds * 1000;
  const scraper = scrape
    ? (async () => {
        while (performance.now() < end) {
          await (await fetch(`http://127.0.0.1:${port + 1000}/metrics`)).text();
          await Bun.sleep(1000);
        }
      })()
    : null;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (performance.now() < end) if (await post(port)) done++;
    }),
  );
  await scraper;
  return done / seconds;
}

const off: number[] = [];
const on: number[] = [];
let port = 19700;
for (let i = 0; i < rounds; i++) {
  for (const enabled of [false, true]) {
    const p = port++;
    const proc = await serve(enabled, p);
    await load(p, false); // warm up
    (enabled ? on : off).push(await load(p, enabled && process.env.BENCH_OTEL !== "traces"));
    proc.kill("SIGINT");
    await proc.exited;
  }
}
receiver.stop(true);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `api-post with telemetry: ${Math.round(median(on))} req/s, off ${Math.round(median(off))} req/s (median of ${rounds}), ratio ${(median(on) / median(off)).toFixed(2)}; OTLP batches received ${spans}`,
);
