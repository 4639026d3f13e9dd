#!/usr/bin/env bun
// The compiled executable beside `bun src/main.ts all`: cold start to the first 200 from /readyz on an existing
// SQLite database, and RSS after 5 s idle, alternating runs so that machine noise falls on both alike.
// Goals (issue "Operations"): start ≤ 1.2× and idle RSS ≤ 1.2× of `bun src/main.ts all`.
// Usage: bun run build && bun bench/executable.ts [--quick]
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const exe = join(root, "dist", "svc");
if (!existsSync(exe)) throw new Error("dist/svc is missing: run `bun run build` first");
const quick = process.argv.includes("--quick");
const runs = quick ? 5 : 15;
const dir = mkdtempSync(join(tmpdir(), "svc-bench-exe-"));
const env = { ...process.env, SVC_DATA_DIR: dir, SVC_LOG_LEVEL: "warn" } as Record<string, string>;

const key = Bun.spawnSync([exe, "admin", "keys", "generate", "--id", "bench"], { env })
  .stdout.toString()
  .trim();
await Bun.write(join(dir, "master.key"), key);
const boot = Bun.spawnSync([exe, "admin", "bootstrap", "--email", "bench@example.com", "--org", "Bench"], {
  env,
});
if (boot.exitCode !== 0) throw new Error(boot.stderr.toString());

let nextPort = 21000 + Math.floor(Math.random() * 1000);

async function start(cmd: string[], rss: boolean): Promise<{ ms: number; rssMiB: number }> {
  const port = nextPort++;
  const t0 = performance.now();
  const proc = Bun.spawn(cmd, {
    cwd: root,
    env: { ...env, SVC_LISTEN: `127.0.0.1:${port}` },
    stdout: "ignore",
    stderr: "ignore",
  });
  let ms = -1;
  while (ms < 0) {
    const r = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
    if (r?.status === 200) ms = performance.now() - t0;
    else if (performance.now() - t0 > 20_000) throw new Error(`${cmd.join(" ")} did not become ready`);
    else await Bun.sleep(2);
  }
  let rssMiB = 0;
  if (rss) {
    await Bun.sleep(5000);
    rssMiB = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  }
  proc.kill("SIGKILL");
  await proc.exited;
  return { ms, rssMiB };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const exeCmd = [exe, "all"];
const srcCmd = ["bun", "src/main.ts", "all"];
const exeMs: number[] = [];
const srcMs: number[] = [];
for (let i = 0; i < runs; i++) {
  srcMs.push((await start(srcCmd, false)).ms);
  exeMs.push((await start(exeCmd, false)).ms);
}
const exeRss: number[] = [];
const srcRss: number[] = [];
for (let i = 0; i < (quick ? 1 : 3); i++) {
  srcRss.push((await start(srcCmd, true)).rssMiB);
  exeRss.push((await start(exeCmd, true)).rssMiB);
}
const e = median(exeMs);
const s = median(srcMs);
console.log(
  `start dist/svc all ${e.toFixed(0)} ms, bun src/main.ts all ${s.toFixed(0)} ms (median of ${runs}), ratio ${(e / s).toFixed(2)}`,
);
const er = median(exeRss);
const sr = median(srcRss);
console.log(
  `rss dist/svc all ${er.toFixed(1)} MiB, bun src/main.ts all ${sr.toFixed(1)} MiB after 5 s idle, ratio ${(er / sr).toFixed(2)}`,
);
