// Connecting channels over /v1: per mode, connect fields, sealed secrets, lists and brand-limited keys.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { openSecrets } from "../../../../src/domain/channels/service.ts";
import { type TestApp, testApp } from "../../../helpers/app.ts";
import { describeEachDialect } from "../../../helpers/db.ts";
import { key, type Tenant, tenant } from "../../../helpers/factories.ts";
import { schemaErrors } from "../../../helpers/schemas.ts";
import { linkedinNetwork } from "../../../helpers/signin.ts";

const BLUESKY = { identifier: "alice.example.com", app_password: "abcd-efgh-ijkl-mnop" };

describeEachDialect("/v1/channels", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  // LinkedIn checks a pasted member token (a real authorization server issues it; a stand-in checks it).
  let linkedin: Awaited<ReturnType<typeof linkedinNetwork>>;
  let LINKEDIN: { access_token: string; api_version: string };
  beforeAll(async () => {
    linkedin = await linkedinNetwork();
    t = await testApp(dialect, { env: linkedin.env });
    a = await tenant(t.app, "Channel Org");
    LINKEDIN = { access_token: await linkedin.token("member"), api_version: "202601" };
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

  test("bootstrap gave the first brand a test-mode sandbox channel emulating Bluesky", async () => {
    const r = await t.request("GET", "/v1/channels", { key: a.testKey });
    expect(r.status).toBe(200);
    expect(r.body.url).toBe("/v1/channels");
    expect(r.body.data).toHaveLength(1);
    const c = r.body.data[0];
    expect([c.brand, c.provider, c.emulates, c.livemode, c.status]).toEqual([
      a.brandId,
      "sandbox",
      "bluesky",
      false,
      "active",
    ]);
    expect(c.display_name).toBe("Sandbox Bluesky");
    expect(schemaErrors("Channel", c)).toBe("");
    expect(await eventsOf("channel.connected", c.id)).toHaveLength(1);
    const live = await t.request("GET", "/v1/channels", { key: a.liveKey });
    expect(live.body.data).toEqual([]);
  });

  test("a test key connects a sandbox channel with its own name, handle and emulated provider", async () => {
    const r = await create(a.testKey, {
      brand: a.brandSlug,
      provider: "sandbox",
      emulates: "mastodon",
      fields: { display_name: "Pretend Toots", handle: "@toots" },
    });
    expect(r.status).toBe(201);
    expect(schemaErrors("Channel", r.body)).toBe("");
    expect(r.body.id).toMatch(/^chan_[0-7][0-9a-z]{25}$/);
    expect(r.body).toMatchObject({
      object: "channel",
      brand: a.brandId,
      livemode: false,
      provider: "sandbox",
      emulates: "mastodon",
      display_name: "Pretend Toots",
      handle: "@toots",
      profile_url: null,
      settings: { display_name: "Pretend Toots", handle: "@toots" },
      status: "active",
      status_note: null,
      check_error: null,
    });
    const got = await t.request("GET", `/v1/channels/${r.body.id}`, { key: a.testKey });
    expect(got.body).toEqual(r.body);
    const events = await eventsOf("channel.connected", r.body.id);
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.data).object.emulates).toBe("mastodon");
    expect(events[0]!.livemode).toBe(0);
    const log = await t.request("GET", "/v1/audit_events?limit=100", { key: a.testKey });
    const row = log.body.data.find((e: { target: string }) => e.target === r.body.id);
    expect([row.action, row.detail.provider, row.detail.emulates]).toEqual([
      "channel.create",
      "sandbox",
      "mastodon",
    ]);
  });

  test("test mode reaches only the sandbox and live mode never does", async () => {
    const realInTest = await create(a.testKey, { brand: a.brandId, provider: "bluesky", fields: BLUESKY });
    expect([realInTest.status, realInTest.body.code, realInTest.body.param]).toEqual([
      422,
      "provider_unavailable",
      "provider",
    ]);
    const sandboxInLive = await create(a.liveKey, { brand: a.brandId, provider: "sandbox" });
    expect([sandboxInLive.status, sandboxInLive.body.code]).toEqual([422, "provider_unavailable"]);
    const unknown = await create(a.testKey, { brand: a.brandId, provider: "myspace" });
    expect([unknown.status, unknown.body.code, unknown.body.param]).toEqual([
      422,
      "provider_invalid",
      "provider",
    ]);
    const emulatesReal = await create(a.liveKey, {
      brand: a.brandId,
      provider: "bluesky",
      emulates: "x",
      fields: BLUESKY,
    });
    expect([emulatesReal.body.code, emulatesReal.body.param]).toEqual(["provider_invalid", "emulates"]);
    const emulatesUnknown = await create(a.testKey, {
      brand: a.brandId,
      provider: "sandbox",
      emulates: "orkut",
    });
    expect([emulatesUnknown.status, emulatesUnknown.body.code, emulatesUnknown.body.param]).toEqual([
      422,
      "provider_unknown",
      "emulates",
    ]);
  });

  test("connect fields: every missing and unknown field is listed; values must be strings", async () => {
    const r = await create(a.liveKey, {
      brand: a.brandId,
      provider: "telegram",
      fields: { chat_id: " ", token: "x", extra: "y" },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { code: string; param: string }) => `${e.code} ${e.param}`).sort()).toEqual([
      "field_required fields.bot_token",
      "field_required fields.chat_id",
      "field_unknown fields.extra",
      "field_unknown fields.token",
    ]);
    const type = await create(a.liveKey, {
      brand: a.brandId,
      provider: "telegram",
      fields: { chat_id: 5 },
    });
    expect([type.status, type.body.code, type.body.param]).toEqual([
      400,
      "parameter_invalid",
      "fields.chat_id",
    ]);
    const missing = await create(a.testKey, { provider: "sandbox" });
    expect([missing.status, missing.body.code, missing.body.param]).toEqual([
      400,
      "parameter_missing",
      "brand",
    ]);
    const noBrand = await create(a.testKey, { brand: "no-such-brand", provider: "sandbox" });
    expect([noBrand.status, noBrand.body.code, noBrand.body.param]).toEqual([
      404,
      "resource_missing",
      "brand",
    ]);
  });

  test("a live channel keeps its secret fields sealed to its row and never returns them", async () => {
    const r = await create(a.liveKey, { brand: a.brandId, provider: "linkedin", fields: LINKEDIN });
    expect(r.status).toBe(201);
    expect(schemaErrors("Channel", r.body)).toBe("");
    expect(r.body.livemode).toBe(true);
    expect(r.body.emulates).toBeNull();
    // LinkedIn read the member with the token when connecting (test/platforms/linkedin has the rest); the token
    // is not among the settings, the member it belongs to is.
    expect(r.body.checked_at).not.toBeNull();
    expect(r.body.settings).toEqual({ api_version: "202601", author: linkedin.author("member") });
    expect(JSON.stringify(r.body)).not.toContain(LINKEDIN.access_token);
    const row = await t.app.db
      .selectFrom("channels")
      .selectAll()
      .where("id", "=", r.body.id)
      .executeTakeFirstOrThrow();
    expect(row.secrets).toStartWith("v1:");
    expect(row.secrets).not.toContain(LINKEDIN.access_token);
    expect(row.secrets).not.toContain("access_token");
    expect(await openSecrets(t.app, row)).toEqual({ access_token: LINKEDIN.access_token });
    // Sealed to (channels, this row, secrets): the same value copied to another channel does not open.
    const other = (await create(a.liveKey, { brand: a.brandId, provider: "linkedin", fields: LINKEDIN })).body
      .id;
    await t.app.db.updateTable("channels").set({ secrets: row.secrets }).where("id", "=", other).execute();
    const copied = await t.app.db
      .selectFrom("channels")
      .selectAll()
      .where("id", "=", other)
      .executeTakeFirstOrThrow();
    await expect(openSecrets(t.app, copied)).rejects.toMatchObject({ code: "credentials_unreadable" });
    // Each mode sees only its own channels.
    const test = await t.request("GET", `/v1/channels/${r.body.id}`, { key: a.testKey });
    expect([test.status, test.body.code]).toEqual([404, "resource_missing"]);
  });

  test("lists filter by brand ID or slug and page newest first", async () => {
    const second = await t.request("POST", "/v1/brands", {
      key: a.testKey,
      body: { name: "Second Brand" },
    });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (
          await create(a.testKey, {
            brand: second.body.id,
            provider: "sandbox",
            fields: { handle: `h${i}` },
          })
        ).body.id,
      );
    const bySlug = await t.request("GET", `/v1/channels?brand=${second.body.slug}&limit=2`, {
      key: a.testKey,
    });
    expect(bySlug.body.data.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1]]);
    expect(bySlug.body.has_more).toBe(true);
    const next = await t.request(
      "GET",
      `/v1/channels?brand=${second.body.id}&starting_after=${bySlug.body.data[1].id}`,
      { key: a.testKey },
    );
    expect(next.body.data.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    expect(next.body.has_more).toBe(false);
    for (const c of next.body.data) expect(schemaErrors("Channel", c)).toBe("");
    const unknown = await t.request("GET", "/v1/channels?brand=nope", { key: a.testKey });
    expect([unknown.status, unknown.body.code, unknown.body.param]).toEqual([
      404,
      "resource_missing",
      "brand",
    ]);
    const bad = await t.request("GET", "/v1/channels?provider=x", { key: a.testKey });
    expect([bad.status, bad.body.code]).toEqual([400, "parameter_unknown"]);
  });

  test("a brand-limited key sees and connects only its own brand's channels", async () => {
    const other = await t.request("POST", "/v1/brands", { key: a.testKey, body: { name: "Other Brand" } });
    const foreign = (await create(a.testKey, { brand: other.body.id, provider: "sandbox" })).body.id;
    const limited = await key(t.app, a.orgId, { name: "brand only", brand: a.brandId });
    const list = await t.request("GET", "/v1/channels", { key: limited });
    expect(list.body.data.length).toBeGreaterThan(0);
    expect(list.body.data.every((c: { brand: string }) => c.brand === a.brandId)).toBe(true);
    const get = await t.request("GET", `/v1/channels/${foreign}`, { key: limited });
    expect([get.status, get.body.code]).toEqual([404, "resource_missing"]);
    const del = await t.request("DELETE", `/v1/channels/${foreign}`, { key: limited });
    expect(del.status).toBe(404);
    const make = await create(limited, { brand: other.body.id, provider: "sandbox" });
    expect([make.status, make.body.code, make.body.param]).toEqual([404, "resource_missing", "brand"]);
    const own = await create(limited, { brand: a.brandId, provider: "sandbox" });
    expect([own.status, own.body.brand]).toEqual([201, a.brandId]);
    const filtered = await t.request("GET", `/v1/channels?brand=${other.body.id}`, { key: limited });
    expect(filtered.status).toBe(404);
  });
});
