#!/usr/bin/env bun
// keys: what a master key in Transit costs once data keys are cached, beside local keys in the same run.
// 1. API throughput: POST and DELETE /v1/webhook_endpoints (the POST seals the endpoint's signing secret with the
//    org's data key), in process, on SQLite; one App per process (two Apps in one process slow the second one's
//    commits, which would measure the bench, not the keys), local and Transit runs alternating; the ratio of the
//    medians, and the Transit requests made while measuring (the data key is cached: none).
// 2. A cold start with 1,000 orgs whose data keys Transit wraps: Transit requests at start (none), then the one
//    unwrap the first request for one org costs.
// The Transit service is the stand-in test/stand-ins/vault.ts on 127.0.0.1.
// Usage: bun bench/keys.ts [--quick]
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { insertOrg } from "../src/domain/orgs/service.ts";
import { inTx } from "../src/domain/tx.ts";
import { testApp } from "../test/helpers/app.ts";
import { ADMIN, INTEGRATION, key, tenant } from "../test/helpers/factories.ts";
import { startVault } from "../test/stand-ins/vault.ts";

const quick = process.argv.includes("--quick");
const perRound = quick ? 50 : 300;
const rounds = quick ? 3 : 5;

async function transitEnv() {
  const vault = await startVault();
  vault.createKey("svc");
  const env = {
    SVC_DATA_DIR: mkdtempSync(join(tmpdir(), "svc-bench-keys-")),
    SVC_MASTER_KEYS: "",
    SVC_TRANSIT_ADDR: vault.url,
    SVC_TRANSIT_KEY: "svc",
    SVC_TRANSIT_TOKEN: vault.issueToken(["transit/encrypt/svc", "transit/decrypt/svc"]),
  };
  return { vault, env };
}

/** One process's measurement: requests per second over `rounds` rounds, after a warm-up round. */
async function measure(kind: "local" | "transit") {
  const tr = kind === "transit" ? await transitEnv() : null;
  const t = await testApp("sqlite", {
    env: tr?.env ?? {
      SVC_DATA_DIR: mkdtempSync(join(tmpdir(), "svc-bench-keys-")),
      SVC_MASTER_KEYS: `k1:${randomBytes(32).toString("base64")}`,
    },
  });
  const org = await tenant(t.app, "Bench");
  // Enough keys that the per-key rate limit never binds: each request takes the next one.
  const keys: string[] = [];
  for (let i = 0; i < 100; i++)
    keys.push(await key(t.app, org.orgId, { name: `bench ${i}`, scopes: [...INTEGRATION, ...ADMIN] }));
  let next = 0;
  const round = async () => {
    const started = performance.now();
    for (let i = 0; i < perRound; i++) {
      const k = keys[next++ % keys.length]!;
      const r = await t.request("POST", "/v1/webhook_endpoints", {
        key: k,
        body: { url: `https://example.com/${i}` },
      });
      if (r.status !== 201) throw new Error(`answered ${r.status}: ${JSON.stringify(r.body)}`);
      await t.request("DELETE", `/v1/webhook_endpoints/${r.body.id}`, { key: k });
    }
    return (perRound * 2) / ((performance.now() - started) / 1000);
  };
  await round();
  const before = tr?.vault.requests.length ?? 0;
  const rates: number[] = [];
  for (let i = 0; i < rounds; i++) rates.push(await round());
  const transitRequests = (tr?.vault.requests.length ?? 0) - before;
  await t.close();
  tr?.vault.stop();
  return { rate: rates.sort((a, b) => a - b)[Math.floor(rates.length / 2)]!, transitRequests };
}

async function coldStart() {
  const { vault, env } = await transitEnv();
  const t = await testApp("sqlite", { env });
  const orgs: string[] = [];
  for (let i = 0; i < 1000; i++) orgs.push((await inTx(t.app, (tx) => insertOrg(tx, t.app, `Cold ${i}`))).id);
  const atStart = vault.requests.length;
  const cold = await testApp("sqlite", { url: t.dbUrl, env });
  const ready = (await cold.request("GET", "/readyz")).status;
  const startRequests = vault.requests.length - atStart;
  const t0 = performance.now();
  await cold.app.keys.dataKey(cold.app.db, orgs[500]!);
  const firstMs = performance.now() - t0;
  const firstRequests = vault.requests.length - atStart;
  await cold.close();
  await t.close();
  vault.stop();
  return { orgs: orgs.length, ready, startRequests, firstMs, firstRequests };
}

const one = process.argv.indexOf("--one");
if (one > 0) {
  console.log(JSON.stringify(await measure(process.argv[one + 1] as "local" | "transit")));
  process.exit(0);
}

const runs: Record<"local" | "transit", { rate: number; transitRequests: number }[]> = {
  local: [],
  transit: [],
};
for (let i = 0; i < (quick ? 2 : 3); i++)
  for (const kind of ["local", "transit"] as const) {
    const p = Bun.spawn(["bun", import.meta.path, "--one", kind, ...(quick ? ["--quick"] : [])], {
      stdout: "pipe",
      stderr: "ignore",
    });
    const out = await new Response(p.stdout).text();
    if ((await p.exited) !== 0) throw new Error(`${kind} run failed`);
    runs[kind].push(JSON.parse(out.trim().split("\n").at(-1)!));
  }
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const l = med(runs.local.map((r) => r.rate));
const tr = med(runs.transit.map((r) => r.rate));
console.log(`keys-api local: ${l.toFixed(0)} requests/s (median of ${runs.local.length} processes)`);
console.log(`keys-api transit: ${tr.toFixed(0)} requests/s; ratio ${(tr / l).toFixed(3)} (floor 0.95)`);
console.log(
  `keys-api transit requests while measuring: ${runs.transit.map((r) => r.transitRequests).join(", ")}`,
);
const c = await coldStart();
console.log(
  `keys-cold ${c.orgs} orgs: transit requests at start ${c.startRequests} (readyz ${c.ready}); first data key ${c.firstMs.toFixed(1)} ms, ${c.firstRequests} transit request`,
);
if (tr / l < 0.95) process.exitCode = 1;
