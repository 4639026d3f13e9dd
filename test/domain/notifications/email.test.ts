// Notification emails through a real SMTP receiver: immediate with List-Unsubscribe (RFC 8058) and a signed footer
// link, both turning the type off (the one-click POST taken from the received mail's headers, as a mail client
// would; the footer link signed out); tampered, foreign and replayed links refused; retries after a 4xx, a 5xx
// dropped at once; the 31st email in an hour suppressed but kept; the 08:00 summary in two time zones.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { recordEvent } from "../../../src/domain/events/record.ts";
import { updatePreferences } from "../../../src/domain/notifications/preferences.ts";
import { sendNotifications } from "../../../src/domain/notifications/send.ts";
import { unsubscribeToken } from "../../../src/domain/notifications/unsubscribe.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { TestBrowser } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { member, type Tenant, tenant, userToken } from "../../helpers/factories.ts";
import { personActor } from "../../helpers/person.ts";
import { type ReceivedMail, type SmtpReceiver, smtpReceiver } from "../../helpers/smtp.ts";

setDefaultTimeout(60_000);

/** The message's header block, folded lines joined (RFC 5322 unfolding). */
const headerOf = (m: ReceivedMail, name: string) => {
  const head = m.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : null;
};

describeEachDialect("notification emails", (dialect) => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let a: Tenant;
  let channels = 0;
  const clock = new FakeClock(Date.parse("2026-03-02T09:00:00Z"));

  beforeAll(async () => {
    smtp = await smtpReceiver();
    t = await testApp(dialect, { clock, env: smtp.env });
    a = await tenant(t.app);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  /** A live channel refused its credentials: admins and owners are told (email on by default). */
  const reauth = (orgId = a.orgId) =>
    t.app.db.transaction().execute((tx) =>
      recordEvent(tx, t.app, { orgId, livemode: true, requestId: null }, "channel.needs_reauth", {
        id: `chan_${dialect}_${++channels}`,
        provider: "mastodon",
        display_name: `Channel ${channels}`,
      }),
    );
  const mailsTo = (to: string) => smtp.mails.filter((m) => m.to.includes(to));
  const emailState = async (userId: string) =>
    (
      await t.app.db
        .selectFrom("notifications")
        .select(["email"])
        .where("user_id", "=", userId)
        .orderBy("id")
        .execute()
    ).map((r) => r.email);

  test("immediate: one email with text and HTML parts, List-Unsubscribe one-click; the POST from its headers turns the type off once", async () => {
    const person = await member(t.app, a.orgId, `imm-${dialect}@example.com`, "admin");
    await reauth();
    await sendNotifications(t.app);
    const m = await smtp.waitFor(`imm-${dialect}@example.com`, /must be connected again/);
    expect(m.subject).toContain(`Channel ${channels} must be connected again`);
    expect(m.raw).toContain("Content-Type: text/plain");
    expect(m.raw).toContain("Content-Type: text/html");
    expect(headerOf(m, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    const listUnsub = headerOf(m, "List-Unsubscribe")!;
    const url = /^<([^>]+)>$/.exec(listUnsub)![1]!;
    expect(url).toStartWith("http://localhost:8080/v1/unsubscribe/");
    expect(await emailState(person)).toEqual(["queued"]);

    // As a mail client does it (RFC 8058 §3.1): POST the body, no cookie, no credential.
    const path = new URL(url).pathname;
    const click = () =>
      t.http.handle(
        new Request(`http://localhost${path}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "List-Unsubscribe=One-Click",
        }),
      );
    const r = await click();
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({
      object: "unsubscribe",
      org: a.orgId,
      types: ["channel.needs_reauth"],
      email: false,
    });
    const prefs = await t.request("GET", "/v1/notifications/preferences", {
      key: (await userToken(t.app, person)).secret,
    });
    expect(prefs.body.types.find((x: { type: string }) => x.type === "channel.needs_reauth").email).toBe(
      false,
    );
    // Replayed: refused, nothing changes.
    const again = await click();
    expect(again.status).toBe(404);
    expect(((await again.json()) as { code: string }).code).toBe("unsubscribe_link_invalid");
    // The type is off for this person now: the next one is kept in the dashboard only.
    await reauth();
    expect(await emailState(person)).toEqual(["queued", "none"]);
  });

  test("the footer link works signed out; tampered, foreign and replayed links are refused with nothing changed", async () => {
    const person = await member(t.app, a.orgId, `foot-${dialect}@example.com`, "owner");
    await reauth();
    await sendNotifications(t.app);
    const m = await smtp.waitFor(`foot-${dialect}@example.com`);
    const link = /http:\/\/localhost:8080(\/unsubscribe\/[A-Za-z0-9_\-.]+)/.exec(m.text)![1]!;
    const token = link.split("/")[2]!;
    const b = new TestBrowser(t);
    const ask = await b.get(link);
    expect(ask.status).toBe(200);
    expect(ask.html).toContain("A channel must be connected again");
    expect(ask.html).toContain(`foot-${dialect}@example.com`);

    // Tampered: one character of the signed part changed.
    const flipped = `${token.slice(0, 5)}${token[5] === "A" ? "B" : "A"}${token.slice(6)}`;
    expect((await b.get(`/unsubscribe/${flipped}`)).status).toBe(404);
    // Foreign: a genuine link for another org the person is not in, and for another person of another org.
    const other = await tenant(t.app);
    const foreign = unsubscribeToken(t.app, person, other.orgId, ["channel.needs_reauth"]);
    const click = (tok: string) =>
      t.http.handle(new Request(`http://localhost/v1/unsubscribe/${tok}`, { method: "POST" }));
    const rf = await click(foreign);
    expect(rf.status).toBe(404);
    expect(((await rf.json()) as { code: string }).code).toBe("unsubscribe_link_invalid");
    expect((await click(flipped)).status).toBe(404);
    // Someone else's valid link signed with another install's key is refused too (signature).
    const elsewhere = await testApp(dialect);
    try {
      const theirs = unsubscribeToken(elsewhere.app, person, a.orgId, ["channel.needs_reauth"]);
      expect((await click(theirs)).status).toBe(404);
    } finally {
      await elsewhere.close();
    }
    const before = await t.app.db
      .selectFrom("notification_preferences")
      .selectAll()
      .where("user_id", "=", person)
      .execute();
    expect(before).toEqual([]);

    const done = await b.post(link, {});
    expect(done.status).toBe(200);
    expect(done.html).toContain("no longer emails you");
    const after = await t.app.db
      .selectFrom("notification_preferences")
      .selectAll()
      .where("user_id", "=", person)
      .execute();
    expect(after.map((p) => [p.type, p.email])).toEqual([["channel.needs_reauth", 0]]);
    await b.get(link);
    const replay = await b.post(link, {});
    expect(replay.status).toBe(404);
    expect(replay.html).toContain("not valid");
  });

  test("a 4xx is retried after a minute; a 5xx is dropped at once", async () => {
    const person = await member(t.app, a.orgId, `retry-${dialect}@example.com`, "admin");
    smtp.refuseNext(100, 451);
    await reauth();
    await sendNotifications(t.app);
    const row = async () => {
      const n = await t.app.db
        .selectFrom("notifications")
        .select("mail_id")
        .where("user_id", "=", person)
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow();
      return t.app.db
        .selectFrom("mail_outbox")
        .selectAll()
        .where("id", "=", n.mail_id!)
        .executeTakeFirstOrThrow();
    };
    expect(await row()).toMatchObject({
      status: "pending",
      attempts: 1,
      next_attempt_at: clock.now() + 60_000,
    });
    smtp.refuseNext(0, 0);
    clock.advance(59_000);
    await sendNotifications(t.app);
    expect((await row()).attempts).toBe(1);
    clock.advance(1_000);
    await sendNotifications(t.app);
    expect(await row()).toMatchObject({ status: "sent", attempts: 2 });
    await smtp.waitFor(`retry-${dialect}@example.com`);

    smtp.refuseNext(100, 550);
    await reauth();
    await sendNotifications(t.app);
    expect(await row()).toMatchObject({ status: "failed", attempts: 1, next_attempt_at: null });
    smtp.refuseNext(0, 0);
  });

  test("at most 30 notification emails per person per hour: the 31st is suppressed and stays in the dashboard", async () => {
    clock.advance(2 * 3600_000);
    const b = await tenant(t.app);
    const owner = b.userId;
    const before = mailsTo(b.email).length;
    for (let i = 0; i < 31; i++) await reauth(b.orgId);
    await sendNotifications(t.app);
    const states = await emailState(owner);
    expect(states.filter((s) => s === "queued").length).toBe(30);
    expect(states.filter((s) => s === "suppressed").length).toBe(1);
    for (let i = 0; i < 100 && mailsTo(b.email).length < before + 30; i++) await Bun.sleep(20);
    expect(mailsTo(b.email).length).toBe(before + 30);
    const list = await t.request("GET", "/v1/notifications?limit=100", {
      key: (await userToken(t.app, owner)).secret,
    });
    expect(list.body.data.length).toBe(31);
    // An hour later the count starts again.
    clock.advance(3600_000 + 1);
    await reauth(b.orgId);
    await sendNotifications(t.app);
    expect((await emailState(owner)).at(-1)).toBe("queued");
  });

  test("the daily summary arrives at 08:00 in each person's time zone, one email for the day's notifications", async () => {
    clock.set("2026-03-02T09:00:00Z");
    const c = await tenant(t.app);
    const ny = await member(t.app, c.orgId, `ny-${dialect}@example.com`, "admin");
    const tokyo = await member(t.app, c.orgId, `tokyo-${dialect}@example.com`, "admin");
    for (const [who, tz] of [
      [ny, "America/New_York"],
      [tokyo, "Asia/Tokyo"],
    ] as const)
      await updatePreferences(t.app, await personActor(t.app, who, c.orgId), {
        timezone: tz,
        types: [{ type: "channel.needs_reauth", delivery: "daily" }],
      });
    await updatePreferences(t.app, await personActor(t.app, c.userId, c.orgId), {
      types: [{ type: "channel.needs_reauth", email: false }],
    });
    await reauth(c.orgId);
    await reauth(c.orgId);
    await sendNotifications(t.app);
    expect(mailsTo(`ny-${dialect}@example.com`)).toEqual([]);
    // 08:00 in New York on 2 March is 13:00 UTC (EST); in Tokyo 08:00 on 3 March is 23:00 UTC on the 2nd.
    clock.set("2026-03-02T12:59:00Z");
    await sendNotifications(t.app);
    expect(mailsTo(`ny-${dialect}@example.com`)).toEqual([]);
    clock.set("2026-03-02T13:00:00Z");
    await sendNotifications(t.app);
    const summary = await smtp.waitFor(`ny-${dialect}@example.com`, /daily summary/);
    expect(summary.subject).toContain("2 notifications");
    expect(summary.text).toContain(`Channel ${channels - 1} must be connected again`);
    expect(summary.text).toContain(`Channel ${channels} must be connected again`);
    expect(headerOf(summary, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(mailsTo(`tokyo-${dialect}@example.com`)).toEqual([]);
    clock.set("2026-03-02T22:59:00Z");
    await sendNotifications(t.app);
    expect(mailsTo(`tokyo-${dialect}@example.com`)).toEqual([]);
    clock.set("2026-03-02T23:00:00Z");
    await sendNotifications(t.app);
    await smtp.waitFor(`tokyo-${dialect}@example.com`, /daily summary/);
    expect(mailsTo(`ny-${dialect}@example.com`).length).toBe(1);
    expect(await emailState(ny)).toEqual(["queued", "queued"]);
  });

  test("preferences: unknown type and bad time zone refused with their codes, nothing changed", async () => {
    const tok = (await userToken(t.app, a.userId)).secret;
    const before = (await t.request("GET", "/v1/notifications/preferences", { key: tok })).body;
    const bad = await t.request("POST", "/v1/notifications/preferences", {
      key: tok,
      body: { timezone: "Mars/Olympus", types: [{ type: "post.exploded", email: true }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { code: string }) => e.code).sort()).toEqual([
      "notification_type_invalid",
      "timezone_invalid",
    ]);
    expect((await t.request("GET", "/v1/notifications/preferences", { key: tok })).body).toEqual(before);
    const ok = await t.request("POST", "/v1/notifications/preferences", {
      key: tok,
      body: { timezone: "Europe/Berlin", types: [{ type: "member.joined", email: true, delivery: "daily" }] },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.timezone).toBe("Europe/Berlin");
    expect(ok.body.types.find((x: { type: string }) => x.type === "member.joined")).toMatchObject({
      email: true,
      delivery: "daily",
    });
    expect(ok.body.types.find((x: { type: string }) => x.type === "post.target_failed").email).toBe(false);
  });
});
