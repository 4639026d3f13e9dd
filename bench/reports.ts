// GET /v1/reports for one month of a brand with 100,000 published targets over two years and 600,000 engagement
// readings, beside the floor: the same aggregates (published per network and period, distinct posts per period,
// engagement per hour of the month, the top 5 posts and their targets) in hand-written SQL, run straight on the
// database's own driver (bun:sqlite, pg) on the same database, in the same run. Goals: the report ≤ 2× the floor,
// p95 ≤ 250 ms on SQLite. Ad and web-analytics rows are seeded only where their tables exist.
// Run: bun bench/reports.ts [--quick] [--postgres]   (--postgres: a throwaway database on the local Postgres)
//   prints `reports (<dialect>): report p50 … p95 …, floor p50 … p95 …, ratio R`
import { Database as Sqlite } from "bun:sqlite";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { loadConfig } from "../src/app/config.ts";
import { createApp } from "../src/app/context.ts";
import { silentLogger } from "../src/app/log.ts";
import { registerHooks } from "../src/boot.ts";
import { openDatabase } from "../src/db/index.ts";
import { migrate } from "../src/db/migrate.ts";
import { adminActor } from "../src/domain/actor.ts";
import { bootstrap } from "../src/domain/bootstrap/service.ts";
import { createApiKey } from "../src/domain/identity/api-keys/service.ts";
import { scopesOfRole } from "../src/domain/scopes.ts";
import { createHttp } from "../src/http/server.ts";
import { FakeClock } from "../src/lib/clock.ts";
import { type PublishedItem, seedPublished } from "../test/helpers/published.ts";

const quick = process.argv.includes("--quick");
const usePg = process.argv.includes("--postgres");
const TARGETS = quick ? 20_000 : 100_000;
const READINGS_PER_TARGET = 6;
const RUNS = quick ? 20 : 60;
const PG_BASE = process.env.SVC_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

