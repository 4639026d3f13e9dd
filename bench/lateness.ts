#!/usr/bin/env bun
import { randomBytes } from "node:crypto";
// lateness: N targets due within the same minute, an adapter that takes 20 ms; p50/p99/max of attempt start minus
// due time, beside the floor an ideal scheduler with the worker's concurrency (10 in flight) would reach on the same
// due times (simulated in the same run). Goal: p99 ≤ 1.25 × floor p99 + 1 s.
// Usage: bun bench/lateness.ts [--quick]
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/app/config.ts";
import { createApp } from "../src/app/context.ts";
import { silentLogger } from "../src/app/log.ts";
import { registerHooks } from "../src/boot.ts";
import { migrate } from "../src/db/migrate.ts";
import type { Adapter } from "../src/platforms/adapter.ts";
import { startPublishWorker } from "../src/queue/publish/worker.ts";
import { seedQueue } from "./seed-queue.ts";

const quick = process.argv.includes("--quick");
const N = quick ? 2_000 : 10_000;
const WINDOW_MS = quick ? 12_000 : 60_000;
const LATENCY_MS = 20;
const IN_FLIGHT = 10;

const url = `sqlite:${join(mkdtempSync(join(tmpdir(), "svc-bench-late-")), "l.db")}`;
registerHooks();
const app = createApp(
  loadConfig({
    SVC_DATABASE_URL: url,
    SVC_MASTER_KEYS: `b:${randomBytes(32).toString("base64")}`,
    SVC_DATA_DIR: tmpdir(),
  }),
  { log: silentLogger },
);
await migrate(app.db, app.dialect);

await seedQueue(app, N, 1000, Date.now() + 3600_000);
const start = Date.now() + 2000;
// Spread the due times over the window.
const targets = await app.db.selectFrom("post_targets").select("id").orderBy("id").execute();
const due = new Map<string, number>();
for (const [i, t] of targets.entries()) due.set(t.id, start + Math.floor((i / targets.length) * WINDOW_MS));
for (let i = 0; i < targets.length; i += 500) {
  await app.db.transaction().execute(async (tx) => {
    for (const t of targets.slice(i, i + 500))
      await tx
        .updateTable("post_targets")
        .set({ next_attempt_at: due.get(t.id)! })
        .where("id", "=", t.id)
        .execute();
  });
}

const slow: Adapter = {
  provider: "sandbox",
  idempotent: false,
  publish: async () => {
    await Bun.sleep(LATENCY_MS);
    return { kind: "published", permalink: null };
  },
};
const worker = startPublishWorker(app, { adapterFor: () => slow });
for (;;) {
  const r = await app.db
    .selectFrom("post_targets")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", "published")
    .executeTakeFirstOrThrow();
  if (Number(r.n) >= N) break;
  await Bun.sleep(200);
}
await worker.stop();

const attempts = await app.db.selectFrom("post_attempts").select(["target_id", "started_at"]).execute();
const late = attempts.map((a) => Number(a.started_at) - due.get(a.target_id)!).sort((a, b) => a - b);

// The floor: an ideal scheduler, IN_FLIGHT slots of LATENCY_MS each, starting every target as soon as it is due
// and a slot is free.
const slots = Array<number>(IN_FLIGHT).fill(0);
const ideal: number[] = [];
for (const d of [...due.values()].sort((a, b) => a - b)) {
  const i = slots.indexOf(Math.min(...slots));
  const s = Math.max(d, slots[i]!);
  slots[i] = s + LATENCY_MS;
  ideal.push(s - d);
}
ideal.sort((a, b) => a - b);
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const goal = 1.25 * pct(ideal, 0.99) + 1000;
console.log(
  `lateness sqlite: p50 ${pct(late, 0.5)} ms, p99 ${pct(late, 0.99)} ms, max ${late[late.length - 1]} ms (floor p50 ${pct(ideal, 0.5)} ms, p99 ${pct(ideal, 0.99)} ms, max ${ideal[ideal.length - 1]} ms; goal p99 ≤ ${goal.toFixed(0)} ms; ${N} targets over ${WINDOW_MS / 1000} s, ${LATENCY_MS} ms adapter, ${IN_FLIGHT} in flight)`,
);
await app.close();
process.exit(0);
