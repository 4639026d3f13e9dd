#!/usr/bin/env bun
// The settled figures in one look, before a merge that touches the worker, start-up or a surface: runs the quick
// start, API and queue benchmarks (each measures its own floor in the same run) and prints every figure beside its
// goal and beside the last figure recorded in docs/performance.md (the `check:` block there), flagging a figure
// that moved against its goal by more than the noise. A benchmark, not a test: it always exits 0.
// Usage: bun bench/check.ts [--record]   (--record prints the block to paste into docs/performance.md)
import { readFileSync } from "node:fs";

/** Runs to runs of the same build move this much on the project's 2-core machine (docs/performance.md). */
const NOISE = 0.15;

interface Figure {
  name: string;
  value: number | null;
  unit: string;
  goal: string;
  /** Whether the figure meets its goal. */
  ok: (v: number) => boolean;
  /** +1 when higher is better, -1 when lower is. */
  better: 1 | -1;
  /** How far runs of the same build move this figure, when not NOISE (counts move far less than times). */
  noise?: number;
  /**
   * A ratio measured in the same run that divides this figure by what the machine itself does (a floor doing the
   * same work in the leanest code): when this figure moves but that ratio holds, the machine moved, not the build.
   */
  sameRun?: string;
}

/** A figure with no goal of its own: shown for context, and flagged only when it moves. */
const noGoal = { goal: "–", ok: () => true };

