// The publish worker: claims due targets in batches (up to 10 in flight), calls each target's adapter with a
// renewed lease and a timeout, and records outcomes in batches. Woken at once when something becomes due (NOTIFY
// on Postgres, an in-process signal on SQLite), else it polls every 5 s.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { marks, type PendingWrites, pendingWrites, raw } from "../../db/raw.ts";
import { mediaForTarget, type PreparedMedia } from "../../domain/media/publish.ts";
import type { Settlement } from "../../domain/posts/present.ts";
import {
  attempt,
  prepare,
  previousAttemptStart,
  recordSettlements,
  remoteParts,
  savePart,
} from "../../domain/targets/attempt.ts";
import type { Claimed, Finished } from "../../domain/targets/claimed.ts";
import { completeIn, postsOf } from "../../domain/targets/complete.ts";
import { decide } from "../../domain/targets/decide.ts";
import { settle } from "../../domain/targets/settle.ts";
import type { Adapter, PublishedPart, PublishMedia, PublishOutcome } from "../../platforms/adapter.ts";
import { claimIn, LEASE_MS } from "./claim.ts";
import { inStepTx } from "./step-tx.ts";

export const PUBLISH_CHANNEL = "svc_publish";
/** Publishing waits up to 20 minutes for a network that processes video (reference §6), renewing its lease. */
export const VIDEO_TIMEOUT_MS = 20 * 60_000;

export interface PublishWorkerOptions {
  adapterFor: (provider: string) => Adapter | null;
  maxInFlight?: number;
  pollMs?: number;
  timeoutMs?: number;
  /** The deadline of a publish that carries a video (the network processes it). Default 20 minutes. */
  videoTimeoutMs?: number;
  renewMs?: number;
}

export interface PublishWorker {
  wake(): void;
  /** Resolves when nothing is in flight and nothing is waiting to be recorded. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export function startPublishWorker(app: App, opts: PublishWorkerOptions): PublishWorker {
  const max = opts.maxInFlight ?? 10;
  const pollMs = opts.pollMs ?? 5000;
  const timeoutMs = opts.timeoutMs ?? 90_000;
  const videoTimeoutMs = opts.videoTimeoutMs ?? VIDEO_TIMEOUT_MS;
  /**
   * Publishes carrying a video, which mostly wait while the network processes it: they do not count against
   * `max`, so up to 20 minutes of processing never holds back the text and image posts due meanwhile.
   */
  let videos = 0;
  const busy = () => inflight.size - videos;
  const renewMs = opts.renewMs ?? 60_000;
  let stopped = false;
  let wakeUp: (() => void) | null = null;
  let woken = false;
  const inflight = new Set<Promise<void>>();
  /** Targets being published now, whose leases (and channel locks) the worker renews together. */
  const publishing = new Set<string>();
  let pending: Finished[] = [];
  /** How uncertain attempts were settled, by attempt ID: written with their outcomes, in the step recording them. */
  const settlements = new Map<string, Settlement>();

