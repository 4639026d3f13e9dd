// The machinery of the queue benchmarks (bench/queue.ts, bench/peers.ts): a fresh database per run (a new SQLite
// file, or a new Postgres database dropped afterwards), seeded with due targets; an adapter that answers at once; the
// publish worker draining them; and the reference loops (the raw claim-10-and-complete floor, and the loop writing
// only the rows the specification requires per target).
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { sql } from "kysely";
import pg from "pg";
import { loadConfig } from "../src/app/config.ts";
import { type App, createApp } from "../src/app/context.ts";
import { silentLogger } from "../src/app/log.ts";
import { startTelemetry } from "../src/app/start-telemetry.ts";
import { registerHooks } from "../src/boot.ts";
import { openDatabase } from "../src/db/index.ts";
import { migrate } from "../src/db/migrate.ts";
import { columns, marks, raw, rowMarks } from "../src/db/raw.ts";
import { POST_TARGET_COLUMNS, type PostTargetsTable } from "../src/db/tables/posts.ts";
import { checkPostConsistency } from "../src/domain/targets/consistency.ts";
import { newId } from "../src/lib/ids.ts";
import type { Adapter } from "../src/platforms/adapter.ts";
import { startPublishWorker } from "../src/queue/publish/worker.ts";
import { freshDatabase, PG } from "./fresh-database.ts";
import { seedQueue } from "./seed-queue.ts";
import { countStatements } from "./statement-timer.ts";

export type Dialect = "sqlite" | "postgres";
export const CHANNELS = 1000;

export { PG } from "./fresh-database.ts";

export const instant: Adapter = {
  provider: "sandbox",
  idempotent: false,
  publish: async () => ({ kind: "published", permalink: null }),
};

export async function freshApp(dialect: Dialect): Promise<{ url: string; app: App; drop(): Promise<void> }> {
  const { url, drop } = await freshDatabase(dialect, "q");
  const config = loadConfig({
    SVC_DATABASE_URL: url,
    SVC_MASTER_KEYS: `b:${randomBytes(32).toString("base64")}`,
    SVC_DATA_DIR: tmpdir(),
  });
  const database = openDatabase(url, { poolSize: 4 });
  await migrate(database.db, dialect);
  registerHooks();
  const app = createApp(config, { database, log: silentLogger });
  // BENCH_OTEL=1 (with OTEL_* variables): the worker's metrics and spans on, to see what exporting costs. The SDK
  // registers itself once per process: later apps share the first one's instruments.
  if (process.env.BENCH_OTEL === "1") {
    telemetry ??= (await startTelemetry(app), app.telemetry);
    app.telemetry = telemetry;
  }
  return { url, app, drop };
}
let telemetry: App["telemetry"] | null = null;

/** Table statistics, as autovacuum would have them for a queue this size (a bulk-seeded table has none yet). */
export async function analyze(app: App): Promise<void> {
  await sql`ANALYZE`.execute(app.db);
}

