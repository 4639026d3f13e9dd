// Named background tasks: croner reads their schedules and one timer fires them on every worker; a lease row per
// task makes each scheduled run happen once across all workers (the claim names the scheduled fire time, so a
// second worker firing the same minute finds it taken). Last success and consecutive failures are kept per task
// for metrics and alerts.
import { Cron } from "croner";
import type { App } from "../app/context.ts";
import { raw } from "../db/raw.ts";

export interface TaskDef {
  name: string;
  /** croner pattern with seconds, e.g. "*\/30 * * * * *" for every 30 s. */
  schedule: string;
  timeoutMs: number;
  run(app: App): Promise<void>;
}

export async function ensureTaskRows(app: App, tasks: TaskDef[]): Promise<void> {
  if (tasks.length === 0) return;
  // One statement for all of them, as plain text: every start runs it, and fifteen commits (then the query
  // builder's tree for 22 rows) were a measurable part of start-up (docs/performance.md, "Start and idle memory").
  await raw(
    app.db,
    app.dialect,
    `INSERT INTO task_leases (name, owner, leased_until, last_fire, last_started_at, last_success_at,
      consecutive_failures, last_error)
     VALUES ${tasks.map(() => "(?, NULL, NULL, NULL, NULL, NULL, 0, NULL)").join(", ")}
     ON CONFLICT (name) DO NOTHING`,
    tasks.map((t) => t.name),
  );
}

/** Claims the run scheduled at `fireMs` and runs it; returns false when another worker has it. */
export async function runTask(app: App, task: TaskDef, fireMs: number): Promise<boolean> {
  const now = app.clock.now();
  const claimed = await app.db
    .updateTable("task_leases")
    .set({
      owner: app.instanceId,
      leased_until: now + task.timeoutMs,
      last_fire: fireMs,
      last_started_at: now,
    })
    .where("name", "=", task.name)
    .where((eb) => eb.or([eb("last_fire", "is", null), eb("last_fire", "<", fireMs)]))
    .where((eb) => eb.or([eb("leased_until", "is", null), eb("leased_until", "<", now)]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return false;
  try {
    await app.telemetry.span(`task ${task.name}`, {}, async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        task.run(app),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`timed out after ${task.timeoutMs} ms`)), task.timeoutMs);
        }),
      ]).finally(() => clearTimeout(timer));
    });
    await app.db
      .updateTable("task_leases")
      .set({
        leased_until: null,
        last_success_at: app.clock.now(),
        consecutive_failures: 0,
        last_error: null,
      })
      .where("name", "=", task.name)
      .where("owner", "=", app.instanceId)
      .execute();
  } catch (e) {
    app.log.error("task failed", { task: task.name, error: String(e) });
    app.telemetry.taskFailed(task.name);
    await app.db
      .updateTable("task_leases")
      .set((eb) => ({
        leased_until: null,
        consecutive_failures: eb("consecutive_failures", "+", 1),
        last_error: String(e).slice(0, 1000),
      }))
      .where("name", "=", task.name)
      .where("owner", "=", app.instanceId)
      .execute()
      .catch(() => {});
  }
  return true;
}

/** When a schedule next fires strictly after `afterMs` (croner reads the pattern; times in UTC). */
export function nextFire(schedule: string, afterMs: number): number {
  const at = new Cron(schedule, { utcOffset: 0 }).nextRun(new Date(afterMs));
  if (!at) throw new Error(`the schedule "${schedule}" never fires again`);
  return at.getTime();
}

/** Each schedule's next fire after `ms`, read once however many tasks share it (22 tasks, 13 schedules). */
function fireAfter(ms: number): (schedule: string) => number {
  const seen = new Map<string, number>();
  return (schedule) => {
    let at = seen.get(schedule);
    if (at === undefined) {
      at = nextFire(schedule, ms);
      seen.set(schedule, at);
    }
    return at;
  };
}

/** The longest a timer waits before looking again, so that a clock set forward or a suspended host is noticed. */
const LOOK_AGAIN_MS = 30_000;

/**
 * Runs every task on its schedule until stopped: one timer for all of them, set for the soonest fire. croner
 * computes each fire and its job is not kept: a job holds its pattern, and each pattern a table of 10,000 years
 * (about 80 KiB), so a job per task was 2.6 MiB of an idle process (docs/performance.md, "Start and idle memory").
 */
export class TaskRunner {
  private due: { task: TaskDef; at: number }[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** When the runner last looked at the clock: a clock set back since then has every fire read again. */
  private lookedAt = 0;
  private stopped = false;
  private running = new Set<Promise<unknown>>();
  /** Tasks of this process running now: a run that falls due while the last is still going is skipped. */
  private busy = new Set<string>();
  constructor(
    private readonly app: App,
    private readonly tasks: TaskDef[],
  ) {}

  async start(): Promise<void> {
    await ensureTaskRows(this.app, this.tasks);
    const now = Date.now();
    const next = fireAfter(now);
    this.due = this.tasks.map((task) => ({ task, at: next(task.schedule) }));
    this.lookedAt = now;
    this.arm();
  }

  private arm(): void {
    if (this.stopped || this.due.length === 0) return;
    let soonest = Number.POSITIVE_INFINITY;
    for (const d of this.due) soonest = Math.min(soonest, d.at);
    const wait = Math.min(Math.max(soonest - Date.now(), 0), LOOK_AGAIN_MS);
    this.timer = setTimeout(() => this.tick(), wait);
  }

  private tick(): void {
    this.timer = null;
    const now = Date.now();
    const next = fireAfter(now);
    // The clock was set back (by hand or by a time sync): the fires read before would come that much late.
    if (now < this.lookedAt) for (const d of this.due) d.at = next(d.task.schedule);
    this.lookedAt = now;
    for (const d of this.due) {
      if (d.at > now) continue;
      this.fire(d.task, d.at);
      // Fires missed while the process could not run (a suspended host) are not made up: the next is after now.
      d.at = next(d.task.schedule);
    }
    this.arm();
  }

  private fire(task: TaskDef, fireMs: number): void {
    if (this.stopped || this.busy.has(task.name)) return;
    this.busy.add(task.name);
    const p = runTask(this.app, task, fireMs)
      .catch((e) => this.app.log.error("task claim failed", { task: task.name, error: String(e) }))
      .finally(() => {
        this.busy.delete(task.name);
        this.running.delete(p);
      });
    this.running.add(p);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.running]);
  }
}
