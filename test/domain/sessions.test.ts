// Dashboard sessions in the domain: expiry (2 hours before sign-in, 7 idle days after), revoked sessions, and the
// sessions.prune task deleting what ended more than a day ago.
import { afterAll, beforeAll, expect, test } from "bun:test";
import {
  insertSession,
  loadSession,
  startAnonymousSession,
} from "../../src/domain/identity/sessions/service.ts";
import { FakeClock } from "../../src/lib/clock.ts";
import { sessionsPrune } from "../../src/queue/tasks/sessions-prune.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { tenant } from "../helpers/factories.ts";

const meta = { ip: "192.0.2.1", userAgent: "test" };

describeEachDialect("dashboard sessions", (dialect) => {
  let t: TestApp;
  const clock = new FakeClock(Date.parse("2026-03-02T09:00:00Z"));
  beforeAll(async () => {
    t = await testApp(dialect, { clock });
  });
  afterAll(() => t.close());

  test("sessions end: anonymous after 2 hours, signed-in after 7 idle days; prune deletes them a day later", async () => {
    const a = await tenant(t.app, "Session Org");
    const anon = await startAnonymousSession(t.app, meta);
    const active = await insertSession(
      t.app.db,
      t.app,
      { stage: "active", userId: a.userId, orgId: a.orgId, livemode: false },
      meta,
    );
    expect((await loadSession(t.app, anon.secret))?.id).toBe(anon.id);
    expect(await loadSession(t.app, "x".repeat(40))).toBeNull();
    clock.advance(2 * 3600_000 + 1);
    expect(await loadSession(t.app, anon.secret)).toBeNull();
    expect((await loadSession(t.app, active.secret))?.user_id).toBe(a.userId);
    clock.advance(7 * 86400_000 + 1);
    expect(await loadSession(t.app, active.secret)).toBeNull();

    await sessionsPrune.run(t.app);
    // Ended less than a day ago: kept for now.
    expect(
      await t.app.db.selectFrom("web_sessions").select("id").where("id", "=", active.id).execute(),
    ).toHaveLength(1);
    clock.advance(86400_000);
    await sessionsPrune.run(t.app);
    const left = await t.app.db
      .selectFrom("web_sessions")
      .select("id")
      .where("id", "in", [anon.id, active.id])
      .execute();
    expect(left).toEqual([]);
  });
});
