// The webhook delivery worker: claims due deliveries with a 1-minute lease, keeps up to 20 in flight, and claims
// more as attempts finish. Woken by the outbox (a delivery was written in this process) and by a 1 s poll
// (another process wrote it, or a retry came due).
import type { App } from "../app/context.ts";
import { nextAttemptAt } from "../domain/webhooks/backoff.ts";
import type { DeliveryJob, Outcome } from "../domain/webhooks/deliver.ts";
import { claimDeliveries } from "./webhook-claim.ts";
import type { WorkerLoop } from "./worker-loop.ts";

// Sending (the guarded client, signatures) and recording outcomes load with the first delivery: a process whose
// orgs have no webhook endpoints never needs them.
let sending: Promise<
  [typeof import("../domain/webhooks/deliver.ts"), typeof import("../domain/webhooks/outcome.ts")]
>;
const delivery = () =>
  (sending ??= Promise.all([
    import("../domain/webhooks/deliver.ts"),
    import("../domain/webhooks/outcome.ts"),
  ]));

export const MAX_IN_FLIGHT = 20;
export const POLL_MS = 1000;

export interface DeliveryWorkerOptions {
  maxInFlight?: number;
  pollMs?: number;
}

/**
 * Writes finished attempts in batches: one transaction for everything that finished since the last write, so
 * the database's per-commit cost is shared (on SQLite it is most of a delivery's cost). A crash before the write
 * leaves the deliveries leased; webhooks.reclaim schedules them again (delivery is at least once).
 */
class OutcomeWriter {
  private queue: { job: DeliveryJob; outcome: Outcome }[] = [];
  private writing: Promise<void> | null = null;
  constructor(private readonly app: App) {}

  add(job: DeliveryJob, outcome: Outcome): void {
    this.queue.push({ job, outcome });
    if (!this.writing) this.writing = this.drain();
  }

  private async drain(): Promise<void> {
    // Let the attempts finishing in this same turn join the batch.
    await new Promise((r) => setImmediate(r));
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, 200);
      try {
        const [, { recordOutcomes }] = await delivery();
        await this.app.db.transaction().execute(async (tx) => {
          await recordOutcomes(
            tx,
            this.app.dialect,
            batch.map(({ job, outcome }) => ({ delivery: job.delivery, outcome })),
            this.app.instanceId,
          );
        });
      } catch (e) {
        // The leases run out and webhooks.reclaim schedules these deliveries again.
        this.app.log.error("webhook attempts not recorded", { count: batch.length, error: String(e) });
      }
    }
    this.writing = null;
  }

  /** Waits until everything queued is written. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }
}

export class DeliveryWorker {
  private readonly maxInFlight: number;
  private readonly pollMs: number;
  private inFlight = 0;
  private readonly running = new Set<Promise<void>>();
  private readonly writer: OutcomeWriter;
  private filling = false;
  private again = false;
  private stopped = true;
  private timer: ReturnType<typeof setInterval> | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly app: App,
    opts: DeliveryWorkerOptions = {},
  ) {
    this.maxInFlight = opts.maxInFlight ?? MAX_IN_FLIGHT;
    this.pollMs = opts.pollMs ?? POLL_MS;
    this.writer = new OutcomeWriter(app);
  }

  start(): this {
    this.stopped = false;
    this.unsubscribe = this.app.signals.on("webhooks", () => this.kick());
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.kick();
    return this;
  }

  /** Stops claiming and waits for the attempts in flight (each ends within its 10 s timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.unsubscribe?.();
    await Promise.allSettled([...this.running]);
    await this.writer.flush();
  }

  get busy(): number {
    return this.inFlight;
  }

  kick(): void {
    if (this.stopped) return;
    if (this.filling) {
      this.again = true;
      return;
    }
    this.filling = true;
    this.fill()
      .catch((e) => this.app.log.error("webhook claim failed", { error: String(e) }))
      .finally(() => {
        this.filling = false;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async fill(): Promise<void> {
    while (!this.stopped) {
      const room = this.maxInFlight - this.inFlight;
      // Claim in batches: wait for a quarter of the slots to free up unless nothing is in flight.
      if (room <= 0 || (this.inFlight > 0 && room < Math.ceil(this.maxInFlight / 4))) return;
      const rows = await claimDeliveries(this.app, room);
      if (rows.length === 0) return;
      const [{ prepareJobs }] = await delivery();
      const jobs = await prepareJobs(this.app, rows);
      for (const job of jobs) this.launch(job);
      if (rows.length < room) return;
    }
  }

  private launch(job: DeliveryJob): void {
    this.inFlight++;
    // The slot is free once the receiver has answered; the outcome is written with the next batch.
    const p = measured(this.app, job)
      .then((outcome) => this.writer.add(job, outcome))
      .finally(() => {
        this.inFlight--;
        this.running.delete(p);
        this.kick();
      });
    this.running.add(p);
  }
}

/** Delivers everything due now and waits for it (tests, `svc` admin use); returns how many were attempted. */
export async function deliverDue(
  app: App,
  opts: { maxInFlight?: number; timeoutMs?: number } = {},
): Promise<number> {
  const maxInFlight = opts.maxInFlight ?? MAX_IN_FLIGHT;
  let total = 0;
  for (;;) {
    const rows = await claimDeliveries(app, maxInFlight);
    if (rows.length === 0) return total;
    total += rows.length;
    const [{ prepareJobs }, { recordOutcomes }] = await delivery();
    const jobs = await prepareJobs(app, rows);
    const finished = await Promise.all(
      jobs.map(async (job) => ({
        delivery: job.delivery,
        outcome: await measured(app, job, opts.timeoutMs),
      })),
    );
    await app.db.transaction().execute((tx) => recordOutcomes(tx, app.dialect, finished, app.instanceId));
  }
}

export const webhookDeliveryLoop: WorkerLoop = {
  name: "webhooks.deliver",
  start: (app) => new DeliveryWorker(app).start(),
};

/** One delivery attempt, counted and traced when telemetry is on (no ID, URL or body in either). */
async function measured(app: App, job: DeliveryJob, timeoutMs?: number): Promise<Outcome> {
  const [{ send }, { succeeded }] = await delivery();
  const telemetry = app.telemetry;
  if (!telemetry.enabled) return send(app, job, timeoutMs);
  const live = Boolean(job.delivery.livemode);
  return telemetry.span("webhook.deliver", { mode: live ? "live" : "test" }, async (end) => {
    const outcome = await send(app, job, timeoutMs);
    if (outcome.status !== null) end({ "http.response.status_code": outcome.status });
    const d = job.delivery;
    const again = nextAttemptAt(d.created_at, d.attempts + 1, outcome.startedAt + outcome.durationMs);
    telemetry.webhookAttempt(live, succeeded(outcome) ? "succeeded" : again === null ? "failed" : "retry");
    return outcome;
  });
}
