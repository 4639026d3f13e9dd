#!/usr/bin/env bun
// Cold start of `svc all` on an existing SQLite database to the first 200 from /readyz, and RSS after 5 s idle,
// each beside a bare Elysia + bun:sqlite + Kysely process measured in the same run.
// Usage: bun bench/start.ts [--quick]
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const quick = process.argv.includes("--quick");
const runs = quick ? 5 : 15;
const dir = mkdtempSync(join(tmpdir(), "svc-bench-start-"));
const env = { ...process.env, SVC_DATA_DIR: dir, SVC_LOG_LEVEL: "warn" } as Record<string, string>;

// An existing database: key, schema and a bootstrapped org.
const key = Bun.spawnSync(["bun", "src/main.ts", "admin", "keys", "generate", "--id", "bench"], { env })
  .stdout.toString()
  .trim();
await Bun.write(join(dir, "master.key"), key);
const boot = Bun.spawnSync(
  ["bun", "src/main.ts", "admin", "bootstrap", "--email", "bench@example.com", "--org", "Bench"],
  { env },
);
if (boot.exitCode !== 0) throw new Error(boot.stderr.toString());

let nextPort = 19000 + Math.floor(Math.random() * 1000);

async function once(
  cmd: string[],
  extra: Record<string, string>,
): Promise<{ ms: number; rssMiB: number | null }> {
  const port = nextPort++;
  const t0 = performance.now();
  const proc = Bun.spawn(cmd, {
    env: { ...env, ...extra, SVC_LISTEN: `127.0.0.1:${port}` },
    stdout: "ignore",
    stderr: "ignore",
  });
  let ms = -1;
  for (;;) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (r.status === 200) {
        ms = performance.now() - t0;
        break;
      }
    } catch {}
    if (performance.now() - t0 > 20_000) throw new Error(`${cmd.join(" ")} did not become ready`);
    await Bun.sleep(2);
  }
  let rssMiB: number | null = null;
  if (extra.MEASURE_RSS) {
    await Bun.sleep(5000);
    const status = readFileSync(`/proc/${proc.pid}/status`, "utf8");
    rssMiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  }
  proc.kill("SIGKILL");
  await proc.exited;
  return { ms, rssMiB };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const svcCmd = ["bun", "src/main.ts", "all"];
const bareCmd = ["bun", "bench/bare-server.ts"];
const bareEnv = { BARE_DB: join(dir, "svc.db") };

const svcStarts: number[] = [];
const bareStarts: number[] = [];
for (let i = 0; i < runs; i++) {
  // Alternate so that machine noise falls on both alike.
  bareStarts.push((await once(bareCmd, bareEnv)).ms);
  svcStarts.push((await once(svcCmd, {})).ms);
}
const svcRss = (await once(svcCmd, { MEASURE_RSS: "1" })).rssMiB!;
const bareRss = (await once(bareCmd, { ...bareEnv, MEASURE_RSS: "1" })).rssMiB!;

const s = median(svcStarts);
const b = median(bareStarts);
console.log(
  `start svc all ${s.toFixed(0)} ms, bare ${b.toFixed(0)} ms (median of ${runs}), ratio ${(s / b).toFixed(2)}`,
);
console.log(
  `rss svc all ${svcRss.toFixed(1)} MiB, bare ${bareRss.toFixed(1)} MiB after 5 s idle, ratio ${(svcRss / bareRss).toFixed(2)}`,
);
