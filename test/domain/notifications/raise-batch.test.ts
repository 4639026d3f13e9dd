// Raising for a batch of events at once (a worker's batch of outcomes): each notification reaches exactly its
// recipients with the email each one's preference asks for, the daily channel limit holds inside the batch and
// against earlier rows, and an org with more admins than raising first makes room for (Postgres makes the rows'
// IDs before it knows how many recipients there are) still notifies every one of them.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { flushPending, pendingWrites } from "../../../src/db/raw.ts";
import { recordEvents } from "../../../src/domain/events/record.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { member, type Tenant, tenant } from "../../helpers/factories.ts";
import { type SmtpReceiver, smtpReceiver } from "../../helpers/smtp.ts";

setDefaultTimeout(60_000);

describeEachDialect("notifications raised for a batch of events", (dialect) => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let a: Tenant;
  const admins: string[] = [];
  const clock = new FakeClock(Date.parse("2026-03-02T09:00:00Z"));

  beforeAll(async () => {
    smtp = await smtpReceiver();
    t = await testApp(dialect, { clock, env: smtp.env });
    a = await tenant(t.app);
    // More admins than the first guess of IDs (16), so Postgres needs its second try.
    for (let i = 0; i < 20; i++)
      admins.push(await member(t.app, a.orgId, `adm${i}-${dialect}@example.com`, "admin"));
    await member(t.app, a.orgId, `ed-${dialect}@example.com`, "editor");
    const pref = (userId: string, type: string, email: 0 | 1, delivery: "immediate" | "daily") => ({
      user_id: userId,
      org_id: a.orgId,
      type,
      email,
      delivery,
      updated_at: clock.now(),
    });
    await t.app.db
      .insertInto("notification_preferences")
      .values([
        pref(admins[0]!, "channel.needs_reauth", 0, "immediate"),
        pref(admins[1]!, "channel.needs_reauth", 1, "daily"),
        pref(admins[2]!, "newsletter.approval_requested", 1, "daily"),
        // Another type's preference changes nothing for this one.
        pref(admins[3]!, "post.approval_requested", 0, "immediate"),
      ])
      .execute();
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const rowsOf = async (type: string) =>
    (
      await t.app.db
        .selectFrom("notifications")
        .select(["id", "user_id", "object_id", "email"])
        .where("org_id", "=", a.orgId)
        .where("type", "=", type)
        .execute()
    ).sort((x, y) => (x.user_id < y.user_id ? -1 : 1));
  const everyone = () => [a.userId, ...admins].sort();
  /** The types of the org's events about these objects, sorted. */
  const eventTypes = async (objectIds: string[]) =>
    (await t.app.db.selectFrom("events").select(["type", "data"]).where("org_id", "=", a.orgId).execute())
      .filter((e) => objectIds.includes((JSON.parse(e.data) as { object: { id: string } }).object.id))
      .map((e) => e.type)
      .sort();

  test("one batch: each notification to exactly its recipients, each email as its preference says", async () => {
    const scope = { orgId: a.orgId, livemode: true, requestId: null };
    await t.app.db.transaction().execute((tx) =>
      recordEvents(tx, t.app, [
        { scope, type: "channel.needs_reauth", object: { id: "chan_batch", provider: "discord" } },
        // The same channel twice in one batch: one notification each.
        { scope, type: "channel.needs_reauth", object: { id: "chan_batch", provider: "discord" } },
        {
          scope,
          type: "newsletter.approval_requested",
          object: { id: "nl_batch", subject: "March", created_by_user: admins[5] },
        },
        // Not notifying, and test mode: nothing.
        { scope, type: "post.created", object: { id: "post_x" } },
        { scope: { ...scope, livemode: false }, type: "channel.needs_reauth", object: { id: "chan_test" } },
      ]),
    );
    const reauth = await rowsOf("channel.needs_reauth");
    expect(reauth.map((r) => r.user_id)).toEqual(everyone());
    expect(new Set(reauth.map((r) => r.id)).size).toBe(reauth.length);
    expect(reauth.every((r) => r.object_id === "chan_batch")).toBe(true);
    const emailOf = (rows: { user_id: string; email: string }[], who: string) =>
      rows.find((r) => r.user_id === who)?.email;
    expect(emailOf(reauth, admins[0]!)).toBe("none");
    expect(emailOf(reauth, admins[1]!)).toBe("digest");
    expect(emailOf(reauth, admins[3]!)).toBe("immediate");
    expect(emailOf(reauth, a.userId)).toBe("immediate");

    const newsletter = await rowsOf("newsletter.approval_requested");
    expect(newsletter.map((r) => r.user_id)).toEqual(everyone().filter((u) => u !== admins[5]));
    expect(emailOf(newsletter, admins[2]!)).toBe("digest");
    expect(emailOf(newsletter, admins[0]!)).toBe("immediate");
    // The events themselves, each once (on Postgres their insert travels with raising's first try, and the
    // second try, for the org's 21 recipients, does not write them again).
    expect(await eventTypes(["chan_batch", "nl_batch", "post_x", "chan_test"])).toEqual([
      "channel.needs_reauth",
      "channel.needs_reauth",
      "channel.needs_reauth",
      "newsletter.approval_requested",
      "post.created",
    ]);
  });

  test("the daily limit against earlier rows; an org that grew past the last count is notified whole", async () => {
    const scope = { orgId: a.orgId, livemode: true, requestId: null };
    const reauth = (id: string) =>
      t.app.db
        .transaction()
        .execute((tx) =>
          recordEvents(tx, t.app, [
            { scope, type: "channel.needs_reauth", object: { id, provider: "discord" } },
          ]),
        );
    clock.advance(3600_000);
    await reauth("chan_batch");
    expect((await rowsOf("channel.needs_reauth")).length).toBe(21);
    // Five more admins than the org had when it was last notified.
    for (let i = 20; i < 25; i++)
      admins.push(await member(t.app, a.orgId, `adm${i}-${dialect}@example.com`, "admin"));
    await reauth("chan_other");
    const other = (await rowsOf("channel.needs_reauth")).filter((r) => r.object_id === "chan_other");
    expect(other.map((r) => r.user_id).sort()).toEqual(everyone());
  });

  test("writes the caller hands on ride with raising once, and are not run again", async () => {
    const scope = { orgId: a.orgId, livemode: true, requestId: null };
    await t.app.db.transaction().execute(async (tx) => {
      const pending = pendingWrites();
      await recordEvents(
        tx,
        t.app,
        [{ scope, type: "channel.needs_reauth", object: { id: "chan_handed", provider: "discord" } }],
        undefined,
        pending,
      );
      // Whatever raising did not take, the caller's next statement runs (here, on its own).
      await flushPending(tx, t.app.dialect, pending);
    });
    const handed = (await rowsOf("channel.needs_reauth")).filter((r) => r.object_id === "chan_handed");
    expect(handed.map((r) => r.user_id)).toEqual(everyone());
    expect(await eventTypes(["chan_handed"])).toEqual(["channel.needs_reauth"]);
  });
});