export async function published(app: App): Promise<number> {
  const r = await app.db
    .selectFrom("post_targets")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", "published")
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Whether any target is still queued or being published (two index probes, cheap enough to poll). */
export async function anyLeft(app: App): Promise<boolean> {
  for (const status of ["queued", "publishing"]) {
    const r = await sql
      .raw(`SELECT 1 AS x FROM post_targets WHERE status = '${status}' LIMIT 1`)
      .execute(app.db);
    if (r.rows.length) return true;
  }
  return false;
}

/** The floor: claim 10 due targets and mark them published, in a loop, nothing else. */
export async function rawLoop(app: App): Promise<void> {
  const lock = app.dialect === "postgres" ? sql`FOR UPDATE SKIP LOCKED` : sql``;
  for (;;) {
    const now = Date.now();
    const ids = await app.db.transaction().execute(async (tx) => {
      const r = await sql<{
        id: string;
      }>`UPDATE post_targets SET status = 'publishing', lease_owner = 'raw', leased_until = ${now + 180_000}
        WHERE id IN (SELECT id FROM post_targets WHERE status = 'queued' AND next_attempt_at <= ${now} ORDER BY next_attempt_at LIMIT 10 ${lock})
        RETURNING id`.execute(tx);
      return r.rows.map((x) => x.id);
    });
    if (ids.length === 0) return;
    await app.db
      .updateTable("post_targets")
      .set({ status: "published", published_at: now })
      .where("id", "in", ids)
      .execute();
  }
}

/**
 * A second reference, not the floor: the raw loop plus only the rows the specification asks of any
 * implementation for each target (its attempt row, written before the call and finished after it, and its
 * post_target.published event with the target as its object), in plain SQL and nothing else: no channel locks,
 * no post status, no post events. How far it falls below the raw floor is the part of the gap those rows cost.
 * `syncClaims`: each claimed batch is made durable (`app.syncWrites()`, an fdatasync of the WAL on SQLite; Postgres
 * commits are durable already) before its calls would be made, the other duty the specification sets the worker.
 */
export async function requiredWritesLoop(app: App, opts: { syncClaims?: boolean } = {}): Promise<void> {
  // Plain SQL text through src/db/raw.ts, the leanest path this code has.
  const d = app.dialect;
  const claim = `UPDATE post_targets SET status = 'publishing', lease_owner = 'raw', leased_until = ?, attempts = attempts + 1
    WHERE id IN (SELECT id FROM post_targets WHERE status = 'queued' AND next_attempt_at <= ?
      ORDER BY next_attempt_at LIMIT 10${d === "postgres" ? " FOR UPDATE SKIP LOCKED" : ""})
    RETURNING ${columns(POST_TARGET_COLUMNS)}`;
  // Like the worker, one transaction a batch: the last batch's outcomes and the next claim commit together.
  let previous: PostTargetsTable[] = [];
  for (;;) {
    const now = Date.now();
    const done = previous;
    previous = await app.db.transaction().execute(async (tx) => {
      if (done.length) {
        const ids = done.map((t) => t.id);
        await raw(
          tx,
          d,
          `UPDATE post_targets SET status = 'published', published_at = ? WHERE id IN (${marks(ids.length)})`,
          [now, ...ids],
        );
        await raw(
          tx,
          d,
          `UPDATE post_attempts SET outcome = 'published', finished_at = ? WHERE target_id IN (${marks(ids.length)}) AND outcome = 'running'`,
          [now, ...ids],
        );
        await raw(
          tx,
          d,
          `INSERT INTO events (id, org_id, livemode, type, request_id, data, created_at) VALUES ${rowMarks(done.length, 7)}`,
          done.flatMap((t) => [
            newId("evt", now),
            t.org_id,
            t.livemode,
            "post_target.published",
            null,
            JSON.stringify({ object: { ...t, status: "published", published_at: now } }),
            now,
          ]),
        );
      }
      const rows = await raw<PostTargetsTable>(tx, d, claim, [now + 180_000, now]);
      if (rows.length)
        await raw(
          tx,
          d,
          `INSERT INTO post_attempts (id, org_id, target_id, attempt, started_at, outcome) VALUES ${rowMarks(rows.length, 6)}`,
          rows.flatMap((t) => [newId("att", now), t.org_id, t.id, t.attempts, now, "running"]),
        );
      return rows;
    });
    if (previous.length === 0) return;
    if (opts.syncClaims) await app.syncWrites();
  }
}

/** The required-writes loop with each claimed batch synced to disk before its calls. */
export const requiredWritesLoopSynced = (app: App) => requiredWritesLoop(app, { syncClaims: true });

/**
 * CPU time (µs) of each Postgres backend connected to the database of `url`, read from /proc (the server runs on this
 * machine). A fresh database per run has only the run's own backends, so the growth between two samples is the
 * server's share of the run's work.
 */
export async function serverCpu(url: string): Promise<Map<number, number>> {
  const name = new URL(url).pathname.slice(1);
  const c = new pg.Client({ connectionString: PG });
  await c.connect();
  const r = await c.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1", [name]);
  await c.end();
  const ticks = 1_000_000 / 100; // USER_HZ
  const out = new Map<number, number>();
  for (const { pid } of r.rows) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = f.slice(f.lastIndexOf(")") + 2).split(" ");
      out.set(pid, (Number(fields[11]) + Number(fields[12])) * ticks); // utime, stime
    } catch {
      // the backend ended between the query and the read
    }
  }
  return out;
}

/** Server CPU per target (µs) between two samples of `serverCpu`. */
export function serverCpuPerTarget(
  before: Map<number, number>,
  after: Map<number, number>,
  n: number,
): number {
  let total = 0;
  for (const [pid, us] of after) total += us - (before.get(pid) ?? 0);
  return total / n;
}

/**
 * This process's CPU time per target (µs) since `c0`: on SQLite all of a drain's work (the checkpointer thread
 * included), so it compares loops even when other work on the machine moves their rates; on Postgres only the
 * client side.
 */
export const cpuPerTarget = (c0: NodeJS.CpuUsage, n: number) => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
};

/**
 * Bytes this process has handed to write calls so far (`wchar` of /proc/self/io: on SQLite the log's frames and
 * the checkpoints' copies), or null where there is no /proc.
 */
