// The publish worker: claims due targets in batches (up to 10 in flight for one org, 2 more kept for the others:
// share.ts), publishes each (domain/targets/publish.ts) with a renewed lease and a deadline, and records outcomes
// in batches, each with the next claim.
// Woken at once when something becomes due (NOTIFY on Postgres, an in-process signal on SQLite), else it polls
// every 5 s.

import type { App } from "../../app/context.ts";
import type { PublishMetricOutcome } from "../../app/telemetry.ts";
import type { Tx } from "../../db/index.ts";
import { type PendingWrites, pendingWrites, raw } from "../../db/raw.ts";
import type { Settlement } from "../../domain/posts/present.ts";
import { recordSettlements } from "../../domain/targets/attempt.ts";
import type { Claimed, Finished } from "../../domain/targets/claimed.ts";
import { completeIn, postsOf } from "../../domain/targets/complete.ts";
import { type PublishRun, publishClaimed, unsent, VIDEO_TIMEOUT_MS } from "../../domain/targets/publish.ts";
import type { Adapter } from "../../platforms/adapter.ts";
import { claimIn } from "./claim.ts";
import { renewEvery } from "./lease.ts";
import type { OrgShare } from "./share.ts";
import { inStepTx } from "./step-tx.ts";
import { Pauses, Wakeup } from "./wakeup.ts";

export const PUBLISH_CHANNEL = "svc_publish";

export interface PublishWorkerOptions {
  adapterFor: (provider: string) => Adapter | null;
  /** Publishes in flight for any one org (reference §6: 10). */
  maxInFlight?: number;
  /**
   * Slots beyond maxInFlight that only orgs below it may take (default 2): while one org's servers are slow and
   * its publishes hold maxInFlight slots, another org's due post still starts at once (share.ts).
   */
  reservedForOthers?: number;
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
  const perOrg = opts.maxInFlight ?? 10;
  /** Slots in all: one org's maxInFlight and the ones kept for the others. */
  const max = perOrg + (opts.reservedForOthers ?? 2);
  const pollMs = opts.pollMs ?? 5000;
  const wakeup = new Wakeup();
  const wake = () => wakeup.wake();
  const pauses = new Pauses();
  let stopped = false;
  const inflight = new Set<Promise<void>>();
  /** Targets being published now, whose leases (and channel locks) the worker renews together. */
  const publishing = new Set<string>();
  let pending: Finished[] = [];
  /**
   * Publishes carrying a video, which mostly wait while the network processes it: they do not count against
   * `max`, so up to 20 minutes of processing never holds back the text and image posts due meanwhile.
   */
  let videos = 0;
  const busy = () => inflight.size - videos;
  /** Each org's publishes holding a slot now (videos hold none): the claim shares slots by it (share.ts). */
  const byOrg = new Map<string, number>();
  const share: OrgShare = { inFlight: byOrg, perOrg };
  const atShare = () => {
    for (const n of byOrg.values()) if (n >= perOrg) return true;
    return false;
  };
  /**
   * Whether another org may have something due while an org holds its share: the room left is then only theirs,
   * and looking into it costs a claim. It opens when a post for now is signalled, when a publish of an org not at
   * its share ends, and when the poll interval passes; a look closes it. So a lone org at its share costs no
   * claims, and another org's post still starts at once.
   */
  let othersMayBeDue = true;
  /** When the worker last looked; the poll reopens the look at most once a second, however short the poll. */
  let lookedAt = Number.NEGATIVE_INFINITY;
  const pollPassed = (timedOut: boolean) => {
    if (timedOut && performance.now() - lookedAt >= 1000) othersMayBeDue = true;
  };
  /** Something another org has may be due now (a post for now was signalled). */
  const wakeOthers = () => {
    othersMayBeDue = true;
    wake();
  };
  const count = (org: string, by: number) => {
    const n = (byOrg.get(org) ?? 0) + by;
    if (n > 0) byOrg.set(org, n);
    else byOrg.delete(org);
  };
  const settlements = new Map<string, Settlement>();
  const run: PublishRun = {
    app,
    adapterFor: opts.adapterFor,
    timeoutMs: opts.timeoutMs ?? 90_000,
    videoTimeoutMs: opts.videoTimeoutMs ?? VIDEO_TIMEOUT_MS,
    pause: (ms) => pauses.pause(ms),
    stopping: () => stopped,
    video(started, org) {
      videos += started ? 1 : -1;
      count(org, started ? -1 : 1);
      if (started) wake(); // room for another claim
    },
    settlements,
  };

