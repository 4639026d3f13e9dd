// The webhook delivery worker: claims due deliveries with a 1-minute lease, keeps up to 20 in flight, and claims
// more as attempts finish. Woken by the outbox (a delivery was written in this process) and by a 1 s poll
// (another process wrote it, or a retry came due).
import type { App } from "../app/context.ts";
import {
  DELIVERY_TIMEOUT_MS,
  type DeliveryJob,
  prepareJobs,
  recordOutcome,
  send,
} from "../domain/webhooks/deliver.ts";
import type { WorkerLoop } from "./registry.ts";
import { claimDeliveries } from "./webhook-claim.ts";

export const MAX_IN_FLIGHT = 20;
export const POLL_MS = 1000;

export interface DeliveryWorkerOptions {
  maxInFlight?: number;
  pollMs?: number;
}

async function attempt(app: App, job: DeliveryJob, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<void> {
  const outcome = await send(app, job, timeoutMs);
  await app.db.transaction().execute((tx) => recordOutcome(tx, job.delivery, outcome, app.instanceId));
}

export class DeliveryWorker {
  private readonly maxInFlight: number;
  private readonly pollMs: number;
  private inFlight = 0;
  private readonly running = new Set<Promise<void>>();
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
      const jobs = await prepareJobs(this.app, rows);
      for (const job of jobs) this.launch(job);
      if (rows.length < room) return;
    }
  }

  private launch(job: DeliveryJob): void {
    this.inFlight++;
    const p = attempt(this.app, job)
      .catch((e) =>
        // The lease runs out and webhooks.reclaim schedules the delivery again.
        this.app.log.error("webhook attempt not recorded", { delivery: job.delivery.id, error: String(e) }),
      )
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
    const jobs = await prepareJobs(app, rows);
    await Promise.all(jobs.map((job) => attempt(app, job, opts.timeoutMs)));
  }
}

export const webhookDeliveryLoop: WorkerLoop = {
  name: "webhooks.deliver",
  start: (app) => new DeliveryWorker(app).start(),
};