async function run(args: string[]): Promise<string> {
  const proc = Bun.spawn(["bun", ...args], { stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  await proc.exited;
  if (proc.exitCode !== 0)
    console.log(`(${args.join(" ")} exited ${proc.exitCode}: ${err.trim().split("\n").at(-1)})`);
  return out;
}

const num = (text: string, re: RegExp): number | null => {
  const m = re.exec(text);
  return m ? Number(m[1]) : null;
};

const started = performance.now();
console.log(
  "running bench/start.ts --quick, bench/api.ts --quick --seconds 3, bench/queue.ts --quick --sqlite-only …",
);
const start = await run(["bench/start.ts", "--quick"]);
// Loads of 3 s instead of 5 keep the whole check under a minute on a busy machine (51 s with 5 s, quiet).
const api = await run(["bench/api.ts", "--quick", "--seconds", "3"]);
const queue = await run(["bench/queue.ts", "--quick", "--sqlite-only"]);

const figures: Figure[] = [
  {
    name: "start ÷ bare",
    value: num(start, /^start svc all .* ratio ([\d.]+)/m),
    unit: "×",
    goal: "≤ 2.0",
    ok: (v) => v <= 2,
    better: -1,
  },
  {
    name: "idle RSS ÷ bare",
    value: num(start, /^rss svc all .* ratio ([\d.]+)/m),
    unit: "×",
    goal: "≤ 1.3",
    ok: (v) => v <= 1.3,
    better: -1,
  },
  {
    name: "API ÷ required writes",
    value: num(api, /svc ÷ required writes ([\d.]+)/),
    unit: "×",
    goal: "≥ 0.5",
    ok: (v) => v >= 0.5,
    better: 1,
  },
  {
    name: "API p99 at 1,000/s",
    value: num(api, /offered: p50 [\d.]+ ms, p99 ([\d.]+) ms/),
    unit: "ms",
    goal: "≤ 10",
    ok: (v) => v <= 10,
    better: -1,
    // At a fixed rate the p99 follows the CPU a request takes: a slower machine raises it with the build unchanged.
    sameRun: "API ÷ required writes",
  },
  {
    name: "worker CPU per target (SQLite)",
    value: num(queue, /cpu in this process per target: worker ([\d.]+) µs/),
    unit: "µs",
    goal: "≤ 100",
    ok: (v) => v <= 100,
    better: -1,
    sameRun: "worker CPU ÷ every-duty loop's",
  },
  {
    name: "queue drain ÷ required-writes loop (SQLite)",
    value: num(queue, /required-writes loop sqlite: .* the worker is ([\d.]+) of it/),
    unit: "×",
    goal: "≥ 0.5",
    ok: (v) => v >= 0.5,
    better: 1,
    // The drain waits for each claim's sync to disk, which this loop never does: a disk that syncs more slowly
    // lowers this ratio with the build unchanged, and the ratio to the loop that syncs as the worker does holds.
    sameRun: "queue drain ÷ that loop with claims synced",
  },
  {
    // The same loop with the worker's other duty, each claim synced to disk before its calls.
    name: "queue drain ÷ that loop with claims synced",
    value: num(queue, /with each claim synced sqlite: .* the worker is ([\d.]+) of it/),
    unit: "×",
    ...noGoal,
    better: 1,
  },
  {
    // The leanest code doing every write the worker does (bench/every-duty-loop.ts): what the duties cost alone.
    name: "worker CPU ÷ every-duty loop's",
    value: num(queue, /every-duty loop sqlite: .* ([\d.]+)× its cpu/),
    unit: "×",
    ...noGoal,
    better: -1,
  },
  {
    // What this machine does in this run: the floors the figures above are divided by, shown so that a figure
    // that moved can be told apart from a machine that did.
    name: "API required-writes floor",
    value: num(api, /required writes only: ([\d.]+) req\/s/),
    unit: "req/s",
    ...noGoal,
    better: 1,
  },
  {
    name: "API server CPU per request",
    value: num(api, /server CPU: ([\d.]+) µs a request/),
    unit: "µs",
    ...noGoal,
    better: -1,
  },
  {
    name: "every-duty loop CPU per target (SQLite)",
    value: num(queue, /every-duty loop sqlite: .* ([\d.]+) µs cpu per target/),
    unit: "µs",
    ...noGoal,
    better: -1,
  },
  {
    // Counts, not times: the same on a busy machine as on a quiet one, so a statement added per target shows.
    name: "worker SQLite calls per target",
    value: num(queue, /sqlite calls per target: ([\d.]+)/),
    unit: "",
    ...noGoal,
    better: -1,
    noise: 0.03,
  },
  {
    name: "worker bytes written per target (SQLite)",
    value: num(queue, /bytes written per target: ([\d.]+) KB/),
    unit: "KB",
    ...noGoal,
    better: -1,
    noise: 0.08,
  },
];

/** The last recorded figures: a `check:` JSON object in an HTML comment in docs/performance.md. */
function recorded(): Record<string, number> {
  try {
    const doc = readFileSync(new URL("../docs/performance.md", import.meta.url), "utf8");
    const m = /<!-- check: (\{.*?\}) -->/s.exec(doc);
    return m ? (JSON.parse(m[1]!) as Record<string, number>) : {};
  } catch {
    return {};
  }
}

const last = recorded();
const byName = new Map(figures.map((f) => [f.name, f]));
/** How far a figure moved from its recorded value (a fraction), or null when either is missing. */
const movedOf = (f: Figure): number | null => {
  const before = last[f.name];
  return f.value === null || before === undefined || before <= 0 ? null : (f.value - before) / before;
};
const pad = (s: string, n: number) => s.padEnd(n);
console.log(`\n${pad("figure", 46)}${pad("now", 12)}${pad("goal", 10)}${pad("recorded", 12)}note`);
for (const f of figures) {
  const before = last[f.name];
  const notes: string[] = [];
  if (f.value === null) notes.push("not measured");
  else {
    if (!f.ok(f.value)) notes.push("MISSES ITS GOAL");
    if (before !== undefined && before > 0) {
      const moved = (f.value - before) / before;
      if (moved * f.better < -(f.noise ?? NOISE)) {
        const ratio = f.sameRun ? byName.get(f.sameRun) : undefined;
        const ratioMoved = ratio ? movedOf(ratio) : null;
        // The ratio to the same run's floor did not move against its goal: the floor moved as much, so the
        // machine did, not the build (run the build before beside this one to be sure).
        const machine = ratio && ratioMoved !== null && ratioMoved * ratio.better >= -(ratio.noise ?? NOISE);
        notes.push(
          machine
            ? `moved ${(moved * 100).toFixed(0)} % against its goal, but "${ratio.name}" held (${ratio.value} against ${last[ratio.name]}): the machine`
            : `moved ${(moved * 100).toFixed(0)} % against its goal: find why`,
        );
      }
    }
  }
  const now = f.value === null ? "–" : `${f.value} ${f.unit}`.trim();
  const rec = before === undefined ? "–" : `${before} ${f.unit}`.trim();
  console.log(`${pad(f.name, 46)}${pad(now, 12)}${pad(f.goal, 10)}${pad(rec, 12)}${notes.join("; ")}`);
}
console.log(
  `\n(${((performance.now() - started) / 1000).toFixed(0)} s; noise taken as ±${NOISE * 100} %, for the counts less)`,
);
if (process.argv.includes("--record")) {
  const block = Object.fromEntries(figures.filter((f) => f.value !== null).map((f) => [f.name, f.value]));
  console.log(`\n<!-- check: ${JSON.stringify(block)} -->`);
}
process.exit(0);