let databaseUrl: string;
let dropPg: (() => Promise<void>) | null = null;
if (usePg) {
  const name = `svc_bench_reports_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(PG_BASE);
  u.pathname = `/${name}`;
  databaseUrl = u.toString();
  dropPg = async () => {
    const c = new pg.Client({ connectionString: PG_BASE });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  };
} else databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), "svc-bench-")), "bench.db")}`;

const clock = new FakeClock(Date.parse("2026-04-10T12:00:00Z"));
const database = openDatabase(databaseUrl);
await migrate(database.db, database.dialect);
registerHooks();
const app = createApp(
  loadConfig({
    SVC_DATABASE_URL: databaseUrl,
    SVC_MASTER_KEYS: `k1:${randomBytes(32).toString("base64")}`,
    SVC_DATA_DIR: tmpdir(),
    SVC_BASE_URL: "https://svc.example.com",
  }),
  { database, log: silentLogger, clock },
);
const http = createHttp(app);

const b = await bootstrap(app, {
  email: "owner@example.com",
  org: "Bench",
  brand: "Bench Brand",
  password: "correct horse battery staple",
});
const key = (
  await createApiKey(app, adminActor(b.org.id, "apikeys create", scopesOfRole("owner")), { name: "bench" })
).secret!;
const TZ = "Europe/Berlin";
await app.db.updateTable("brands").set({ timezone: TZ }).where("id", "=", b.brand.id).execute();

// ── Seed: two years of published targets, each with six readings ───────────────────────────────────────────────
const seedStarted = performance.now();
const END = clock.now();
const START = END - 2 * 365 * 86400_000;
let s = 42;
const rnd = () => {
  s = (s * 1103515245 + 12345) % 2147483648;
  return s / 2147483648;
};
const PROVIDERS = ["bluesky", "mastodon", "linkedin", "threads", "x"];
const items: PublishedItem[] = [];
for (let i = 0; i < TARGETS; i++) {
  const same = i > 0 && rnd() < 0.3;
  items.push({
    publishedAt: same ? items[i - 1]!.publishedAt : Math.floor(START + ((END - START) * i) / TARGETS),
    provider: PROVIDERS[Math.floor(rnd() * PROVIDERS.length)]!,
    text: `Bench post ${i}: a line of text of the usual length for a social post, with a link to the shop.`,
    likes: Math.floor(rnd() * 200),
    reposts: Math.floor(rnd() * 30),
    replies: Math.floor(rnd() * 20),
    quotes: Math.floor(rnd() * 5),
    views: rnd() < 0.5 ? null : Math.floor(rnd() * 5000),
    readings: READINGS_PER_TARGET,
    samePost: same,
  });
}
await seedPublished(app, { orgId: b.org.id, brandId: b.brand.id, livemode: false }, items, 1000);
const tables = usePg
  ? (
      await database.db
        .selectFrom("information_schema.tables" as never)
        .select("table_name" as never)
        .execute()
    ).map((r) => (r as { table_name: string }).table_name)
  : (
      await database.db
        .selectFrom("sqlite_master" as never)
        .select("name" as never)
        .execute()
    ).map((r) => (r as { name: string }).name);
const adsTables = tables.filter((t) => /^ad_|^analytics_/.test(t));
const counts = await Promise.all(
  ["post_targets", "target_engagement", "engagement_readings"].map(async (t) =>
    Number(
      (
        await database.db
          .selectFrom(t as never)
          .select((e) => e.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  ),
);
console.log(
  `seeded ${counts[0]} published targets, ${counts[2]} readings in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s; ` +
    (adsTables.length
      ? `ad/analytics tables present (${adsTables.join(", ")}) but this bench seeds none of them yet`
      : "no ad or analytics tables in this build: none seeded"),
);
if (usePg)
  await database.db
    .executeQuery({ sql: "ANALYZE", parameters: [], query: { kind: "RawNode" } } as never)
    .catch(() => {});

// ── The floor: the same aggregates, hand-written, on the database's own driver ──────────────────────────────────
const SINCE = Date.parse("2026-02-28T23:00:00Z"); // March 2026 in Berlin
const UNTIL = Date.parse("2026-03-31T22:00:00Z");
const PREV = SINCE - (UNTIL - SINCE);
const FLOOR_SQL = {
  networks: `SELECT t.provider, t.published_at >= ?1 AS cur, COUNT(*) AS n, SUM(t.likes) AS l, SUM(t.reposts) AS r,
    SUM(t.replies) AS p, SUM(t.quotes) AS q, SUM(t.views) AS v
    FROM target_engagement t JOIN posts p ON p.id = t.post_id
    WHERE t.org_id = ?2 AND t.livemode = 0 AND t.published_at >= ?3 AND t.published_at < ?4 AND p.brand_id = ?5
    GROUP BY t.provider, cur`,
  posts: `SELECT t.published_at >= ?1 AS cur, COUNT(DISTINCT t.post_id) AS n
    FROM target_engagement t JOIN posts p ON p.id = t.post_id
    WHERE t.org_id = ?2 AND t.livemode = 0 AND t.published_at >= ?3 AND t.published_at < ?4 AND p.brand_id = ?5
    GROUP BY cur`,
  hours: `SELECT t.published_at / 3600000 AS h, COUNT(*) AS n, SUM(t.likes + t.reposts + t.replies + t.quotes) AS e
    FROM target_engagement t JOIN posts p ON p.id = t.post_id
    WHERE t.org_id = ?1 AND t.livemode = 0 AND t.published_at >= ?2 AND t.published_at < ?3 AND p.brand_id = ?4
    GROUP BY h`,
  top: `SELECT t.post_id, SUM(t.likes + t.reposts + t.replies + t.quotes) AS e
    FROM target_engagement t JOIN posts p ON p.id = t.post_id
    WHERE t.org_id = ?1 AND t.livemode = 0 AND t.published_at >= ?2 AND t.published_at < ?3 AND p.brand_id = ?4
    GROUP BY t.post_id ORDER BY e DESC, t.post_id LIMIT 5`,
  topTargets: (n: number) =>
    `SELECT id, post_id, provider, channel_name, parts, permalink FROM post_targets
    WHERE post_id IN (${Array.from({ length: n }, (_, i) => `?${i + 1}`).join(", ")}) AND status = 'published'`,
};
const pgText = (q: string) =>
  q
    .replace(/\?(\d+)/g, "$$$1")
    .replace(/GROUP BY t\.provider, cur/, "GROUP BY 1, 2")
    .replace(/GROUP BY cur/, "GROUP BY 1")
    .replace(/GROUP BY h/, "GROUP BY 1");
let floor: () => Promise<unknown>;
let closeFloor = async () => {};
if (usePg) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  closeFloor = () => pool.end();
  floor = async () => {
    const org = b.org.id;
    const brand = b.brand.id;
    const [, , , top] = await Promise.all([
      pool.query(pgText(FLOOR_SQL.networks), [SINCE, org, PREV, UNTIL, brand]),
      pool.query(pgText(FLOOR_SQL.posts), [SINCE, org, PREV, UNTIL, brand]),
      pool.query(pgText(FLOOR_SQL.hours), [org, SINCE, UNTIL, brand]),
      pool.query(pgText(FLOOR_SQL.top), [org, SINCE, UNTIL, brand]),
    ]);
    const ids = top.rows.map((r) => r.post_id);
    return pool.query(pgText(FLOOR_SQL.topTargets(ids.length)), ids);
  };
} else {
  const db = new Sqlite(databaseUrl.slice("sqlite:".length), { readonly: true });
  closeFloor = async () => db.close();
  const q = {
    networks: db.query(FLOOR_SQL.networks),
    posts: db.query(FLOOR_SQL.posts),
    hours: db.query(FLOOR_SQL.hours),
    top: db.query(FLOOR_SQL.top),
  };
  floor = async () => {
    const org = b.org.id;
    const brand = b.brand.id;
    q.networks.all(SINCE, org, PREV, UNTIL, brand);
    q.posts.all(SINCE, org, PREV, UNTIL, brand);
    q.hours.all(org, SINCE, UNTIL, brand);
    const ids = (q.top.all(org, SINCE, UNTIL, brand) as { post_id: string }[]).map((r) => r.post_id);
    return db.query(FLOOR_SQL.topTargets(ids.length)).all(...ids);
  };
}

// ── The report through the whole HTTP pipeline (credential, rate limit, request log, JSON) ──────────────────────
const report = async () => {
  // The fake clock moves a second per request, so the key's rate limit (25/s) refills as it would in real time.
  clock.advance(1000);
  const res = await http.handle(
    new Request(`http://localhost/v1/reports?brand=${b.brand.id}&month=2026-03`, {
      headers: { authorization: `Bearer ${key}` },
    }),
  );
  if (res.status !== 200) throw new Error(`report answered ${res.status}: ${await res.text()}`);
  return res.json();
};
const first = (await report()) as { sections: { posts: { posts: { value: number } } } };
console.log(`the March report counts ${first.sections.posts.posts.value} posts`);

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, c) => a - c)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
async function time(fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 5; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}
// Interleaved halves, so neither side gets the quieter half of the run.
const reportMs = [...(await time(report))];
const floorMs = [...(await time(floor))];
reportMs.push(...(await time(report)));
floorMs.push(...(await time(floor)));

const ratio = pct(reportMs, 0.5) / pct(floorMs, 0.5);
const dialect = usePg ? "postgres" : "sqlite";
console.log(
  `reports (${dialect}): report p50 ${pct(reportMs, 0.5).toFixed(1)} ms p95 ${pct(reportMs, 0.95).toFixed(1)} ms, ` +
    `floor p50 ${pct(floorMs, 0.5).toFixed(1)} ms p95 ${pct(floorMs, 0.95).toFixed(1)} ms, ratio ${ratio.toFixed(2)} ` +
    `(goal ≤ 2${ratio <= 2 ? "" : ", MISSED"})` +
    (usePg ? "" : `; p95 goal ≤ 250 ms${pct(reportMs, 0.95) <= 250 ? "" : " MISSED"}`),
);
await closeFloor();
await http.ctx.requestLog.flush();
await app.close();
if (dropPg) await dropPg();
