#!/usr/bin/env bun
// refresh: N sign-in channels whose tokens expire within the week, renewed by channels.refresh (renewDueTokens:
// a lock on each channel row, the token request, the rotated tokens sealed and stored in the same transaction)
// against a local token endpoint that rotates refresh tokens and refuses a reused one; beside a raw loop doing the
// same HTTP calls and row updates (plain fetch, tokens in the clear, no lock, no sealing) on the same data, in the
// same run. Prints channels renewed per second, the ratio (target >= 0.5), and how many refresh tokens were sent
// twice (must be 0). Meanwhile the real publish worker publishes sandbox targets due during the run: their
// lateness p99 (goal <= 1 s) says whether renewals hold publishing up.
// Usage: bun bench/refresh.ts [--quick] [--sqlite-only | --postgres-only]
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { loadConfig } from "../src/app/config.ts";
import { type App, createApp } from "../src/app/context.ts";
import { silentLogger } from "../src/app/log.ts";
import { registerHooks } from "../src/boot.ts";
import { openDatabase } from "../src/db/index.ts";
import { migrate } from "../src/db/migrate.ts";
import { adminActor } from "../src/domain/actor.ts";
import { createApp as createDeveloperApp } from "../src/domain/apps/create.ts";
import { bootstrap } from "../src/domain/bootstrap/service.ts";
import { openSecrets, sealSecrets } from "../src/domain/channels/fields.ts";
import { renewDueTokens } from "../src/domain/connect/renew.ts";
import { scopesOfRole } from "../src/domain/scopes.ts";
import { newId } from "../src/lib/ids.ts";
import type { Adapter } from "../src/platforms/adapter.ts";
import { startPublishWorker } from "../src/queue/publish/worker.ts";
import { freshDatabase } from "./fresh-database.ts";
import { seedQueue } from "./seed-queue.ts";

const quick = process.argv.includes("--quick");
const N = quick ? 1000 : 10_000;
const DAY = 24 * 3600_000;
/** Targets published beside the renewals, and the span their due times cover from the start of the run. */
const LATE_N = quick ? 300 : 1000;
const LATE_WINDOW_MS = quick ? 2_000 : 8_000;

/**
 * A token endpoint that rotates: each refresh token works once; a reused one is counted and refused. It runs in a
 * process of its own (`--endpoint`), as a network's server would: the worker's requests wait on it, not share its
 * thread. POST /issue?n= hands out new refresh tokens (the seed); GET /counts says what it granted and refused.
 */
function serveEndpoint() {
  const valid = new Set<string>();
  let reused = 0;
  let granted = 0;
  const issue = () => {
    const t = randomBytes(24).toString("base64url");
    valid.add(t);
    return t;
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname === "/issue")
        return Response.json(Array.from({ length: Number(url.searchParams.get("n") ?? 1) }, issue));
      if (url.pathname === "/counts") return Response.json({ reused, granted });
      const form = new URLSearchParams(await req.text());
      const rt = form.get("refresh_token") ?? "";
      if (!valid.delete(rt)) {
        reused++;
        return Response.json({ error: "invalid_grant" }, { status: 400 });
      }
      granted++;
      return Response.json({
        access_token: randomBytes(24).toString("base64url"),
        refresh_token: issue(),
        token_type: "bearer",
        // A month: a renewed channel leaves the 7-day window.
        expires_in: 30 * 24 * 3600,
        scope: "tweet.read tweet.write users.read media.write offline.access",
      });
    },
  });
  process.stdout.write(`${server.port}\n`);
}