  /** Waits `ms`, or less when the worker is stopping (then false). */
  const stopping = new Set<() => void>();
  const pause = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        stopping.delete(interrupt);
        resolve(true);
      }, ms);
      const interrupt = () => {
        clearTimeout(timer);
        resolve(false);
      };
      stopping.add(interrupt);
    });

  const wake = () => {
    woken = true;
    wakeUp?.();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken) {
        woken = false;
        return resolve();
      }
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        woken = false;
        resolve();
      }
      wakeUp = done;
    });

  async function runOne(c: Claimed, synced: Promise<void>): Promise<void> {
    const adapter = opts.adapterFor(c.channel.provider);
    let outcome: PublishOutcome | { kind: "error"; message: string };
    const unsynced = await synced.then(
      () => null,
      (e: unknown) => String(e),
    );
    if (unsynced !== null) {
      // The attempt row might not outlive a power loss: publishing now could publish twice. Nothing was sent.
      outcome = { kind: "transient", message: `attempt_not_durable: ${unsynced}` };
    } else if (!adapter) {
      outcome = {
        kind: "rejected",
        code: "provider_unsupported",
        message: `No adapter publishes to ${c.channel.provider}.`,
      };
    } else {
      // A post without media (the claim says so) costs no media query.
      const media: PreparedMedia = !c.hasMedia
        ? { ok: true, media: [], video: false }
        : await mediaForTarget(app, c.target.post_id, c.channel).catch(
            (e): PreparedMedia => ({ ok: false, code: "media_unreadable", message: String(e) }),
          );
      if (!media.ok) outcome = { kind: "rejected", code: media.code, message: media.message };
      else if (media.video) {
        videos++;
        wake(); // room for another claim
        try {
          outcome = await publishOrSettle(c, adapter, videoTimeoutMs, media.media);
        } finally {
          videos--;
        }
      } else outcome = await publishOrSettle(c, adapter, timeoutMs, media.media);
    }
    pending.push({
      claimed: c,
      decision: decide(outcome, c.target, adapter?.idempotent ?? false, app.clock.now()),
    });
  }

  /** The adapter call, and the settling of an uncertain outcome where the adapter can look for the post. */
  async function publishOrSettle(
    c: Claimed,
    adapter: Adapter,
    deadlineMs: number,
    media: PublishMedia[],
  ): Promise<PublishOutcome | { kind: "error"; message: string }> {
    const prepared = await prepare(app, c, media);
    if ("outcome" in prepared) return prepared.outcome;
    const input = prepared.input;
    const common = {
      app,
      adapter,
      publish: input,
      done: () => remoteParts(app, c.target.id),
      save: (part: PublishedPart) => savePart(app, c.target.id, part),
      wait: (ms: number) => pause(ms),
    };
    // A worker died publishing this target to a network that does not dedupe: look for the post before sending
    // it again (its window has long passed: the reclaimer waited for the lease to expire).
    if (c.target.error_code === "worker_lost" && adapter.find && !adapter.idempotent) {
      const settled = await settle({
        ...common,
        startedAt: await previousAttemptStart(app, c),
        uncertain: "The worker publishing it stopped mid-publish (worker_lost).",
      });
      if (settled.settlement.decision !== "not_found") {
        settlements.set(c.attemptId, settled.settlement);
        return settled.outcome;
      }
      settlements.set(c.attemptId, {
        ...settled.settlement,
        detail: "Not on the network after the lost attempt: sent again.",
      });
    }
    const startedAt = app.clock.now();
    const outcome = await attempt(app, c, adapter, deadlineMs, input);
    if (outcome.kind !== "uncertain" || !adapter.find || stopped) return outcome;
    const settled = await settle({ ...common, startedAt, uncertain: outcome.message });
    settlements.set(c.attemptId, settled.settlement);
    return settled.outcome;
  }

  /** Records a batch's outcomes, and the settlements of its uncertain attempts, in the caller's transaction. */
  async function record(tx: Tx, batch: Finished[], postsLocked: boolean, writes?: PendingWrites) {
    await completeIn(tx, app, batch, writes, postsLocked);
    await recordSettlements(tx, app.dialect, batch, settlements);
  }
  /** After the commit: the batch's settlements are on their rows. */
  const recorded = (batch: Finished[]) => {
    for (const f of batch) settlements.delete(f.claimed.attemptId);
  };

  /**
   * One step: record the outcomes that came in and claim what the freed room allows, in one transaction (one
   * commit, and the freed channels are claimable at once). The claimed attempt rows are committed before any
   * adapter is called.
   */
  async function step(): Promise<Claimed[] | null> {
    const batch = pending;
    pending = [];
    const free = max - busy();
    if (batch.length === 0 && free <= 0) return [];
    try {
      const claimed = await inStepTx(
        app,
        async (tx, postsLocked) => {
          // On Postgres the outcomes' post and event writes travel with the claim: one round trip less a step.
          const pending = app.dialect === "postgres" && free > 0 ? pendingWrites() : undefined;
          await record(tx, batch, postsLocked, pending);
          return free > 0 ? claimIn(tx, app, free, undefined, pending) : [];
        },
        postsOf(batch),
      );
      recorded(batch);
      return claimed;
    } catch (e) {
      // The database is unreachable (or a claim lost a race): keep the outcomes and try again; if it stays down
      // past the lease, the reclaimer decides (needs_attention, never a blind retry).
      app.log.error("publish step failed; retrying", { error: String(e), outcomes: batch.length });
      pending = [...batch, ...pending];
      return null;
    }
  }

  // One timer renews every lease this worker holds, in one statement per table, instead of a timer per target.
  // One renewal at a time: on Postgres two could run on two connections, and the older one, waiting on the newer
  // one's row locks, would then write its earlier lease over the newer.
  let renewing = false;
  const renewal = setInterval(() => {
    if (publishing.size === 0 || renewing) return;
    renewing = true;
    renewLeases(app, [...publishing])
      .catch((e) => app.log.warn("lease renewal failed", { targets: publishing.size, error: String(e) }))
      .finally(() => {
        renewing = false;
      });
  }, renewMs);

  const loop = (async () => {
    const offSignal = app.signals.on("publish", wake);
    const unlisten = await app.listen(PUBLISH_CHANNEL, wake).catch(() => async () => {});
    while (!stopped) {
      const free = max - busy();
      const claimed = await step();
      if (claimed === null) {
        await sleep(1000);
        continue;
      }
      // The claim's attempt rows must be on disk before any adapter is called (never twice, even after a power
      // loss); the sync runs off the event loop while the next step goes on, and covers the whole batch.
      const synced = claimed.length ? app.syncWrites() : Promise.resolve();
      for (const c of claimed) {
        publishing.add(c.target.id);
        const p: Promise<void> = runOne(c, synced)
          .catch((e) => app.log.error("publish run failed", { target: c.target.id, error: String(e) }))
          .finally(() => {
            inflight.delete(p);
            publishing.delete(c.target.id);
            wake();
          });
        inflight.add(p);
      }
      if (pending.length) continue; // outcomes came in meanwhile: record them now
      if (busy() >= max) await sleep(pollMs);
      else if (claimed.length < free) {
        // Nothing more is due now: sleep until the next target is due (or a wake-up, or the poll interval).
        // A target already due that could not be claimed waits on something else (its channel busy, held or
        // inactive): a finishing publish wakes us, else the poll does.
        const next = await nextDueAt(app).catch(() => null);
        const now = app.clock.now();
        const wait = next === null || next <= now ? pollMs : Math.min(pollMs, next - now);
        await sleep(wait);
      }
    }
    offSignal();
    await unlisten();
  })();

  /** Records what is left when the loop no longer runs (stop). */
  async function drainPending(): Promise<void> {
    for (let i = 0; pending.length && i < 30; i++) {
      const batch = pending;
      pending = [];
      try {
        if (batch.length) await inStepTx(app, (tx, locked) => record(tx, batch, locked), postsOf(batch));
        recorded(batch);
      } catch (e) {
        app.log.error("recording publish outcomes failed; retrying", {
          error: String(e),
          count: batch.length,
        });
        pending = [...batch, ...pending];
        await Bun.sleep(1000);
      }
    }
  }

  return {
    wake,
    async idle() {
      while (inflight.size || pending.length) {
        await Promise.allSettled([...inflight]);
        wake();
        await Bun.sleep(2);
      }
    },
    async stop() {
      stopped = true;
      for (const interrupt of stopping) interrupt();
      stopping.clear();
      wake();
      await loop;
      await Promise.race([Promise.allSettled([...inflight]), Bun.sleep(45_000)]);
      clearInterval(renewal);
      await drainPending();
    },
  };
}

// The status is written out, not a parameter: SQLite uses the partial due index only when the query says so.
export const NEXT_DUE =
  "SELECT next_attempt_at FROM post_targets WHERE status = 'queued' ORDER BY next_attempt_at LIMIT 1";

/** When the earliest queued target falls due (null when none is queued). */
async function nextDueAt(app: App): Promise<number | null> {
  const r = await raw<{ next_attempt_at: number }>(app.db, app.dialect, NEXT_DUE, []);
  return r[0]?.next_attempt_at ?? null;
}

/** Extends the leases of targets still being published by this worker, and their channels' locks. */
export async function renewLeases(app: App, targetIds: string[]): Promise<void> {
  const until = app.clock.now() + LEASE_MS;
  await app.db.transaction().execute(async (tx) => {
    await raw(
      tx,
      app.dialect,
      `UPDATE post_targets SET leased_until = ? WHERE id IN (${marks(targetIds.length)}) AND status = 'publishing' AND lease_owner = ?`,
      [until, ...targetIds, app.instanceId],
    );
    await raw(
      tx,
      app.dialect,
      `UPDATE channel_locks SET leased_until = ? WHERE target_id IN (${marks(targetIds.length)})`,
      [until, ...targetIds],
    );
  });
}
