#!/usr/bin/env bun
// queue-drain: N due targets and an adapter that answers at once; targets published per second by the publish
// worker (1 on SQLite, 4 on Postgres), beside a raw claim-10-and-complete loop (the same number of loops) on the
// same database and data in the same run.
// A second line gives a loop writing only the rows the specification requires per target, for scale, and the same
// loop syncing each claim to disk before its calls, as the worker must (SQLite; Postgres commits are durable), and
// a loop doing every write the worker does in the leanest code (every-duty-loop.ts on SQLite, every-duty-loop-pg.ts
// on Postgres, 4 loops): what the duties cost by themselves.
// The worker's SQLite calls and bytes written per target are counted too: unlike CPU time, they do not move with
// the machine's load.
// Usage: bun bench/queue.ts [--quick] [--sqlite-only | --postgres-only]
import { everyDutyLoop } from "./every-duty-loop.ts";
import { everyDutyLoopPg } from "./every-duty-loop-pg.ts";
import {
  CHANNELS,
  drainWithWorker,
  measureLoop,
  rawLoop,
  requiredWritesLoop,
  requiredWritesLoopSynced,
} from "./queue-drain.ts";

const quick = process.argv.includes("--quick");
const N = quick ? 10_000 : 100_000;

async function run(dialect: "sqlite" | "postgres") {
  const workers = dialect === "sqlite" ? 1 : 4;

  // The worker right after the floor it is compared with; the reference loop for scale last.
  const { rate: floor, cpu: floorCpu } = await measureLoop(dialect, workers, rawLoop, N);
  const drain = await drainWithWorker(dialect, workers, N);
  const { rate, cpu: ourCpu, check, posts, consistent } = drain;
  const { rate: required, cpu: requiredCpu } = await measureLoop(dialect, workers, requiredWritesLoop, N);
  const synced =
    dialect === "sqlite" ? await measureLoop(dialect, workers, requiredWritesLoopSynced, N) : null;
  const duties = await measureLoop(
    dialect,
    workers,
    dialect === "sqlite" ? everyDutyLoop : everyDutyLoopPg,
    N,
    { consistent: true },
  );
  console.log(
    `queue-drain ${dialect}: ${Math.round(rate)} targets/s, ratio ${(rate / floor).toFixed(2)} (raw claim-10-and-complete ${Math.round(floor)}/s; ${N} targets, ${CHANNELS} channels, ${workers} worker${workers > 1 ? "s" : ""})`,
  );
  console.log(
    `  posts after the drain: ${check.stuck.length} of ${posts} stuck, ${check.missingEvent.length} without their final event, ${check.duplicateEvent.length} with more than one; ${check.finalEvents} final events`,
  );
  if (!consistent) throw new Error("posts out of step with their targets after the drain");
  console.log(
    `  cpu in this process per target: worker ${ourCpu.toFixed(1)} µs, raw floor ${floorCpu.toFixed(1)} µs (${(floorCpu / ourCpu).toFixed(2)} of the worker's), required-writes loop ${requiredCpu.toFixed(1)} µs`,
  );
  console.log(
    `  required-writes loop ${dialect}: ${Math.round(required)} targets/s, ${(required / floor).toFixed(2)} of the raw floor; the worker is ${(rate / required).toFixed(2)} of it`,
  );
  if (synced)
    console.log(
      `  required-writes loop with each claim synced ${dialect}: ${Math.round(synced.rate)} targets/s, ${synced.cpu.toFixed(1)} µs cpu per target; the worker is ${(rate / synced.rate).toFixed(2)} of it`,
    );
  // On Postgres the server's CPU per target too (client + server), the larger part of the work there.
  const server = (x: { serverCpu?: number }) =>
    x.serverCpu === undefined ? "" : ` + ${x.serverCpu.toFixed(1)} µs on the server`;
  console.log(
    `  every-duty loop ${dialect}: ${Math.round(duties.rate)} targets/s, ${(duties.rate / required).toFixed(2)} of the required-writes loop, ${duties.cpu.toFixed(1)} µs cpu per target${server(duties)}; the worker is ${(rate / duties.rate).toFixed(2)} of its rate and ${(ourCpu / duties.cpu).toFixed(2)}× its cpu${drain.serverCpu === undefined ? "" : ` (worker ${ourCpu.toFixed(1)}${server(drain)})`}`,
  );
  if (dialect === "sqlite")
    console.log(
      `  worker's sqlite calls per target: ${drain.statements.toFixed(2)} (commits ${drain.commits.toFixed(3)}); bytes written per target: ${drain.written === null ? "not measured" : `${(drain.written / 1000).toFixed(1)} KB`}`,
    );
}

if (!process.argv.includes("--postgres-only")) await run("sqlite");
if (!process.argv.includes("--sqlite-only")) {
  try {
    await run("postgres");
  } catch (e) {
    console.log(`queue-drain postgres: not measured (${(e as Error).message})`);
  }
}
process.exit(0);
