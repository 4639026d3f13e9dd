// Named tasks: one run per scheduled fire across workers (lease rows), failure counting, and the two prune tasks.
import { afterAll, beforeAll, expect, setSystemTime, test } from "bun:test";
import type { App } from "../../src/app/context.ts";
import { FakeClock } from "../../src/lib/clock.ts";
import { newId } from "../../src/lib/ids.ts";
import { tasks } from "../../src/queue/registry.ts";
import { idempotencyPrune } from "../../src/queue/tasks/idempotency-prune.ts";
import { requestsPrune } from "../../src/queue/tasks/requests-prune.ts";
import { ensureTaskRows, nextFire, runTask, type TaskDef, TaskRunner } from "../../src/queue/tasks.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";

const HOUR = 3600_000;
const DAY = 24 * HOUR;

const lease = (app: App, name: string) =>
  app.db.selectFrom("task_leases").selectAll().where("name", "=", name).executeTakeFirstOrThrow();

describeEachDialect("named tasks", (dialect) => {
  const clock = new FakeClock();
  let one: TestApp;
  let two: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    one = await testApp(dialect, { clock });
    // A second worker process: its own App and database handle on the same database.
    two = await testApp(dialect, { clock, url: one.dbUrl, env: { SVC_MASTER_KEYS: one.masterKeys } });
    a = await tenant(one.app, "Tasks Org");
  });
  afterAll(async () => {
    await two.close();
    await one.close();
  });

  test("the registry names the prune tasks with hourly schedules", () => {
    const schedules = Object.fromEntries(tasks.map((x) => [x.name, x.schedule]));
    expect(schedules["requests.prune"]).toBe("0 5 * * * *");
    expect(schedules["idempotency.prune"]).toBe("0 10 * * * *");
    expect(new Set(tasks.map((x) => x.name)).size).toBe(tasks.length);
  });

  test("a scheduled fire runs once across two Apps on the same database", async () => {
    let runs = 0;
    const task: TaskDef = {
      name: "test.count",
      schedule: "0 * * * * *",
      timeoutMs: 10_000,
      async run() {
        runs++;
        await Bun.sleep(50);
      },
    };
    await ensureTaskRows(one.app, [task]);
    await ensureTaskRows(two.app, [task]); // a second worker starting: no duplicate row, no error
    const fire = Date.parse("2026-01-05T10:00:00Z");
    // At the same time: exactly one claims it.
    const both = await Promise.all([runTask(one.app, task, fire), runTask(two.app, task, fire)]);
    expect(both.filter(Boolean).length).toBe(1);
    expect(runs).toBe(1);
    // Later, the same fire is still taken.
    expect(await runTask(two.app, task, fire)).toBe(false);
    expect(await runTask(one.app, task, fire)).toBe(false);
    expect(runs).toBe(1);
    const row = await lease(one.app, "test.count");
    expect(row).toMatchObject({
      last_fire: fire,
      leased_until: null,
      consecutive_failures: 0,
      last_error: null,
    });
    expect([one.app.instanceId, two.app.instanceId]).toContain(row.owner!);
    // The next fire runs again, on whichever worker comes first.
    expect(await runTask(two.app, task, fire + 60_000)).toBe(true);
    expect(runs).toBe(2);
    expect((await lease(one.app, "test.count")).owner).toBe(two.app.instanceId);
  });

  test("failures count up with the last error; a success resets them", async () => {
    let fail = true;
    const task: TaskDef = {
      name: "test.flaky",
      schedule: "0 * * * * *",
      timeoutMs: 10_000,
      async run() {
        if (fail) throw new Error("boom");
      },
    };
    await ensureTaskRows(one.app, [task]);
    const base = Date.parse("2026-01-05T11:00:00Z");
    expect(await runTask(one.app, task, base)).toBe(true);
    expect(await lease(one.app, task.name)).toMatchObject({
      consecutive_failures: 1,
      last_error: "Error: boom",
      last_success_at: null,
      leased_until: null,
    });
    expect(await runTask(two.app, task, base + 60_000)).toBe(true);
    expect((await lease(one.app, task.name)).consecutive_failures).toBe(2);
    fail = false;
    clock.advance(1000);
    expect(await runTask(one.app, task, base + 120_000)).toBe(true);
    expect(await lease(one.app, task.name)).toMatchObject({
      consecutive_failures: 0,
      last_error: null,
      last_success_at: clock.now(),
      last_started_at: clock.now(),
    });
  });

  test("a task that outlives its timeout counts as failed", async () => {
    const task: TaskDef = {
      name: "test.slow",
      schedule: "0 * * * * *",
      timeoutMs: 50,
      run: () => Bun.sleep(500),
    };
    await ensureTaskRows(one.app, [task]);
    expect(await runTask(one.app, task, Date.parse("2026-01-05T12:00:00Z"))).toBe(true);
    expect(await lease(one.app, task.name)).toMatchObject({
      consecutive_failures: 1,
      last_error: "Error: timed out after 50 ms",
    });
  });

  test("the runner fires each task on its schedule, skips a fire while the last run goes on, and stops", async () => {
    const fires: Record<string, number[]> = { "test.tick": [], "test.tock": [], "test.long": [] };
    let longRunning = 0;
    let longOverlapped = false;
    let longFinished = 0;
    const every = (name: string, run: () => Promise<void>): TaskDef => ({
      name,
      schedule: "* * * * * *",
      timeoutMs: 10_000,
      run,
    });
    const quick = (name: string) =>
      every(name, async () => {
        fires[name]!.push(Date.now());
      });
    const long = every("test.long", async () => {
      fires["test.long"]!.push(Date.now());
      if (++longRunning > 1) longOverlapped = true;
      await Bun.sleep(2_300);
      longRunning--;
      longFinished++;
    });
    const runner = new TaskRunner(one.app, [quick("test.tick"), quick("test.tock"), long]);
    await runner.start();
    await Bun.sleep(3_200);
    await runner.stop();
    // Both tasks of the same schedule ran at the seconds that passed (three or four, unless the machine held the timer back).
    expect(fires["test.tick"]!.length).toBeGreaterThanOrEqual(2);
    expect(fires["test.tock"]!.length).toBe(fires["test.tick"]!.length);
    // The long task was not started again while it ran: at most two runs in 3.2 s, never two at once, and stop()
    // waited for the one under way.
    expect(fires["test.long"]!.length).toBeGreaterThanOrEqual(1);
    expect(fires["test.long"]!.length).toBeLessThanOrEqual(2);
    expect(longOverlapped).toBe(false);
    expect(longFinished).toBe(fires["test.long"]!.length);
    // Each claim names its scheduled second, not the moment the timer woke.
    const tick = await lease(one.app, "test.tick");
    expect(tick.last_fire! % 1000).toBe(0);
    expect(tick.last_success_at).not.toBeNull();
    // Nothing fires after stop().
    const ran = fires["test.tick"]!.length;
    await Bun.sleep(1_200);
    expect(fires["test.tick"]!.length).toBe(ran);
  });

  test("a clock set back has every fire read again, so no task waits out the difference", async () => {
    const runs: number[] = [];
    const task: TaskDef = {
      name: "test.clock",
      schedule: "* * * * * *",
      timeoutMs: 10_000,
      async run() {
        runs.push(Date.now());
      },
    };
    const runner = new TaskRunner(one.app, [task]);
    try {
      await runner.start(); // due at the next second of the real clock
      // The clock goes back an hour, to 200 ms into a second, and stays there.
      const back = Math.floor(Date.now() / 1000) * 1000 - HOUR + 200;
      setSystemTime(new Date(back));
      await Bun.sleep(1_200); // the timer set for the real next second finds the clock behind it
      expect(runs).toEqual([]);
      setSystemTime(new Date(back + 1_000)); // past the next second of the earlier hour
      await Bun.sleep(1_200);
      expect(runs.length).toBe(1);
      expect((await lease(one.app, "test.clock")).last_fire).toBe(back - 200 + 1_000);
    } finally {
      setSystemTime();
      await runner.stop();
    }
  });

  test("nextFire is the schedule's next time strictly after the given one, in UTC", () => {
    const at = (iso: string) => Date.parse(iso);
    expect(nextFire("0 20 * * * *", at("2026-01-05T10:19:59.500Z"))).toBe(at("2026-01-05T10:20:00Z"));
    expect(nextFire("0 20 * * * *", at("2026-01-05T10:20:00Z"))).toBe(at("2026-01-05T11:20:00Z"));
    expect(nextFire("*/30 * * * * *", at("2026-01-05T10:00:00Z"))).toBe(at("2026-01-05T10:00:30Z"));
    expect(nextFire("0 20 3 * * *", at("2026-01-05T03:20:00Z"))).toBe(at("2026-01-06T03:20:00Z"));
    // Every registered task fires at least daily.
    for (const t of tasks) {
      const first = nextFire(t.schedule, at("2026-01-05T00:00:00Z"));
      expect(nextFire(t.schedule, first) - first).toBeLessThanOrEqual(DAY);
    }
  });

  test("requests.prune deletes request log rows older than 14 days and keeps newer ones", async () => {
    const now = clock.now();
    const row = (age: number) => ({
      id: newId("req", now - age),
      org_id: a.orgId,
      livemode: 0 as const,
      method: "GET",
      path: "/v1/me",
      status: 200,
      code: null,
      duration_ms: 1,
      api_key_id: null,
      user_token_id: null,
      created_at: now - age,
    });
    const old = row(14 * DAY + 1000);
    const fresh = row(14 * DAY - 1000);
    const recent = row(HOUR);
    await one.app.db.insertInto("request_log").values([old, fresh, recent]).execute();
    await one.app.db
      .insertInto("audit_throttle")
      .values([
        { key: "old", created_at: now - 10 * 60_000 },
        { key: "new", created_at: now - 60_000 },
      ])
      .execute();
    await ensureTaskRows(one.app, tasks);
    expect(await runTask(one.app, requestsPrune, Date.parse("2026-01-05T10:05:00Z"))).toBe(true);
    const left = await one.app.db
      .selectFrom("request_log")
      .select("id")
      .where("org_id", "=", a.orgId)
      .execute();
    expect(left.map((r) => r.id).sort()).toEqual([fresh.id, recent.id].sort());
    const marks = await one.app.db.selectFrom("audit_throttle").select("key").execute();
    expect(marks.map((m) => m.key)).toEqual(["new"]);
    expect((await lease(one.app, "requests.prune")).last_success_at).toBe(now);
  });

  test("the request log really records requests (and prune keeps them while fresh)", async () => {
    const r = await one.request("GET", "/v1/me", { key: a.testKey });
    await one.http.ctx.requestLog.flush();
    const row = await one.app.db
      .selectFrom("request_log")
      .selectAll()
      .where("id", "=", r.headers.get("request-id")!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ org_id: a.orgId, method: "GET", path: "/v1/me", status: 200, code: null });
    await requestsPrune.run(one.app);
    expect(
      await one.app.db.selectFrom("request_log").select("id").where("id", "=", row.id).executeTakeFirst(),
    ).toEqual({ id: row.id });
  });

  test("idempotency.prune deletes keys older than 24 hours", async () => {
    const now = clock.now();
    const key = (name: string, age: number) => ({
      credential_id: "key_test",
      key: name,
      fingerprint: "f",
      state: "done" as const,
      response_status: 201,
      response_body: "{}",
      created_at: now - age,
    });
    await one.app.db
      .insertInto("idempotency_keys")
      .values([key("old", DAY + 1000), key("young", DAY - 1000), key("now", 0)])
      .execute();
    expect(await runTask(two.app, idempotencyPrune, Date.parse("2026-01-05T10:10:00Z"))).toBe(true);
    const left = await one.app.db
      .selectFrom("idempotency_keys")
      .select("key")
      .where("credential_id", "=", "key_test")
      .orderBy("key")
      .execute();
    expect(left.map((k) => k.key)).toEqual(["now", "young"]);
  });
});
