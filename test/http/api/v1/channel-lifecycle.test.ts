// A channel's life over /v1 after it is connected: status, reauth and reconnect, delete, the live-channel limit.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { adminActor } from "../../../../src/domain/actor.ts";
import {
  createChannel,
  listChannels,
  markNeedsReauth,
  openSecrets,
} from "../../../../src/domain/channels/service.ts";
import { scopesOfRole } from "../../../../src/domain/scopes.ts";
import { type TestApp, testApp } from "../../../helpers/app.ts";
import { describeEachDialect } from "../../../helpers/db.ts";
import { type Tenant, tenant } from "../../../helpers/factories.ts";
import { schemaErrors } from "../../../helpers/schemas.ts";
import { linkedinNetwork } from "../../../helpers/signin.ts";

describeEachDialect("/v1/channels lifecycle", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  // LinkedIn checks pasted member tokens (a real authorization server issues them; a stand-in checks them).
  let linkedin: Awaited<ReturnType<typeof linkedinNetwork>>;
  beforeAll(async () => {
    linkedin = await linkedinNetwork();
    t = await testApp(dialect, { env: linkedin.env });
    a = await tenant(t.app, "Lifecycle Org");
  });
  afterAll(async () => {
    await t.close();
    await linkedin.close();
  });

  const create = (k: string, body: unknown) => t.request("POST", "/v1/channels", { key: k, body });
  const eventsOf = (type: string, objectId: string) =>
    t.app.db
      .selectFrom("events")
      .selectAll()
      .where("org_id", "=", a.orgId)
      .where("type", "=", type)
      .where("data", "like", `%${objectId}%`)
      .execute();

  test("status: disable and enable; a channel needing reauth is reconnected, not enabled", async () => {
    const id = (await create(a.testKey, { brand: a.brandId, provider: "sandbox" })).body.id;
    const off = await t.request("POST", `/v1/channels/${id}`, {
      key: a.testKey,
      body: { status: "disabled" },
    });
    expect([off.status, off.body.status]).toEqual([200, "disabled"]);
    const on = await t.request("POST", `/v1/channels/${id}`, {
      key: a.testKey,
      body: { status: "active" },
    });
    expect(on.body.status).toBe("active");
    const bad = await t.request("POST", `/v1/channels/${id}`, {
      key: a.testKey,
      body: { status: "needs_reauth" },
    });
    expect([bad.status, bad.body.code, bad.body.param]).toEqual([422, "status_invalid", "status"]);

    await t.app.db
      .transaction()
      .execute((tx) => markNeedsReauth(tx, t.app, id, "Token revoked by the network."));
    const broken = await t.request("GET", `/v1/channels/${id}`, { key: a.testKey });
    expect([broken.body.status, broken.body.status_note]).toEqual([
      "needs_reauth",
      "Token revoked by the network.",
    ]);
    const refused = await t.request("POST", `/v1/channels/${id}`, {
      key: a.testKey,
      body: { status: "active" },
    });
    expect([refused.status, refused.body.code]).toEqual([409, "needs_reauth"]);
    expect(refused.body.detail).toContain(`/v1/channels/${id}/reconnect`);

    const back = await t.request("POST", `/v1/channels/${id}/reconnect`, {
      key: a.testKey,
      body: { fields: { display_name: "Back Again" } },
    });
    expect(back.status).toBe(200);
    expect(schemaErrors("Channel", back.body)).toBe("");
    expect([back.body.status, back.body.status_note, back.body.check_error, back.body.display_name]).toEqual([
      "active",
      null,
      null,
      "Back Again",
    ]);
    expect(await eventsOf("channel.connected", id)).toHaveLength(2);
    expect(await eventsOf("channel.needs_reauth", id)).toHaveLength(1);
    const log = await t.request("GET", "/v1/audit_events?limit=100", { key: a.testKey });
    const actions = log.body.data
      .filter((e: { target: string }) => e.target === id)
      .map((e: { action: string }) => e.action);
    expect(actions).toEqual(["channel.reconnect", "channel.update", "channel.update", "channel.create"]);
  });

  test("reconnect replaces the fields and seals the new secret; a disabled channel stays disabled", async () => {
    const oldToken = await linkedin.token("lifecycle");
    const newToken = await linkedin.token("lifecycle");
    const id = (
      await create(a.liveKey, {
        brand: a.brandId,
        provider: "linkedin",
        fields: { access_token: oldToken, api_version: "202601" },
      })
    ).body.id;
    await t.request("POST", `/v1/channels/${id}`, { key: a.liveKey, body: { status: "disabled" } });
    const missing = await t.request("POST", `/v1/channels/${id}/reconnect`, {
      key: a.liveKey,
      body: { fields: { api_version: "202601" } },
    });
    expect([missing.status, missing.body.code, missing.body.param]).toEqual([
      422,
      "field_required",
      "fields.access_token",
    ]);
    const r = await t.request("POST", `/v1/channels/${id}/reconnect`, {
      key: a.liveKey,
      body: { fields: { access_token: newToken, api_version: "202602" } },
    });
    expect([r.status, r.body.status, r.body.settings]).toEqual([
      200,
      "disabled",
      { api_version: "202602", author: linkedin.author("lifecycle") },
    ]);
    const row = await t.app.db
      .selectFrom("channels")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(await openSecrets(t.app, row)).toEqual({ access_token: newToken });
    expect(row.secrets).not.toContain(newToken);
  });

  test("delete answers the deleted envelope and the channel is gone", async () => {
    const id = (await create(a.testKey, { brand: a.brandId, provider: "sandbox" })).body.id;
    const r = await t.request("DELETE", `/v1/channels/${id}`, { key: a.testKey });
    expect([r.status, r.body]).toEqual([200, { id, object: "channel", deleted: true }]);
    expect(schemaErrors("Deleted", r.body)).toBe("");
    expect((await t.request("GET", `/v1/channels/${id}`, { key: a.testKey })).status).toBe(404);
    expect((await t.request("DELETE", `/v1/channels/${id}`, { key: a.testKey })).status).toBe(404);
    const wrongPrefix = await t.request("GET", `/v1/channels/${a.brandId}`, { key: a.testKey });
    expect([wrongPrefix.status, wrongPrefix.body.code]).toEqual([404, "resource_missing"]);
  });

  test("deleting a channel cancels the targets still waiting on it; other channels' targets go on", async () => {
    const gone = (await create(a.testKey, { brand: a.brandId, provider: "sandbox" })).body.id;
    const stays = (await create(a.testKey, { brand: a.brandId, provider: "sandbox" })).body.id;
    const later = new Date(Date.now() + 3600_000).toISOString();
    const both = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: { brand: a.brandId, content: { body: "Two" }, channels: [gone, stays], publish_at: later },
    });
    const only = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: { brand: a.brandId, content: { body: "One" }, channels: [gone], publish_at: later },
    });
    expect([both.status, only.status]).toEqual([201, 201]);
    expect((await t.request("DELETE", `/v1/channels/${gone}`, { key: a.testKey })).status).toBe(200);
    const b = (await t.request("GET", `/v1/posts/${both.body.id}`, { key: a.testKey })).body;
    const byChannel = Object.fromEntries(
      b.targets.map((x: { channel: string; status: string }) => [x.channel, x.status]),
    );
    expect(byChannel).toEqual({ [gone]: "canceled", [stays]: "queued" });
    // Reference §3: a post with some targets finished and others still waiting counts as publishing.
    expect(b.status).toBe("publishing");
    const o = (await t.request("GET", `/v1/posts/${only.body.id}`, { key: a.testKey })).body;
    expect([o.status, o.targets[0].status]).toEqual(["canceled", "canceled"]);
    // A post that ends canceled is announced once, like any post that ends; the one that goes on is not.
    const canceled = await t.app.db
      .selectFrom("events")
      .select("data")
      .where("type", "=", "post.canceled")
      .where("org_id", "=", a.orgId)
      .execute();
    const ids = canceled.map((e) => JSON.parse(e.data).object.id);
    expect(ids.filter((id) => id === only.body.id)).toHaveLength(1);
    expect(ids).not.toContain(both.body.id);
  });

  test("deleting a channel cancels its held and needs_attention targets too, and leaves published ones", async () => {
    const c = await tenant(t.app, "Deleting Org");
    const gone = (await create(c.testKey, { brand: c.brandId, provider: "sandbox" })).body.id;
    const later = new Date(Date.now() + 3600_000).toISOString();
    const post = (text: string) =>
      t.request("POST", "/v1/posts", {
        key: c.testKey,
        body: { brand: c.brandId, content: { body: text }, channels: [gone], publish_at: later },
      });
    const published = (await post("Published")).body;
    const stuck = (await post("Needs attention")).body;
    // The worker's outcomes, written as it records them: these tests are about what deletion touches.
    await t.app.db
      .updateTable("post_targets")
      .set({ status: "published", next_attempt_at: null, published_at: Date.now() })
      .where("post_id", "=", published.id)
      .execute();
    await t.app.db
      .updateTable("post_targets")
      .set({ status: "needs_attention", next_attempt_at: null, error_code: "worker_lost" })
      .where("post_id", "=", stuck.id)
      .execute();
    // A brand that needs approval holds its targets until someone approves.
    await t.app.db
      .updateTable("brands")
      .set({ approval_policy: "required_for_all" })
      .where("id", "=", c.brandId)
      .execute();
    const held = (await post("Held")).body;
    expect([held.status, held.targets[0].status]).toEqual(["pending_approval", "held"]);

    const r = await t.request("DELETE", `/v1/channels/${gone}`, { key: c.testKey });
    expect(r.status).toBe(200);
    const statusOf = async (id: string) =>
      (await t.request("GET", `/v1/posts/${id}`, { key: c.testKey })).body.targets[0].status;
    expect(await statusOf(held.id)).toBe("canceled");
    expect(await statusOf(stuck.id)).toBe("canceled");
    expect(await statusOf(published.id)).toBe("published");
    const audit = await t.app.db
      .selectFrom("audit_events")
      .select("detail")
      .where("action", "=", "channel.delete")
      .where("target", "=", gone)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.detail!).targets_canceled).toBe(2);
  });

  test("the org's channel limit counts live channels only", async () => {
    const c = await tenant(t.app, "Limited Org");
    await t.app.db.updateTable("orgs").set({ limit_channels: 1 }).where("id", "=", c.orgId).execute();
    const first = await create(c.liveKey, {
      brand: c.brandId,
      provider: "linkedin",
      fields: { access_token: await linkedin.token("limited-1"), api_version: "202601" },
    });
    expect(first.status).toBe(201);
    const second = await create(c.liveKey, {
      brand: c.brandId,
      provider: "linkedin",
      fields: { access_token: await linkedin.token("limited-2"), api_version: "202601" },
    });
    expect([second.status, second.body.code, second.body.param]).toEqual([403, "limit_reached", "channels"]);
    // Test channels are not counted (the bootstrap sandbox channel already exists beside the live one).
    expect((await create(c.testKey, { brand: c.brandId, provider: "sandbox" })).status).toBe(201);
    const n = await t.app.db
      .selectFrom("channels")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("org_id", "=", c.orgId)
      .where("livemode", "=", 1)
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(1);
  });

  test("a person's role decides: a viewer reads channels but cannot connect one", async () => {
    const viewer = { ...adminActor(a.orgId, "test", scopesOfRole("viewer")), kind: "user" as const };
    expect((await listChannels(t.app, viewer, {})).data.length).toBeGreaterThan(0);
    await expect(
      createChannel(t.app, viewer, { brand: a.brandId, provider: "sandbox" }),
    ).rejects.toMatchObject({
      status: 403,
      code: "forbidden",
    });
  });

  test("the OpenAPI document carries the channel routes and the Channel schema", async () => {
    const doc = await (await t.http.handle(new Request("http://localhost/v1/openapi.yaml"))).text();
    expect(doc).toContain("/v1/channels/{id}/reconnect:");
    expect(doc).toContain("ChannelList:");
    expect(doc).toContain("PlatformList:");
    expect(doc).toContain("x-scope: channels:write");
  });
});
