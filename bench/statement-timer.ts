// Every SQLite call of this process timed by its SQL text, for the *-statements tools: the statements plain SQL
// sends straight to the connection (BunSqliteConnection.rows), the query builder's (executeQuery) and bun:sqlite's
// own run (BEGIN, COMMIT, savepoints). Only calls made while `timing` is on are counted. Each call is timed by the
// calling thread's CPU time (SVC_BENCH_WALL=1: wall time). countStatements only counts the same calls, cheaply
// enough for a benchmark to keep it on while it measures CPU (bench/queue.ts).
import { dlopen, FFIType, ptr } from "bun:ffi";
import { Database } from "bun:sqlite";
import { BunSqliteConnection } from "../src/db/sqlite.ts";

export interface StatementStats {
  calls: number;
  ns: number;
  /** The slowest call. */
  max: number;
}

export interface StatementTimer {
  timing: boolean;
  /** Calls over 3 ms, with when they ended (ms since `start()`): the tail of a latency. */
  readonly slow: string[];
  start(): void;
  /** Statements by total time, slowest first. */
  ranked(): [string, StatementStats][];
}

/**
 * This thread's CPU time in ns (clock_gettime(CLOCK_THREAD_CPUTIME_ID)): on a shared machine, wall time around a
 * call also counts the time other processes held the core. Wall time where libc cannot be opened.
 */
function threadClock(): () => number {
  try {
    const libc = dlopen("libc.so.6", {
      clock_gettime: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 },
    });
    const ts = new BigInt64Array(2);
    const p = ptr(ts);
    return () => {
      libc.symbols.clock_gettime(3, p); // CLOCK_THREAD_CPUTIME_ID
      return Number(ts[0]!) * 1e9 + Number(ts[1]!);
    };
  } catch {
    return () => Bun.nanoseconds();
  }
}

export function timeStatements(keyLength = 100): StatementTimer {
  const clock = process.env.SVC_BENCH_WALL ? () => Bun.nanoseconds() : threadClock();
  const stats = new Map<string, StatementStats>();
  let started = Bun.nanoseconds();
  const timer: StatementTimer = {
    timing: false,
    slow: [],
    start() {
      started = Bun.nanoseconds();
      timer.timing = true;
    },
    ranked: () => [...stats].sort((a, b) => b[1].ns - a[1].ns),
  };
  function record(text: string, ns: number): void {
    if (!timer.timing) return;
    const key = text.replace(/\s+/g, " ").slice(0, keyLength);
    const s = stats.get(key) ?? { calls: 0, ns: 0, max: 0 };
    s.calls++;
    s.ns += ns;
    if (ns > s.max) s.max = ns;
    if (ns > 3e6)
      timer.slow.push(
        `${((Bun.nanoseconds() - started) / 1e6).toFixed(0)} ms: ${(ns / 1e6).toFixed(1)} ms ${key.slice(0, 40)}`,
      );
    stats.set(key, s);
  }
  /** Wraps `name` of `proto` so each call is timed under its first argument's SQL text (`sqlOf`). */
  function timeCalls(proto: object, name: string, sqlOf: (arg: unknown) => string, prefix = ""): void {
    const p = proto as Record<string, (...args: unknown[]) => unknown>;
    const original = p[name]!;
    p[name] = function (this: unknown, ...args: unknown[]) {
      const start = clock();
      const out = original.apply(this, args);
      // executeQuery is async in form only: bun:sqlite has done the work by the time it returns.
      record(prefix + sqlOf(args[0]), clock() - start);
      return out;
    };
  }
  for (const [proto, name, sqlOf, prefix] of ENTRY_POINTS) timeCalls(proto, name, sqlOf, prefix);
  return timer;
}

/** Where this process's SQL reaches SQLite: plain SQL, the query builder, and bun:sqlite's own run. */
const ENTRY_POINTS: [object, string, (arg: unknown) => string, string][] = [
  [BunSqliteConnection.prototype, "rows", (t) => t as string, ""],
  [BunSqliteConnection.prototype, "executeQuery", (q) => (q as { sql: string }).sql, ""],
  [Database.prototype, "run", (t) => t as string, "run: "],
];

export interface StatementCount {
  /** SQLite calls so far, BEGIN, COMMIT and savepoints included. */
  statements: number;
  commits: number;
}

/**
 * Counts every SQLite call of this process (the entry points timeStatements times), without timing them: a
 * counter costs a few tens of nanoseconds a call, so a benchmark can keep it on while it measures CPU. Unlike CPU
 * time, the counts do not depend on the machine's load: a change that adds a statement per target shows at once.
 */
export function countStatements(): StatementCount {
  if (counter) return counter;
  const count: StatementCount = { statements: 0, commits: 0 };
  for (const [proto, name, sqlOf] of ENTRY_POINTS) {
    const p = proto as Record<string, (...args: unknown[]) => unknown>;
    const original = p[name]!;
    p[name] = function (this: unknown, ...args: unknown[]) {
      count.statements++;
      if (name === "run" && sqlOf(args[0]) === "COMMIT") count.commits++;
      return original.apply(this, args);
    };
  }
  counter = count;
  return count;
}
let counter: StatementCount | null = null;
