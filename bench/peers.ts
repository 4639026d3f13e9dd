#!/usr/bin/env bun
// peers: svc's publish queue beside two well-known job queues on this machine, N jobs each on a fresh database
// (a new SQLite file; a new Postgres database, dropped afterwards), in rounds that alternate the contestants (their
// order rotates each round):
// - SQLite: svc's publish worker (1 worker, claims synced to disk before any adapter call), plainjob as shipped
//   (WAL, synchronous = NORMAL: its claims are not synced before its handler runs), plainjob with its claim synced
//   before its handler (the handler first waits for an fdatasync of the WAL, the same src/db/wal-sync.ts svc uses),
//   and the required-writes loop of bench/queue.ts (1 loop) twice: as bench/queue.ts runs it (no sync), and with
//   each claimed batch synced to disk before its calls would be made (`app.syncWrites()`, as the worker does), and
//   the every-duty loop of bench/every-duty-loop.ts: every write the worker makes, in the leanest code.
// - Postgres (synchronous_commit as the server has it, `on` by default, so every commit, claims included, is durable
//   when it returns): svc's worker (4 workers in one process), graphile-worker batched (4 runners, each with up to
//   10 jobs at once, fetching and locking 10 jobs a query through its local queue, completions batched), and the
//   required-writes loop (4 loops).
// Every job is the same no-op publish: svc's sandbox adapter answering at once, an empty async handler for the
// peers. Prints jobs (targets) per second, CPU per job (this process; on Postgres also the server's, read from /proc
// for the backends of the run's own database), and each of ours ÷ each peer in every round, then ranges and medians.
// Usage: bun bench/peers.ts [--quick] [--rounds R] [--sqlite-only | --postgres-only]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { walSync } from "../src/db/wal-sync.ts";
import { everyDutyLoop } from "./every-duty-loop.ts";
import { freshDatabase } from "./fresh-database.ts";
import {
  type Dialect,
  drainWithWorker,
  measureLoop,
  requiredWritesLoop,
  requiredWritesLoopSynced,
  serverCpu,
  serverCpuPerTarget,
} from "./queue-drain.ts";

const argv = process.argv;
const quick = argv.includes("--quick");
const N = quick ? 10_000 : 100_000;
const ROUNDS = Number(argv[argv.indexOf("--rounds") + 1]) || 3;

interface Figure {
  /** Jobs (targets) per second. */
  rate: number;
  /** This process's CPU per job, µs. */
  cpu: number;
  /** Postgres: the server's CPU per job, µs (the backends of the run's fresh database). */
  serverCpu?: number;
  /** Anything else worth printing (graphile-worker: jobs per fetch). */
  note?: string;
}
interface Contestant {
  name: string;
  kind: "svc" | "peer" | "required";
  run(): Promise<Figure>;
}

const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

// ---- plainjob (SQLite) ----

const quietPlainjob = { error() {}, warn() {}, info() {}, debug() {} };

/**
 * plainjob draining `n` jobs with one worker (it runs one job at a time: claim in an immediate transaction, read
 * the job, run the handler, mark it done). `synced`: the handler first waits for the WAL's fdatasync, so the
 * claim is on disk before the "network call", as svc's worker does for each claimed batch.
 */
async function plainjob(n: number, synced: boolean): Promise<Figure> {
  const { Database } = await import("bun:sqlite");
  const { bun, defineQueue, defineWorker, JobStatus } = await import("plainjob");
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-plainjob-"));
  const path = join(dir, "q.db");
  // defineQueue sets journal_mode = WAL, synchronous = 1 (NORMAL) and busy_timeout = 5000 itself.
  const queue = defineQueue({ connection: bun(new Database(path, { strict: true })), logger: quietPlainjob });
  for (let i = 0; i < n; i += 1000)
    queue.addMany(
      "publish",
      Array.from({ length: Math.min(1000, n - i) }, (_, k) => ({ target: i + k })),
    );
  const wal = synced ? walSync(path) : null;
  let done = 0;
  let finished = () => {};
  const all = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const worker = defineWorker("publish", wal ? () => wal.sync() : async () => {}, {
    queue,
    logger: quietPlainjob,
    pollIntervall: 5,
    onCompleted: () => {
      if (++done === n) finished();
    },
  });
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const running = worker.start();
  await all;
  const secs = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  await worker.stop();
  await running;
  const doneJobs = queue.countJobs({ status: JobStatus.Done });
  queue.close();
  await wal?.close();
  rmSync(dir, { recursive: true, force: true });
  if (doneJobs !== n) throw new Error(`plainjob finished ${doneJobs} of ${n} jobs`);
  return { rate: n / secs, cpu: (c.user + c.system) / n };
}

