#!/usr/bin/env bun
import { randomBytes } from "node:crypto";
// queue-drain: N due targets and an adapter that answers at once; targets published per second by the publish
// worker (1 on SQLite, 4 on Postgres), beside a raw claim-10-and-complete loop (the same number of loops) on the
// same database and data in the same run.
// Usage: bun bench/queue.ts [--quick] [--sqlite-only]
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { loadConfig } from "../src/app/config.ts";
import { type App, createApp } from "../src/app/context.ts";
import { silentLogger } from "../src/app/log.ts";
import { openDatabase } from "../src/db/index.ts";
import { migrate } from "../src/db/migrate.ts";
import type { Adapter } from "../src/platforms/adapter.ts";
import { startPublishWorker } from "../src/queue/publish/worker.ts";
import { seedQueue } from "./seed-queue.ts";

const quick = process.argv.includes("--quick");
const N = quick ? 10_000 : 100_000;
const CHANNELS = 1000;
const PG = process.env.SVC_BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const instant: Adapter = {
  provider: "sandbox",
  idempotent: false,
  publish: async () => ({ kind: "published", permalink: null }),
};

async function freshApp(
  dialect: "sqlite" | "postgres",
): Promise<{ url: string; app: App; drop(): Promise<void> }> {
  let url: string;
  let drop = async () => {};
  if (dialect === "sqlite") url = `sqlite:${join(mkdtempSync(join(tmpdir(), "svc-bench-q-")), "q.db")}`;
  else {
    const name = `svc_bench_${randomBytes(4).toString("hex")}`;
    const c = new pg.Client({ connectionString: PG });
    await c.connect();
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
    const u = new URL(PG);
    u.pathname = `/${name}`;
    url = u.toString();
    drop = async () => {
      const d = new pg.Client({ connectionString: PG });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    };
  }
  const config = loadConfig({
    SVC_DATABASE_URL: url,
    SVC_MASTER_KEYS: `b:${randomBytes(32).toString("base64")}`,
    SVC_DATA_DIR: tmpdir(),
  });
  const database = openDatabase(url, { poolSize: 4 });
  await migrate(database.db, dialect);
  return { url, app: createApp(config, { database, log: silentLogger }), drop };
}

/** Table statistics, as autovacuum would have them for a queue this size (a bulk-seeded table has none yet). */
async function analyze(app: App): Promise<void> {
  await sql`ANALYZE`.execute(app.db);
}

async function published(app: App): Promise<number> {
  const r = await app.db
    .selectFrom("post_targets")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", "published")
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Whether any target is still queued or being published (two index probes, cheap enough to poll). */
async function anyLeft(app: App): Promise<boolean> {
  for (const status of ["queued", "publishing"]) {
    const r = await sql
      .raw(`SELECT 1 AS x FROM post_targets WHERE status = '${status}' LIMIT 1`)
      .execute(app.db);
    if (r.rows.length) return true;
  }
  return false;
}

/** The floor: claim 10 due targets and mark them published, in a loop, nothing else. */
async function rawLoop(app: App): Promise<void> {
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

async function run(dialect: "sqlite" | "postgres") {
  const workers = dialect === "sqlite" ? 1 : 4;
  const due = Date.now() - 1000;

  const floorDb = await freshApp(dialect);
  await seedQueue(floorDb.app, N, CHANNELS, due);
  await analyze(floorDb.app);
  const loops = [
    floorDb.app,
    ...(await Promise.all(
      Array.from({ length: workers - 1 }, async () =>
        createApp(floorDb.app.config, {
          database: openDatabase(floorDb.url, { poolSize: 2 }),
          log: silentLogger,
        }),
      ),
    )),
  ];
  let t0 = performance.now();
  await Promise.all(loops.map(rawLoop));
  const floorSecs = (performance.now() - t0) / 1000;
  if ((await published(floorDb.app)) !== N) throw new Error("raw loop did not publish everything");
  for (const a of loops) await a.close();
  await floorDb.drop();

  const ours = await freshApp(dialect);
  await seedQueue(ours.app, N, CHANNELS, due);
  await analyze(ours.app);
  const apps = [
    ours.app,
    ...(await Promise.all(
      Array.from({ length: workers - 1 }, async () =>
        createApp(ours.app.config, { database: openDatabase(ours.url, { poolSize: 4 }), log: silentLogger }),
      ),
    )),
  ];
  t0 = performance.now();
  const ws = apps.map((a) => startPublishWorker(a, { adapterFor: () => instant, pollMs: 5 }));
  while (await anyLeft(ours.app)) await Bun.sleep(50);
  const ourSecs = (performance.now() - t0) / 1000;
  if ((await published(ours.app)) !== N) throw new Error("the worker did not publish everything");
  for (const w of ws) await w.stop();
  for (const a of apps) await a.close();
  await ours.drop();

  const rate = N / ourSecs;
  const floor = N / floorSecs;
  console.log(
    `queue-drain ${dialect}: ${Math.round(rate)} targets/s, ratio ${(rate / floor).toFixed(2)} (raw claim-10-and-complete ${Math.round(floor)}/s; ${N} targets, ${CHANNELS} channels, ${workers} worker${workers > 1 ? "s" : ""})`,
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