async function tokenEndpoint() {
  const proc = Bun.spawn(["bun", import.meta.path, "--endpoint"], { stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  const url = `http://127.0.0.1:${new TextDecoder().decode(value).trim()}`;
  return {
    url,
    issue: async (n: number) =>
      (await (await fetch(`${url}/issue?n=${n}`, { method: "POST" })).json()) as string[],
    counts: async () => (await (await fetch(`${url}/counts`)).json()) as { reused: number; granted: number },
    stop: () => proc.kill(),
  };
}

async function freshApp(dialect: "sqlite" | "postgres", origin: string) {
  const { url, drop } = await freshDatabase(dialect, "r");
  const config = loadConfig({
    SVC_DATABASE_URL: url,
    SVC_MASTER_KEYS: `b:${randomBytes(32).toString("base64")}`,
    SVC_DATA_DIR: tmpdir(),
    SVC_PROVIDER_ORIGINS: `x.auth=${origin},x.token=${origin}`,
    SVC_ALLOW_PRIVATE_NETWORKS: "true",
  });
  const database = openDatabase(url, { poolSize: 4 });
  await migrate(database.db, dialect);
  registerHooks();
  return { app: createApp(config, { database, log: silentLogger }), drop };
}

/** N live X channels connected through one developer app, their tokens expiring in three days. */
async function seed(app: App, ep: Awaited<ReturnType<typeof tokenEndpoint>>): Promise<string[]> {
  const b = await bootstrap(app, { email: "bench@example.com", org: "Bench", brand: "Bench" });
  const actor = adminActor(b.org.id, "bench", scopesOfRole("owner"), true);
  const devApp = await createDeveloperApp(app, actor, {
    provider: "x",
    name: "Bench",
    client_id: "bench-client",
    client_secret: "bench-secret",
  });
  const ids: string[] = [];
  const now = Date.now();
  for (let i = 0; i < N; i += 500) {
    const issued = await ep.issue(Math.min(N, i + 500) - i);
    await app.db.transaction().execute(async (tx) => {
      for (let j = i; j < Math.min(N, i + 500); j++) {
        const id = newId("chan");
        ids.push(id);
        await tx
          .insertInto("channels")
          .values({
            id,
            org_id: b.org.id,
            brand_id: b.brand.id,
            livemode: 1,
            provider: "x",
            emulates: null,
            display_name: `Bench ${j}`,
            handle: null,
            profile_url: null,
            settings: "{}",
            secrets: await sealSecrets(tx, app, b.org.id, id, {
              access_token: "a",
              refresh_token: issued[j - i]!,
            }),
            status: "active",
            status_note: null,
            checked_at: now,
            check_error: null,
            rate_limited_until: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await tx
          .insertInto("channel_grants")
          .values({
            channel_id: id,
            org_id: b.org.id,
            provider: "x",
            app_id: devApp.id,
            account_key: String(j),
            token_expires_at: now + 3 * DAY,
            refreshed_at: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
    });
  }
  return ids;
}

async function run(dialect: "sqlite" | "postgres") {
  const ep = await tokenEndpoint();
  const { app, drop } = await freshApp(dialect, ep.url);
  try {
    const ids = await seed(app, ep);
    // svc: channels.refresh as the task runs it, in batches of 500, until nothing is due.
    let cpu0 = process.cpuUsage();
    let t0 = performance.now();
    let renewed = 0;
    for (;;) {
      const c = await renewDueTokens(app, 500);
      renewed += c.renewed;
      if (c.renewed + c.refused + c.unavailable === 0) break;
    }
    const svcSeconds = (performance.now() - t0) / 1000;
    const svcCpu = process.cpuUsage(cpu0);
    let afterSvc = await ep.counts();

    // The raw loop on the same channels: current refresh tokens read (untimed), the expiry set back, then the same
    // HTTP call and two row updates per channel.
    const tokens = new Map<string, string>();
    for (const id of ids) {
      const row = await app.db
        .selectFrom("channels")
        .select(["id", "org_id", "secrets"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      tokens.set(id, (await openSecrets(app, row)).refresh_token!);
    }
    await app.db
      .updateTable("channel_grants")
      .set({ token_expires_at: Date.now() + 3 * DAY })
      .execute();
    cpu0 = process.cpuUsage();
    t0 = performance.now();
    const basic = `Basic ${btoa("bench-client:bench-secret")}`;
    for (const id of ids) {
      const res = await fetch(`${ep.url}/2/oauth2/token`, {
        method: "POST",
        headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.get(id)! }),
      });
      const j = (await res.json()) as { access_token: string; refresh_token: string; expires_in: number };
      const now = Date.now();
      await app.db
        .updateTable("channels")
        .set({
          secrets: JSON.stringify({ access_token: j.access_token, refresh_token: j.refresh_token }),
          updated_at: now,
        })
        .where("id", "=", id)
        .execute();
      await app.db
        .updateTable("channel_grants")
        .set({ token_expires_at: now + j.expires_in * 1000, refreshed_at: now })
        .where("channel_id", "=", id)
        .execute();
    }
    const rawSeconds = (performance.now() - t0) / 1000;
    const rawCpu = process.cpuUsage(cpu0);
    const perOp = (c: NodeJS.CpuUsage) => ((c.user + c.system) / 1000 / N).toFixed(2);
    // Third pass, not timed against the raw loop: the same renewals again (expiries set back) while the real
    // publish worker publishes targets due meanwhile. The raw loop stored its tokens in the clear: sealed again first.
    for (let i = 0; i < ids.length; i += 500) {
      await app.db.transaction().execute(async (tx) => {
        const rows = await tx
          .selectFrom("channels")
          .select(["id", "org_id", "secrets"])
          .where("id", "in", ids.slice(i, i + 500))
          .execute();
        for (const r of rows)
          await tx
            .updateTable("channels")
            .set({ secrets: await sealSecrets(tx, app, r.org_id, r.id, JSON.parse(r.secrets!)) })
            .where("id", "=", r.id)
            .execute();
      });
    }
    await app.db
      .updateTable("channel_grants")
      .set({ token_expires_at: Date.now() + 3 * DAY })
      .execute();
    // Publishing beside the renewals: LATE_N sandbox targets due over the first LATE_WINDOW_MS of the run, published by the
    // real worker (an adapter that takes 20 ms) while channels.refresh runs; lateness = attempt start - due time.
    await seedQueue(app, LATE_N, 50, Date.now() + 3600_000);
    const late0 = Date.now() + 500;
    const targets = await app.db.selectFrom("post_targets").select("id").orderBy("id").execute();
    const due = new Map(
      targets.map((t, i) => [t.id, late0 + Math.floor((i / targets.length) * LATE_WINDOW_MS)]),
    );
    await app.db.transaction().execute(async (tx) => {
      for (const t of targets)
        await tx
          .updateTable("post_targets")
          .set({ next_attempt_at: due.get(t.id)! })
          .where("id", "=", t.id)
          .execute();
    });
    const slow: Adapter = {
      provider: "sandbox",
      idempotent: false,
      publish: async () => {
        await Bun.sleep(20);
        return { kind: "published", permalink: null };
      },
    };
    const worker = startPublishWorker(app, { adapterFor: () => slow });
    const t2 = performance.now();
    for (;;) {
      const c = await renewDueTokens(app, 500);
      if (c.renewed + c.refused + c.unavailable === 0) break;
    }
    const busySeconds = (performance.now() - t2) / 1000;
    for (let i = 0; i < 600; i++) {
      const r = await app.db
        .selectFrom("post_targets")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("status", "=", "published")
        .executeTakeFirstOrThrow();
      if (Number(r.n) >= LATE_N) break;
      await Bun.sleep(100);
    }
    await worker.stop();
    const attempts = await app.db.selectFrom("post_attempts").select(["target_id", "started_at"]).execute();
    const late = attempts.map((a) => Number(a.started_at) - due.get(a.target_id)!).sort((a, b) => a - b);
    const p99 = late[Math.min(late.length - 1, Math.floor(late.length * 0.99))] ?? Number.NaN;
    afterSvc = await ep.counts();
    const svcRate = renewed / svcSeconds;
    const rawRate = N / rawSeconds;
    console.log(
      `refresh (${dialect}, ${N} channels): svc ${svcRate.toFixed(0)}/s, raw ${rawRate.toFixed(0)}/s, ratio ${(svcRate / rawRate).toFixed(2)} (target >= 0.5); renewed ${renewed}; refresh tokens sent twice: ${afterSvc.reused}; publishing meanwhile: ${late.length} targets, lateness p99 ${p99} ms (goal <= 1000), refresh ran ${busySeconds.toFixed(1)} s; CPU ms per channel: svc ${perOp(svcCpu)}, raw ${perOp(rawCpu)}`,
    );
  } finally {
    await app.close();
    await drop();
    ep.stop();
  }
}

if (process.argv.includes("--endpoint")) serveEndpoint();
else {
  if (!process.argv.includes("--postgres-only")) await run("sqlite");
  if (!process.argv.includes("--sqlite-only")) await run("postgres");
  process.exit(0);
}