// ---- graphile-worker (Postgres) ----

const RUNNERS = 4;
const CONCURRENCY = 10;
const LOCAL_QUEUE = 10;

const freshPgDatabase = () => freshDatabase("postgres", "gw");

/**
 * graphile-worker draining `n` jobs: RUNNERS runners in this process (each with its own pool, as svc's Postgres
 * workers have), each running up to CONCURRENCY jobs at once; batched as its performance guide describes: the
 * local queue fetches and locks LOCAL_QUEUE jobs a query, and completions are batched (`completeJobBatchDelay: 0`).
 */
async function graphileWorker(n: number): Promise<Figure> {
  const { Logger, makeWorkerUtils, run, runMigrations } = await import("graphile-worker");
  const { EventEmitter } = await import("node:events");
  const logger = new Logger(() => () => {});
  const db = await freshPgDatabase();
  try {
    await runMigrations({ connectionString: db.url, logger });
    const utils = await makeWorkerUtils({ connectionString: db.url, logger });
    for (let i = 0; i < n; i += 1000)
      await utils.addJobs(
        Array.from({ length: Math.min(1000, n - i) }, (_, k) => ({
          identifier: "publish",
          payload: { target: i + k },
        })),
      );
    await utils.release();
    const probe = new pg.Client({ connectionString: db.url });
    await probe.connect();
    await probe.query("ANALYZE"); // as the svc side has its seeded tables analysed
    const events = new EventEmitter();
    let succeeded = 0;
    events.on("job:success", () => {
      succeeded++;
    });
    let fetches = 0;
    let fetched = 0;
    events.on("localQueue:getJobs:complete", ({ jobs }: { jobs: unknown[] }) => {
      fetches++;
      fetched += jobs.length;
    });
    const s0 = await serverCpu(db.url);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const runners = await Promise.all(
      Array.from({ length: RUNNERS }, () =>
        run({
          connectionString: db.url,
          concurrency: CONCURRENCY,
          noHandleSignals: true,
          logger,
          events: events as never,
          taskList: { publish: async () => {} },
          preset: {
            worker: { localQueue: { size: LOCAL_QUEUE }, completeJobBatchDelay: 0, failJobBatchDelay: 0 },
          },
        }),
      ),
    );
    // Done once the last completed job is deleted (graphile-worker deletes a job when it succeeds).
    while ((await probe.query("SELECT EXISTS (SELECT 1 FROM graphile_worker._private_jobs) AS x")).rows[0].x)
      await Bun.sleep(50);
    const secs = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    const server = serverCpuPerTarget(s0, await serverCpu(db.url), n);
    await Promise.all(runners.map((r) => r.stop()));
    await probe.end();
    if (succeeded !== n) throw new Error(`graphile-worker ran ${succeeded} of ${n} jobs successfully`);
    return {
      rate: n / secs,
      cpu: (c.user + c.system) / n,
      serverCpu: server,
      note: `${fetches} fetches, ${(fetched / Math.max(1, fetches)).toFixed(1)} jobs each`,
    };
  } finally {
    await db.drop();
  }
}

// ---- rounds ----

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const range = (xs: number[], digits = 0) => {
  const f = (x: number) => (digits ? x.toFixed(digits) : Math.round(x).toLocaleString("en-US"));
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return `${lo === hi ? f(lo) : `${f(lo)}–${f(hi)}`} (median ${f(median(xs))})`;
};

