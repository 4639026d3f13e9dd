// Named background tasks: croner fires them on every worker; a lease row per task makes each scheduled run
// happen once across all workers (the claim names the scheduled fire time, so a second worker firing the same
// minute finds it taken). Last success and consecutive failures are kept per task for metrics and alerts.
import { Cron } from "croner";
import type { App } from "../app/context.ts";

export interface TaskDef {
  name: string;
  /** croner pattern with seconds, e.g. "*\/30 * * * * *" for every 30 s. */
  schedule: string;
  timeoutMs: number;
  run(app: App): Promise<void>;
}

export async function ensureTaskRows(app: App, tasks: TaskDef[]): Promise<void> {
  if (tasks.length === 0) return;
  // One statement for all of them: every start runs it, and fifteen commits (and query builds) were a measurable
  // part of start-up (docs/performance.md, "Start and idle memory").
  await app.db
    .insertInto("task_leases")
    .values(
      tasks.map((t) => ({
        name: t.name,
        owner: null,
        leased_until: null,
        last_fire: null,
        last_started_at: null,
        last_success_at: null,
        consecutive_failures: 0,
        last_error: null,
      })),
    )
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
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

/** Runs every task on its schedule until stopped. */
export class TaskRunner {
  private jobs: Cron[] = [];
  private running = new Set<Promise<unknown>>();
  constructor(
    private readonly app: App,
    private readonly tasks: TaskDef[],
  ) {}

  async start(): Promise<void> {
    await ensureTaskRows(this.app, this.tasks);
    for (const task of this.tasks) {
      const job: Cron = new Cron(task.schedule, { protect: true, utcOffset: 0 }, async () => {
        const fire = job.currentRun()?.getTime() ?? Date.now();
        const p = runTask(this.app, task, fire).catch((e) =>
          this.app.log.error("task claim failed", { task: task.name, error: String(e) }),
        );
        this.running.add(p);
        await p;
        this.running.delete(p);
      });
      this.jobs.push(job);
    }
  }

  async stop(): Promise<void> {
    for (const j of this.jobs) j.stop();
    this.jobs = [];
    await Promise.allSettled([...this.running]);
  }
}
