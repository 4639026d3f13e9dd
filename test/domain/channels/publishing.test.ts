// What the publishing engine calls: loadChannel, channelsForPost, markNeedsReauth, holdChannel, adapterChannel.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Actor, adminActor } from "../../../src/domain/actor.ts";
import {
  adapterChannel,
  channelsForPost,
  connectChannel,
  holdChannel,
  loadChannel,
  markNeedsReauth,
} from "../../../src/domain/channels/service.ts";
import { scopesOfRole } from "../../../src/domain/scopes.ts";
import { newId } from "../../../src/lib/ids.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

describeEachDialect("channels for publishing", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let test_: Actor;
  let live: Actor;
  let otherBrand: string;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app, "Publishing Org");
    test_ = adminActor(a.orgId, "test", scopesOfRole("owner"), false);
    live = adminActor(a.orgId, "test", scopesOfRole("owner"), true);
    const b = await t.request("POST", "/v1/brands", { key: a.testKey, body: { name: "Elsewhere" } });
    otherBrand = b.body.id;
  });
  afterAll(() => t.close());

  const connect = (actor: Actor, brandId: string, c: Parameters<typeof connectChannel>[4]) =>
    t.app.db.transaction().execute((tx) => connectChannel(tx, t.app, actor, brandId, c));
  const sandbox = (brandId = a.brandId) => connect(test_, brandId, { provider: "sandbox" });
  const setStatus = (id: string, status: "active" | "disabled" | "needs_reauth") =>
    t.app.db.updateTable("channels").set({ status }).where("id", "=", id).execute();

  test("loadChannel finds a channel only in the actor's org, mode and brand", async () => {
    const c = await sandbox();
    expect((await loadChannel(t.app.db, test_, c.id)).provider).toBe("sandbox");
    await expect(loadChannel(t.app.db, live, c.id)).rejects.toMatchObject({
      status: 404,
      code: "resource_missing",
    });
    const stranger = await tenant(t.app, "Stranger Org");
    const theirs = adminActor(stranger.orgId, "test", scopesOfRole("owner"));
    await expect(loadChannel(t.app.db, theirs, c.id)).rejects.toMatchObject({ code: "resource_missing" });
    const limited = { ...test_, brandId: otherBrand };
    await expect(loadChannel(t.app.db, limited, c.id)).rejects.toMatchObject({ code: "resource_missing" });
    await expect(loadChannel(t.app.db, test_, "post_0000000000000000000000000")).rejects.toMatchObject({
      code: "resource_missing",
      param: "id",
    });
  });

  test("a post's default channels are the brand's active channels in the actor's mode", async () => {
    const brand = (await t.request("POST", "/v1/brands", { key: a.testKey, body: { name: "Defaults" } })).body
      .id;
    const one = await sandbox(brand);
    const two = await sandbox(brand);
    const off = await sandbox(brand);
    const broken = await sandbox(brand);
    await setStatus(off.id, "disabled");
    await setStatus(broken.id, "needs_reauth");
    await sandbox(otherBrand);
    const r = await channelsForPost(t.app.db, test_, brand, undefined);
    expect(r.channels.map((c) => c.id)).toEqual([one.id, two.id]);
    expect(r.problems).toEqual([]);
    expect(await channelsForPost(t.app.db, live, brand, undefined)).toEqual({ channels: [], problems: [] });
  });

  test("named channels are each checked, every problem listed by position", async () => {
    const ok = await sandbox();
    const inactive = await sandbox();
    await setStatus(inactive.id, "disabled");
    const elsewhere = await sandbox(otherBrand);
    const missing = newId("chan");
    const r = await channelsForPost(t.app.db, test_, a.brandId, [
      ok.id,
      "chan_nope",
      missing,
      elsewhere.id,
      inactive.id,
      ok.id,
    ]);
    expect(r.channels.map((c) => c.id)).toEqual([ok.id]);
    expect(r.problems.map((p) => [p.code, p.param, (p.detail as { channel: string }).channel])).toEqual([
      ["channel_invalid", "channels.1", "chan_nope"],
      ["channel_missing", "channels.2", missing],
      ["channel_other_brand", "channels.3", elsewhere.id],
      ["channel_inactive", "channels.4", inactive.id],
    ]);
    // A brand-limited key is not told that another brand's channel exists.
    const limited = { ...test_, brandId: a.brandId };
    const hidden = await channelsForPost(t.app.db, limited, a.brandId, [elsewhere.id]);
    expect(hidden.problems.map((p) => p.code)).toEqual(["channel_missing"]);
    // The other mode's channel is missing too.
    const inLive = await channelsForPost(t.app.db, live, a.brandId, [ok.id]);
    expect(inLive.problems.map((p) => p.code)).toEqual(["channel_missing"]);
    expect(await channelsForPost(t.app.db, test_, a.brandId, [])).toEqual({ channels: [], problems: [] });
  });

  test("markNeedsReauth changes the status once, with one channel.needs_reauth event", async () => {
    const c = await connect(live, a.brandId, {
      provider: "mastodon",
      fields: { instance: "https://social.example", access_token: "tok" },
    });
    const marked = await t.app.db
      .transaction()
      .execute((tx) => markNeedsReauth(tx, t.app, c.id, "The server said 401: token revoked."));
    expect(marked).toMatchObject({
      id: c.id,
      status: "needs_reauth",
      status_note: "The server said 401: token revoked.",
    });
    expect(marked!.check_error).toBe("The server said 401: token revoked.");
    expect(marked!.checked_at).not.toBeNull();
    const again = await t.app.db
      .transaction()
      .execute((tx) => markNeedsReauth(tx, t.app, c.id, "Still revoked."));
    expect(again).toBeNull();
    const events = await t.app.db
      .selectFrom("events")
      .selectAll()
      .where("type", "=", "channel.needs_reauth")
      .where("data", "like", `%${c.id}%`)
      .execute();
    expect(events).toHaveLength(1);
    expect([events[0]!.org_id, events[0]!.livemode, events[0]!.request_id]).toEqual([a.orgId, 1, null]);
    expect(JSON.parse(events[0]!.data).object.status_note).toBe("The server said 401: token revoked.");
    const row = await loadChannel(t.app.db, live, c.id);
    expect(row.status).toBe("needs_reauth");
    // Rolled back with the transaction it was part of: no change, no event.
    const d = await sandbox();
    await t.app.db
      .transaction()
      .execute(async (tx) => {
        await markNeedsReauth(tx, t.app, d.id, "x");
        throw new Error("rollback");
      })
      .catch(() => {});
    expect((await loadChannel(t.app.db, test_, d.id)).status).toBe("active");
  });

  test("holdChannel keeps the later of two holds", async () => {
    const c = await sandbox();
    await holdChannel(t.app.db, c.id, 5_000);
    await holdChannel(t.app.db, c.id, 3_000);
    expect((await loadChannel(t.app.db, test_, c.id)).rate_limited_until).toBe(5_000);
    await holdChannel(t.app.db, c.id, 9_000);
    expect((await loadChannel(t.app.db, test_, c.id)).rate_limited_until).toBe(9_000);
  });

  test("adapterChannel gives the adapter its settings and opened secrets", async () => {
    const c = await connect(live, a.brandId, {
      provider: "telegram",
      fields: { bot_token: "123:secret", chat_id: "@news" },
    });
    const row = await loadChannel(t.app.db, live, c.id);
    expect(await adapterChannel(t.app, row)).toEqual({
      id: c.id,
      provider: "telegram",
      emulates: null,
      settings: { chat_id: "@news" },
      secrets: { bot_token: "123:secret" },
    });
    const box = await loadChannel(t.app.db, test_, (await sandbox()).id);
    expect(box.secrets).toBeNull();
    expect((await adapterChannel(t.app, box)).secrets).toEqual({});
  });
});