export function writtenBytes(): number | null {
  try {
    return Number(/^wchar: (\d+)$/m.exec(readFileSync("/proc/self/io", "utf8"))?.[1] ?? Number.NaN);
  } catch {
    return null;
  }
}

/**
 * Targets per second of `loop` run by `workers` apps on a freshly seeded database of `n` due targets. `consistent`:
 * afterwards every post must carry its final status and exactly one final event, as after the worker's drain.
 */
export async function measureLoop(
  dialect: Dialect,
  workers: number,
  loop: (app: App) => Promise<void>,
  n: number,
  opts: { consistent?: boolean } = {},
): Promise<{ rate: number; cpu: number; serverCpu?: number }> {
  const db = await freshApp(dialect);
  await seedQueue(db.app, n, CHANNELS, Date.now() - 1000);
  await analyze(db.app);
  const loops = [
    db.app,
    ...(await Promise.all(
      Array.from({ length: workers - 1 }, async () =>
        createApp(db.app.config, { database: openDatabase(db.url, { poolSize: 2 }), log: silentLogger }),
      ),
    )),
  ];
  const s0 = dialect === "postgres" ? await serverCpu(db.url) : null;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await Promise.all(loops.map((a) => loop(a)));
  const secs = (performance.now() - t0) / 1000;
  const cpu = cpuPerTarget(c0, n);
  const server = s0 && serverCpuPerTarget(s0, await serverCpu(db.url), n);
  if ((await published(db.app)) !== n) throw new Error("a raw loop did not publish everything");
  if (opts.consistent) {
    const check = await checkPostConsistency(db.app.db);
    if (check.stuck.length || check.missingEvent.length || check.duplicateEvent.length)
      throw new Error(
        `posts out of step with their targets after a loop: ${JSON.stringify(check).slice(0, 200)}`,
      );
  }
  for (const a of loops) await a.close();
  await db.drop();
  return { rate: n / secs, cpu, ...(server === null ? {} : { serverCpu: server }) };
}

/**
 * The publish worker (`workers` of them, each an app with its own pool) draining `n` due targets on a freshly
 * seeded database; afterwards every post whose targets are all finished must carry its final status and exactly
 * one final event.
 */
export async function drainWithWorker(
  dialect: Dialect,
  workers: number,
  n: number,
): Promise<{
  rate: number;
  cpu: number;
  /** Postgres only: the server's CPU per target (µs). */
  serverCpu?: number;
  /** SQLite calls and COMMITs per target (the polling for the end of the drain included: a few dozen calls). */
  statements: number;
  commits: number;
  /** Bytes written per target (log and checkpoints; null without /proc). Postgres: the client's only. */
  written: number | null;
  check: Awaited<ReturnType<typeof checkPostConsistency>>;
  posts: number;
  consistent: boolean;
}> {
  const ours = await freshApp(dialect);
  await seedQueue(ours.app, n, CHANNELS, Date.now() - 1000);
  await analyze(ours.app);
  const apps = [
    ours.app,
    ...(await Promise.all(
      Array.from({ length: workers - 1 }, async () =>
        createApp(ours.app.config, { database: openDatabase(ours.url, { poolSize: 4 }), log: silentLogger }),
      ),
    )),
  ];
  const s0 = dialect === "postgres" ? await serverCpu(ours.url) : null;
  const counted = countStatements();
  const { statements: q0, commits: k0 } = counted;
  const w0 = writtenBytes();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const ws = apps.map((a) => startPublishWorker(a, { adapterFor: () => instant, pollMs: 5 }));
  while (await anyLeft(ours.app)) await Bun.sleep(50);
  const secs = (performance.now() - t0) / 1000;
  const cpu = cpuPerTarget(c0, n);
  const w1 = writtenBytes();
  const statements = (counted.statements - q0) / n;
  const commits = (counted.commits - k0) / n;
  const written = w0 === null || w1 === null ? null : (w1 - w0) / n;
  const server = s0 && serverCpuPerTarget(s0, await serverCpu(ours.url), n);
  if ((await published(ours.app)) !== n) throw new Error("the worker did not publish everything");
  for (const w of ws) await w.stop();
  const check = await checkPostConsistency(ours.app.db);
  const posts = Math.ceil(n / 10);
  const consistent =
    check.stuck.length === 0 &&
    check.missingEvent.length === 0 &&
    check.duplicateEvent.length === 0 &&
    check.finalEvents === posts;
  for (const a of apps) await a.close();
  await ours.drop();
  return {
    rate: n / secs,
    cpu,
    ...(server === null ? {} : { serverCpu: server }),
    statements,
    commits,
    written,
    check,
    posts,
    consistent,
  };
}
