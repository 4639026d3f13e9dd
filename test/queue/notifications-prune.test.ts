// notifications.prune: read notifications go 90 days after they were raised, all others after a year; used
// unsubscribe tokens are forgotten after a year.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { FakeClock } from "../../src/lib/clock.ts";
import { notificationsPrune } from "../../src/queue/tasks/notifications-prune.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { member, tenant } from "../helpers/factories.ts";

describeEachDialect("notifications.prune", (dialect) => {
  let t: TestApp;
  const clock = new FakeClock(Date.parse("2026-01-01T00:00:00Z"));
  beforeAll(async () => {
    t = await testApp(dialect, { clock });
  });
  afterAll(() => t.close());

  test("read after 90 days, unread after a year, used tokens after a year", async () => {
    const a = await tenant(t.app);
    const ids = async () =>
      (
        await t.app.db
          .selectFrom("notifications")
          .select("id")
          .where("org_id", "=", a.orgId)
          .orderBy("id")
          .execute()
      ).map((r) => r.id);
    // Three people join: three notifications for the owner, raised now.
    for (const n of ["p1", "p2", "p3"]) await member(t.app, a.orgId, `${n}-${dialect}@example.com`, "viewer");
    const [read, unread, readLate] = (await ids()) as [string, string, string];
    await t.app.db
      .updateTable("notifications")
      .set({ read_at: clock.now() })
      .where("id", "=", read)
      .execute();
    await t.app.db
      .insertInto("unsubscribe_uses")
      .values({ nonce: `n-${dialect}`, used_at: clock.now() })
      .execute();
    clock.advance(89 * 86400_000);
    await t.app.db
      .updateTable("notifications")
      .set({ read_at: clock.now() })
      .where("id", "=", readLate)
      .execute();
    await notificationsPrune.run(t.app);
    expect(await ids()).toEqual([read, unread, readLate]);
    clock.advance(2 * 86400_000);
    await notificationsPrune.run(t.app);
    // Raised 91 days ago and read: gone, however recently it was read.
    expect(await ids()).toEqual([unread]);
    clock.advance(275 * 86400_000);
    await notificationsPrune.run(t.app);
    expect(await ids()).toEqual([]);
    const uses = await t.app.db
      .selectFrom("unsubscribe_uses")
      .select("nonce")
      .where("nonce", "=", `n-${dialect}`)
      .execute();
    expect(uses).toEqual([]);
  });
});
