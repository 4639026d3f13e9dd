// Notifications raised in live mode at the specification's events, each reaching exactly its recipients (never
// the person who caused it), through the real publish worker and a local Discord stand-in; none in test mode; the
// channel one at most daily; and the /v1 routes: user tokens only, the person's own and the org's own.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { App } from "../../../src/app/context.ts";
import { recordEvent } from "../../../src/domain/events/record.ts";
import { addMember } from "../../../src/domain/identity/members/service.ts";
import { unreadCount } from "../../../src/domain/notifications/list.ts";
import { presentTarget } from "../../../src/domain/posts/present.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { member, type Tenant, tenant, userToken } from "../../helpers/factories.ts";
import { connectLive, drain, networkApp } from "../../helpers/networks.ts";
import { personActor } from "../../helpers/person.ts";
import { explain, statementsOf } from "../../helpers/sqlite-plans.ts";
import { type DiscordStandIn, startDiscord } from "../../stand-ins/discord.ts";
import { expectClean } from "../../stand-ins/server.ts";

setDefaultTimeout(30_000);

async function inbox(app: App, orgId: string) {
  const rows = await app.db
    .selectFrom("notifications")
    .select(["user_id", "type", "object_id", "email"])
    .where("org_id", "=", orgId)
    .execute();
  return rows;
}
const recipients = async (app: App, orgId: string, type: string, objectId?: string) =>
  (await inbox(app, orgId))
    .filter((r) => r.type === type && (objectId === undefined || r.object_id === objectId))
    .map((r) => r.user_id)
    .sort();

