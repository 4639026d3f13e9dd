// engagement.collect: reads the targets whose next reading is due through their network's adapter, stores the
// reading, and schedules the next (1 h, 6 h, 1 d, 3 d, 7 d, 30 d after publishing). A failed reading is tried
// again later, at most MAX_FAILURES times, then skipped; nothing here touches the target's publishing state.
import type { App } from "../../app/context.ts";
import { engagementCollecting } from "../../db/sql/engagement-collecting.ts";
import { where } from "../../db/sql/statement.ts";
import type { TargetEngagementTable } from "../../db/tables/engagement.ts";
import { newId } from "../../lib/ids.ts";
import type { EngagementOutcome, PublishedPart } from "../../platforms/adapter.ts";
import { adapterFor } from "../../platforms/adapter-registry.ts";
import { adapterChannel } from "../channels/state.ts";
import { MAX_FAILURES, READING_OFFSETS_MS, readingDueAt, retryAt } from "./schedule.ts";

export const READING_TIMEOUT_MS = 20_000;

export interface CollectCounts {
  read: number;
  failed: number;
  deleted: number;
  unsupported: number;
}

/** The next scheduled reading after one is taken (or skipped). */
function advance(e: TargetEngagementTable, now: number) {
  // This reading stands for every scheduled one already due (after an outage they are not caught up one by one).
  let taken = e.readings + 1;
  while (taken < READING_OFFSETS_MS.length && readingDueAt(e.published_at, taken)! <= now) taken++;
  const next = readingDueAt(e.published_at, taken);
  return { readings: taken, next_read_at: next, state: next === null ? "done" : "collecting" };
}

async function readOne(app: App, e: TargetEngagementTable): Promise<EngagementOutcome | "unsupported"> {
  const adapter = adapterFor(e.provider);
  if (!adapter?.engagement) return "unsupported";
  const target = await app.db
    .selectFrom("post_targets")
    .select(["remote_parts", "livemode"])
    .where("id", "=", e.target_id)
    .executeTakeFirst();
  const parts = target ? (JSON.parse(target.remote_parts) as PublishedPart[]) : [];
  // Marked published by a person without a record on the network: there is nothing to read.
  if (parts.length === 0) return "unsupported";
  const channel = await app.db
    .selectFrom("channels")
    .selectAll()
    .where("id", "=", e.channel_id)
    .executeTakeFirst();
  if (!channel) return { kind: "failed", message: "The channel was deleted." };
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      adapter.engagement(app, {
        targetId: e.target_id,
        livemode: e.livemode === 1,
        channel: await adapterChannel(app, channel),
        signal: controller.signal,
        parts,
      }),
      new Promise<EngagementOutcome>((resolve) => {
        timer = setTimeout(() => {
          controller.abort();
          resolve({ kind: "failed", message: `no answer within ${READING_TIMEOUT_MS / 1000} s` });
        }, READING_TIMEOUT_MS);
      }),
    ]);
  } catch (err) {
    return { kind: "failed", message: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

async function record(app: App, e: TargetEngagementTable, outcome: EngagementOutcome | "unsupported") {
  const now = app.clock.now();
  const base = app.db.updateTable("target_engagement").where("target_id", "=", e.target_id);
  if (outcome === "unsupported") {
    await base.set({ state: "unsupported", next_read_at: null, updated_at: now }).execute();
    return;
  }
  if (outcome.kind === "deleted") {
    await base
      .set({ state: "deleted", next_read_at: null, read_at: now, last_error: null, updated_at: now })
      .execute();
    return;
  }
  if (outcome.kind === "failed") {
    const failures = e.failures + 1;
    const next =
      failures >= MAX_FAILURES
        ? { ...advance(e, now), failures: 0 }
        : { next_read_at: retryAt(now, failures), failures };
    await base.set({ ...next, last_error: outcome.message.slice(0, 500), updated_at: now }).execute();
    return;
  }
  const c = outcome.counts;
  await app.db.transaction().execute(async (tx) => {
    await tx
      .insertInto("engagement_readings")
      .values({ id: newId("engr", now), target_id: e.target_id, org_id: e.org_id, read_at: now, ...c })
      .execute();
    await tx
      .updateTable("target_engagement")
      .set({ ...c, ...advance(e, now), failures: 0, last_error: null, read_at: now, updated_at: now })
      .where("target_id", "=", e.target_id)
      .execute();
  });
}

/** Reads every due target (up to `limit`), `concurrency` at a time. */
export async function collectDue(app: App, limit = 200, concurrency = 8): Promise<CollectCounts> {
  const due = await app.db
    .selectFrom("target_engagement")
    .selectAll()
    .where(where(app.dialect, engagementCollecting, []))
    .where("next_read_at", "<=", app.clock.now())
    .orderBy("next_read_at")
    .limit(limit)
    .execute();
  const counts: CollectCounts = { read: 0, failed: 0, deleted: 0, unsupported: 0 };
  let at = 0;
  const lane = async () => {
    while (at < due.length) {
      const e = due[at++]!;
      const outcome = await readOne(app, e);
      await record(app, e, outcome);
      if (outcome === "unsupported") counts.unsupported++;
      else if (outcome.kind === "counts") counts.read++;
      else if (outcome.kind === "deleted") counts.deleted++;
      else counts.failed++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, due.length) }, lane));
  return counts;
}