  async function runOne(c: Claimed, synced: Promise<void>): Promise<void> {
    const unsynced = await synced.then(
      () => null,
      (e: unknown) => String(e),
    );
    // The attempt row might not outlive a power loss: publishing now could publish twice. Nothing was sent.
    const started = app.clock.now();
    const attempt = () =>
      unsynced !== null
        ? Promise.resolve(unsent(run, c, { kind: "transient", message: `attempt_not_durable: ${unsynced}` }))
        : publishClaimed(run, c);
    const telemetry = app.telemetry;
    const finished = telemetry.enabled
      ? await telemetry.span(
          "publish",
          {
            provider: c.target.provider,
            mode: c.target.livemode ? "live" : "test",
            attempt: c.target.attempts,
          },
          async (end) => {
            const f = await attempt();
            const outcome = metricOutcome(f.decision);
            end({ outcome });
            telemetry.publishAttempt({
              provider: c.target.provider,
              live: Boolean(c.target.livemode),
              outcome,
              errorKind: f.decision.attemptOutcome === "published" ? "none" : f.decision.attemptOutcome,
              latenessMs: c.target.next_attempt_at === null ? null : started - c.target.next_attempt_at,
            });
            return f;
          },
        )
      : await attempt();
    // Pushed only now: `pending` is replaced by each step while the publish runs.
    pending.push(finished);
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
    const full = atShare();
    const free = full && !othersMayBeDue ? 0 : max - busy();
    if (batch.length === 0 && free <= 0) return [];
    try {
      const claimed = await inStepTx(
        app,
        async (tx, postsLocked) => {
          // On Postgres the outcomes' post and event writes travel with the claim: one round trip less a step.
          const pending = app.dialect === "postgres" && free > 0 ? pendingWrites() : undefined;
          await record(tx, batch, postsLocked, pending);
          return free > 0 ? claimIn(tx, app, free, undefined, pending, share) : [];
        },
        postsOf(batch),
      );
      recorded(batch);
      if (full && free > 0) {
        othersMayBeDue = false;
        lookedAt = performance.now();
      }
      return claimed;
    } catch (e) {
      // The database is unreachable (or a claim lost a race): keep the outcomes and try again; if it stays down
      // past the lease, the reclaimer decides (needs_attention, never a blind retry).
      app.log.error("publish step failed; retrying", { error: String(e), outcomes: batch.length });
      pending = [...batch, ...pending];
      return null;
    }
  }

  /** Starts publishing what a step claimed, once the claim's attempt rows are on disk. */
  function launch(claimed: Claimed[]): void {
    // The claim's attempt rows must be on disk before any adapter is called (never twice, even after a power
    // loss); the sync runs off the event loop while the next step goes on, and covers the whole batch.
    const synced = claimed.length ? app.syncWrites() : Promise.resolve();
    for (const c of claimed) {
      publishing.add(c.target.id);
      const org = c.target.org_id;
      count(org, 1);
      const p: Promise<void> = runOne(c, synced)
        .catch((e) => app.log.error("publish run failed", { target: c.target.id, error: String(e) }))
        .finally(() => {
          // While another org holds its share, this org's publish ending may leave more of this org's due: look
          // again. (The org at its share finishing frees room for a plain claim anyway.)
          for (const [o, n] of byOrg) if (o !== org && n >= perOrg) othersMayBeDue = true;
          count(org, -1);
          inflight.delete(p);
          publishing.delete(c.target.id);
          wake();
        });
      inflight.add(p);
    }
  }

  const stopRenewing = renewEvery(app, opts.renewMs ?? 60_000, publishing);

  const loop = (async () => {
    const offSignal = app.signals.on("publish", wakeOthers);
    const unlisten = await app.listen(PUBLISH_CHANNEL, wakeOthers).catch(() => async () => {});
    while (!stopped) {
      const free = max - busy();
      const claimed = await step();
      if (claimed === null) {
        await wakeup.sleep(1000);
        continue;
      }
      launch(claimed);
      if (pending.length) continue; // outcomes came in meanwhile: record them now
      // Full, or the rest of the room is kept for other orgs and none of theirs was due (the claim saw only the
      // org holding its share): a finishing publish, a post for now (its signal) or the poll wakes the loop.
      if (busy() >= max || (claimed.length < free && atShare())) {
        pollPassed(await wakeup.sleep(pollMs));
      } else if (claimed.length < free) {
        // Nothing more is due now: sleep until the next target is due (or a wake-up, or the poll interval).
        // A target already due that could not be claimed waits on something else (its channel busy, held or
        // inactive): a finishing publish wakes us, else the poll does.
        const next = await nextDueAt(app).catch(() => null);
        const now = app.clock.now();
        const wait = next === null || next <= now ? pollMs : Math.min(pollMs, next - now);
        pollPassed(await wakeup.sleep(wait));
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
    wake: wakeOthers,
    async idle() {
      while (inflight.size || pending.length) {
        await Promise.allSettled([...inflight]);
        wake();
        await Bun.sleep(2);
      }
    },
    async stop() {
      stopped = true;
      pauses.interruptAll();
      wake();
      await loop;
      await Promise.race([Promise.allSettled([...inflight]), Bun.sleep(45_000)]);
      stopRenewing();
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

/** An attempt's outcome as svc_publish_attempts_total counts it. */
function metricOutcome(d: Finished["decision"]): PublishMetricOutcome {
  if (d.status === "queued") return d.attemptOutcome === "rate_limited" ? "rate_limited" : "retry";
  return d.status;
}