describeEachDialect("notifications raised", (dialect) => {
  let t: TestApp;
  let d: DiscordStandIn;
  let a: Tenant;
  let admin: string;
  let editor: string;
  let viewer: string;
  let editorLive: string;
  let adminLive: string;
  let channel: string;

  beforeAll(async () => {
    d = await startDiscord();
    t = await networkApp(dialect, { discord: d.url });
    a = await tenant(t.app);
    admin = await member(t.app, a.orgId, `admin-${dialect}@example.com`, "admin");
    editor = await member(t.app, a.orgId, `editor-${dialect}@example.com`, "editor");
    viewer = await member(t.app, a.orgId, `viewer-${dialect}@example.com`, "viewer");
    editorLive = (await userToken(t.app, editor, { livemode: true })).secret;
    adminLive = (await userToken(t.app, admin, { livemode: true })).secret;
    channel = (await connectLive(t, a, "discord", { webhook_url: d.addWebhook("Releases").url })).id;
  });
  afterAll(async () => {
    expectClean(d);
    await t.close();
    d.stop();
  });

  const owners = () => [a.userId].sort();
  const sorted = (...ids: string[]) => ids.sort();

  test("someone joined: the owners hear of it, not the owner who added them, not the newcomer", async () => {
    // Added by the operator (no person): every owner.
    expect(await recipients(t.app, a.orgId, "member.joined", admin)).toEqual(owners());
    const second = await member(t.app, a.orgId, `owner2-${dialect}@example.com`, "owner");
    const byOwner = await addMember(t.app, await personActor(t.app, a.userId, a.orgId), {
      email: `new-${dialect}@example.com`,
      role: "viewer",
      password: "correct horse battery staple",
    });
    expect(await recipients(t.app, a.orgId, "member.joined", byOwner.member.id)).toEqual([second]);
    await t.app.db.deleteFrom("members").where("user_id", "=", second).execute();
  });

  test("approval requested: admins and owners, not the requester; nothing in test mode", async () => {
    const policy = await t.request("POST", `/v1/brands/${a.brandId}`, {
      key: a.liveKey,
      body: { approval_policy: "required_for_all" },
    });
    expect(policy.status).toBe(200);
    const byEditor = await t.request("POST", "/v1/posts", {
      key: editorLive,
      body: { brand: a.brandId, content: { body: "Needs a look" }, channels: [channel] },
    });
    expect(byEditor.status).toBe(201);
    expect(await recipients(t.app, a.orgId, "post.approval_requested", byEditor.body.id)).toEqual(
      sorted(admin, a.userId),
    );
    const byAdmin = await t.request("POST", "/v1/posts", {
      key: adminLive,
      body: { brand: a.brandId, content: { body: "Mine too" }, channels: [channel] },
    });
    expect(byAdmin.status).toBe(201);
    expect(await recipients(t.app, a.orgId, "post.approval_requested", byAdmin.body.id)).toEqual(owners());
    // Test mode: the same request raises nothing.
    const before = (await inbox(t.app, a.orgId)).length;
    const testPost = await t.request("POST", "/v1/posts", {
      key: (await userToken(t.app, editor)).secret,
      body: { brand: a.brandId, content: { body: "Only a test" } },
    });
    expect(testPost.status).toBe(201);
    expect(testPost.body.status).toBe("pending_approval");
    expect((await inbox(t.app, a.orgId)).length).toBe(before);
    for (const id of [byEditor.body.id, byAdmin.body.id])
      await t.request("POST", `/v1/posts/${id}/cancel`, { key: a.liveKey });
    await t.request("POST", `/v1/brands/${a.brandId}`, { key: a.liveKey, body: { approval_policy: "none" } });
  });

  test("needs attention: author, admins and owners; failed on a channel: the author only", async () => {
    d.fail("reset_after_read");
    const r = await t.request("POST", "/v1/posts", {
      key: editorLive,
      body: { brand: a.brandId, content: { body: "Cut mid-answer" }, channels: [channel] },
    });
    expect(r.status).toBe(201);
    await drain(t);
    const target = r.body.targets[0].id;
    const row = await t.app.db
      .selectFrom("post_targets")
      .selectAll()
      .where("id", "=", target)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("needs_attention");
    expect(await recipients(t.app, a.orgId, "post.needs_attention", target)).toEqual(
      sorted(editor, admin, a.userId),
    );
    expect(await recipients(t.app, a.orgId, "post.needs_attention", target)).not.toContain(viewer);
    // The worker writes post_target.failed in the outcome's transaction; the hook answers the event itself.
    await t.app.db.transaction().execute((tx) =>
      recordEvent(tx, t.app, { orgId: a.orgId, livemode: true, requestId: null }, "post_target.failed", {
        ...presentTarget(row),
        status: "failed",
        error: { code: "rejected", message: "Discord refused it" },
      }),
    );
    expect(await recipients(t.app, a.orgId, "post.target_failed", target)).toEqual([editor]);
  });

  test("channel to connect again: admins and owners", async () => {
    const w = d.addWebhook("Soon deleted");
    const ch = await connectLive(t, a, "discord", { webhook_url: w.url });
    w.deleted = true;
    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: { brand: a.brandId, content: { body: "Will not go" }, channels: [ch.id] },
    });
    expect(r.status).toBe(201);
    await drain(t);
    expect(await recipients(t.app, a.orgId, "channel.needs_reauth", ch.id)).toEqual(sorted(admin, a.userId));
  });

  test("GET /v1/notifications: the person's own, in the org; unread; read one; read all", async () => {
    const list = await t.request("GET", "/v1/notifications", { key: editorLive });
    expect(list.status).toBe(200);
    expect(list.body.object).toBe("list");
    const types = list.body.data.map((n: { type: string }) => n.type).sort();
    expect(types).toEqual(["post.needs_attention", "post.target_failed"]);
    const n = list.body.data[0];
    expect(n).toMatchObject({ object: "notification", org: a.orgId, read_at: null });
    expect(n.link).toStartWith("http://localhost:8080/posts/");
    expect(typeof n.org_name).toBe("string");
    const read = await t.request("POST", `/v1/notifications/${n.id}/read`, { key: editorLive });
    expect(read.status).toBe(200);
    expect(read.body.read_at).not.toBeNull();
    const unread = await t.request("GET", "/v1/notifications?unread", { key: editorLive });
    expect(unread.body.data.map((x: { id: string }) => x.id)).not.toContain(n.id);
    expect(unread.body.data.length).toBe(1);
    // A test-mode sign-in of the same person sees the same notifications: they belong to the person, not a mode.
    const editorTest = (await userToken(t.app, editor)).secret;
    expect((await t.request("GET", "/v1/notifications", { key: editorTest })).body.data.length).toBe(2);
    const all = await t.request("POST", "/v1/notifications/read_all", { key: editorTest });
    expect(all.body).toEqual({ object: "notification_read_all", marked: 1 });
    expect((await t.request("GET", "/v1/notifications?unread=true", { key: editorLive })).body.data).toEqual(
      [],
    );
  });

  test("the bell's count is one statement over the partial index of unread rows", async () => {
    expect(await unreadCount(t.app, admin, a.orgId)).toBeGreaterThan(0);
    if (dialect !== "sqlite") return;
    const seen = await statementsOf(t, (app) => unreadCount(app, admin, a.orgId));
    expect(seen.length).toBe(1);
    const plan = explain(t, seen[0]!.sql, seen[0]!.parameters).join(" ");
    expect(plan).toContain("notifications_unread");
  });

  test("bad input: API keys refused, another member's or another org's notification is 404, nothing changes", async () => {
    for (const [m, p] of [
      ["GET", "/v1/notifications"],
      ["POST", "/v1/notifications/read_all"],
      ["GET", "/v1/notifications/preferences"],
    ] as const) {
      const r = await t.request(m, p, { key: a.liveKey });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe("forbidden");
    }
    const adminsOwn = await t.app.db
      .selectFrom("notifications")
      .select("id")
      .where("user_id", "=", admin)
      .where("read_at", "is", null)
      .executeTakeFirstOrThrow();
    const other = await t.request("POST", `/v1/notifications/${adminsOwn.id}/read`, { key: editorLive });
    expect(other.status).toBe(404);
    const b = await tenant(t.app);
    const outsider = (await userToken(t.app, b.userId, { livemode: true })).secret;
    expect(
      (await t.request("POST", `/v1/notifications/${adminsOwn.id}/read`, { key: outsider })).status,
    ).toBe(404);
    expect((await t.request("GET", "/v1/notifications", { key: outsider })).body.data).toEqual([]);
    expect((await t.request("POST", "/v1/notifications/read_all", { key: outsider })).body.marked).toBe(0);
    expect(
      (await t.request("POST", `/v1/notifications/${adminsOwn.id}/read`, { key: a.liveKey })).status,
    ).toBe(403);
    const still = await t.app.db
      .selectFrom("notifications")
      .select("read_at")
      .where("id", "=", adminsOwn.id)
      .executeTakeFirstOrThrow();
    expect(still.read_at).toBeNull();
    expect((await t.request("POST", "/v1/notifications/post_0000/read", { key: editorLive })).status).toBe(
      404,
    );
  });
});

describeEachDialect("channel notification at most daily", (dialect) => {
  let t: TestApp;
  const clock = new FakeClock(Date.parse("2026-03-02T09:00:00Z"));
  beforeAll(async () => {
    t = await testApp(dialect, { clock });
  });
  afterAll(() => t.close());

  test("a second refusal of the same channel within a day raises nothing; the next day it does", async () => {
    const a = await tenant(t.app);
    const needsReauth = (livemode = true) =>
      t.app.db.transaction().execute((tx) =>
        recordEvent(tx, t.app, { orgId: a.orgId, livemode, requestId: null }, "channel.needs_reauth", {
          id: "chan_daily",
          provider: "discord",
          display_name: "Releases",
        }),
      );
    const count = async () =>
      (
        await t.app.db
          .selectFrom("notifications")
          .select("id")
          .where("object_id", "=", "chan_daily")
          .execute()
      ).length;
    await needsReauth();
    expect(await count()).toBe(1);
    clock.advance(23 * 3600_000);
    await needsReauth();
    expect(await count()).toBe(1);
    await needsReauth(false);
    expect(await count()).toBe(1);
    clock.advance(2 * 3600_000);
    await needsReauth();
    expect(await count()).toBe(2);
  });
});