async function compare(dialect: Dialect, contestants: Contestant[]) {
  const figures = new Map<string, Figure[]>(contestants.map((c) => [c.name, []]));
  const ours = contestants.filter((c) => c.kind !== "peer"); // svc's worker and the required-writes loops
  const peers = contestants.filter((c) => c.kind === "peer");
  const pairs = ours.flatMap((o) => peers.map((p) => ({ o, p, ratios: [] as number[] })));
  console.log(`peers ${dialect}: ${N} jobs, ${ROUNDS} rounds, load average ${loadavg()}`);
  for (let r = 0; r < ROUNDS; r++) {
    const order = contestants.map((_, i) => contestants[(i + r) % contestants.length]!);
    const round = new Map<string, Figure>();
    for (const c of order) {
      const f = await c.run();
      round.set(c.name, f);
      figures.get(c.name)!.push(f);
    }
    const parts = contestants.map((c) => {
      const f = round.get(c.name)!;
      const server = f.serverCpu === undefined ? "" : ` + server ${f.serverCpu.toFixed(0)} µs`;
      return `${c.name} ${Math.round(f.rate)}/s ${f.cpu.toFixed(0)} µs${server}${f.note ? ` (${f.note})` : ""}`;
    });
    const rs = pairs.map(({ o, p, ratios }) => {
      const x = round.get(o.name)!.rate / round.get(p.name)!.rate;
      ratios.push(x);
      return `${o.name} ÷ ${p.name} ${x.toFixed(2)}`;
    });
    console.log(`  round ${r + 1} (load ${loadavg()}): ${parts.join("; ")}; ${rs.join(", ")}`);
  }
  for (const c of contestants) {
    const fs = figures.get(c.name)!;
    console.log(
      `  ${c.name}: ${range(fs.map((f) => f.rate))} jobs/s, CPU per job ${range(fs.map((f) => f.cpu))} µs${
        dialect === "postgres" ? ` here + ${range(fs.map((f) => f.serverCpu ?? 0))} µs in Postgres` : ""
      }`,
    );
  }
  // Per job, this process's CPU and (Postgres) the server's, medians; a peer's over ours (above 1: ours spends less).
  const cpu = (name: string) => median(figures.get(name)!.map((f) => f.cpu + (f.serverCpu ?? 0)));
  for (const { o, p, ratios } of pairs)
    console.log(
      `  ${o.name} ÷ ${p.name}: ${range(ratios, 2)}; CPU per job, ${p.name} ÷ ${o.name} ${(cpu(p.name) / cpu(o.name)).toFixed(2)}`,
    );
  console.log(`  load average at the end ${loadavg()}`);
}

if (!argv.includes("--postgres-only"))
  await compare("sqlite", [
    { name: "svc", kind: "svc", run: () => drainOk("sqlite", 1) },
    { name: "plainjob", kind: "peer", run: () => plainjob(N, false) },
    { name: "plainjob synced", kind: "peer", run: () => plainjob(N, true) },
    { name: "required-writes", kind: "required", run: () => measureLoop("sqlite", 1, requiredWritesLoop, N) },
    {
      name: "required-writes synced",
      kind: "required",
      run: () => measureLoop("sqlite", 1, requiredWritesLoopSynced, N),
    },
    {
      name: "every-duty",
      kind: "required",
      run: () => measureLoop("sqlite", 1, everyDutyLoop, N, { consistent: true }),
    },
  ]);
if (!argv.includes("--sqlite-only"))
  await compare("postgres", [
    { name: "svc", kind: "svc", run: () => drainOk("postgres", RUNNERS) },
    { name: "graphile-worker", kind: "peer", run: () => graphileWorker(N) },
    {
      name: "required-writes",
      kind: "required",
      run: () => measureLoop("postgres", RUNNERS, requiredWritesLoop, N),
    },
  ]);
process.exit(0);

/** svc's worker; the drain counts only if every post ends consistent with its targets. */
async function drainOk(dialect: Dialect, workers: number): Promise<Figure> {
  const d = await drainWithWorker(dialect, workers, N);
  if (!d.consistent) throw new Error("posts out of step with their targets after the drain");
  return d;
}
