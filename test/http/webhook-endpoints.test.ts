// The webhook endpoint API: create with the secret shown once, URL and event rules, list, get, update, disable
// and enable, roll, delete; scoped by org and mode; brand-limited keys refused; every change audited.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { key, type Tenant, tenant } from "../helpers/factories.ts";
import { schemaErrors } from "../helpers/schema.ts";

describeEachDialect("webhook endpoints", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
  });
  afterAll(() => t.close());

  const post = (path: string, body: unknown, k = a.testKey) => t.request("POST", path, { key: k, body });
  const get = (path: string, k = a.testKey) => t.request("GET", path, { key: k });

  test("create shows the whsec_ secret once; get and list never do", async () => {
    const r = await post("/v1/webhook_endpoints", {
      url: "http://example.com/hooks",
      description: "Orders",
      enabled_events: ["post.published", "post.failed", "post.published"],
    });
    expect(r.status).toBe(201);
    expect(schemaErrors("WebhookEndpoint", r.body)).toBeNull();
    expect(r.body.id).toMatch(/^whep_[0-9a-z]{26}$/);
    expect(r.body.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(r.body).toMatchObject({
      object: "webhook_endpoint",
      url: "http://example.com/hooks",
      description: "Orders",
      enabled_events: ["post.published", "post.failed"],
      status: "enabled",
      disabled_reason: null,
      livemode: false,
    });
    const one = await get(`/v1/webhook_endpoints/${r.body.id}`);
    expect(one.status).toBe(200);
    expect(one.body.secret).toBeUndefined();
    expect(schemaErrors("WebhookEndpoint", one.body)).toBeNull();
    const list = await get("/v1/webhook_endpoints");
    expect(schemaErrors("WebhookEndpointList", list.body)).toBeNull();
    expect(list.body.data.map((e: { id: string }) => e.id)).toContain(r.body.id);
    expect(list.body.data.every((e: object) => !("secret" in e))).toBe(true);

    // Sealed at rest: the stored column is not the secret.
    const row = await t.app.db
      .selectFrom("webhook_endpoints")
      .select("secret")
      .where("id", "=", r.body.id)
      .executeTakeFirstOrThrow();
    expect(row.secret.startsWith("v1:")).toBe(true);
    expect(row.secret).not.toContain(r.body.secret);
  });

  test("enabled_events defaults to *; * absorbs the rest", async () => {
    const r = await post("/v1/webhook_endpoints", { url: "https://example.com/a" });
    expect(r.body.enabled_events).toEqual(["*"]);
    expect(r.body.description).toBe("");
    const s = await post("/v1/webhook_endpoints", {
      url: "https://example.com/b",
      enabled_events: ["post.created", "*"],
    });
    expect(s.body.enabled_events).toEqual(["*"]);
  });

  test("URL rules: url_invalid, url_insecure in live mode; event_type_invalid; description_invalid", async () => {
    const codes = async (body: unknown, k = a.testKey) => {
      const r = await post("/v1/webhook_endpoints", body, k);
      return [r.status, r.body.code, r.body.param];
    };
    expect(await codes({ url: "ftp://example.com/x" })).toEqual([422, "url_invalid", "url"]);
    expect(await codes({ url: "/relative/path" })).toEqual([422, "url_invalid", "url"]);
    expect(await codes({ url: "https://user:pw@example.com/x" })).toEqual([422, "url_invalid", "url"]);
    expect(await codes({ url: `https://example.com/${"x".repeat(2048)}` })).toEqual([
      422,
      "url_invalid",
      "url",
    ]);
    // A private IP literal is refused at once when SVC_ALLOW_PRIVATE_WEBHOOKS is off.
    expect(await codes({ url: "http://127.0.0.1:9/x" })).toEqual([422, "url_invalid", "url"]);
    expect(await codes({ url: "http://[::1]/x" })).toEqual([422, "url_invalid", "url"]);
    // Every IPv6 form that carries an IPv4 address is judged by the address it carries.
    for (const host of [
      "[::169.254.169.254]",
      "[::127.0.0.1]",
      "[::ffff:10.0.0.1]",
      "[64:ff9b::169.254.169.254]",
      "[2002:a9fe:a9fe::1]",
      "[2001:0:4136:e378:8000:63bf:80ff:fffe]",
    ]) {
      expect([host, ...(await codes({ url: `http://${host}/x` }))]).toEqual([
        host,
        422,
        "url_invalid",
        "url",
      ]);
    }
    expect(await codes({ url: "http://example.com/x" }, a.liveKey)).toEqual([422, "url_insecure", "url"]);
    expect((await post("/v1/webhook_endpoints", { url: "https://example.com/x" }, a.liveKey)).status).toBe(
      201,
    );
    expect(await codes({ url: "https://example.com/x", enabled_events: ["post.exploded"] })).toEqual([
      422,
      "event_type_invalid",
      "enabled_events.0",
    ]);
    expect(await codes({ url: "https://example.com/x", enabled_events: [] })).toEqual([
      422,
      "event_type_invalid",
      "enabled_events",
    ]);
    expect(await codes({ url: "https://example.com/x", description: "d".repeat(501) })).toEqual([
      422,
      "description_invalid",
      "description",
    ]);
    expect(
      (await post("/v1/webhook_endpoints", { url: "https://example.com/x", description: "d".repeat(500) }))
        .status,
    ).toBe(201);
    expect(await codes({})).toEqual([400, "parameter_missing", "url"]);
    expect(await codes({ url: "https://example.com/x", secret: "mine" })).toEqual([
      400,
      "parameter_unknown",
      "secret",
    ]);
  });

  test("a name is resolved and judged at creation as at delivery; every refusal names the setting", async () => {
    // http://localhost/… was accepted and then every delivery failed for three days.
    for (const url of ["http://localhost/hook", "http://127.0.0.1/hook", "http://[::1]:8080/hook"]) {
      const r = await post("/v1/webhook_endpoints", { url });
      expect([url, r.status, r.body.code, r.body.param]).toEqual([url, 422, "url_invalid", "url"]);
      expect(r.body.errors[0].message).toContain("non-public address (loopback)");
      expect(r.body.errors[0].message).toContain("SVC_ALLOW_PRIVATE_WEBHOOKS");
    }
    const ep = (await post("/v1/webhook_endpoints", { url: "http://example.com/moving" })).body;
    const moved = await post(`/v1/webhook_endpoints/${ep.id}`, { url: "http://localhost:9/hook" });
    expect([moved.status, moved.body.code]).toEqual([422, "url_invalid"]);
    expect(moved.body.errors[0].message).toContain("SVC_ALLOW_PRIVATE_WEBHOOKS");
    // A name that does not resolve now cannot be judged: it is kept, and each delivery judges it then.
    expect((await post("/v1/webhook_endpoints", { url: "http://svc-test.invalid/hook" })).status).toBe(201);

    // The setting that allows the address allows the endpoint, by name or by address.
    for (const allow of ["localhost", "true", "127.0.0.0/8"]) {
      const open = await testApp(dialect, { env: { SVC_ALLOW_PRIVATE_WEBHOOKS: allow } });
      try {
        const b = await tenant(open.app);
        const r = await open.request("POST", "/v1/webhook_endpoints", {
          key: b.testKey,
          body: { url: "http://localhost:9/hook" },
        });
        expect([allow, r.status]).toEqual([allow, 201]);
      } finally {
        await open.close();
      }
    }
  });

  test("update, disable and enable; audit rows", async () => {
    const ep = (await post("/v1/webhook_endpoints", { url: "http://example.com/u" })).body;
    const u = await post(`/v1/webhook_endpoints/${ep.id}`, {
      url: "http://example.com/v2",
      description: "v2",
      enabled_events: ["channel.connected"],
    });
    expect(u.status).toBe(200);
    expect(u.body).toMatchObject({
      url: "http://example.com/v2",
      description: "v2",
      enabled_events: ["channel.connected"],
      status: "enabled",
    });
    const off = await post(`/v1/webhook_endpoints/${ep.id}`, { disabled: true });
    expect([off.body.status, off.body.disabled_reason]).toEqual(["disabled", "requested"]);
    expect((await get(`/v1/webhook_endpoints/${ep.id}`)).body.status).toBe("disabled");
    const on = await post(`/v1/webhook_endpoints/${ep.id}`, { disabled: false });
    expect([on.body.status, on.body.disabled_reason]).toEqual(["enabled", null]);
    const bad = await post(`/v1/webhook_endpoints/${ep.id}`, { url: "gopher://x" });
    expect([bad.status, bad.body.code]).toEqual([422, "url_invalid"]);
    const audit = await get("/v1/audit_events?limit=100");
    const mine = audit.body.data.filter((e: { target: string }) => e.target === ep.id);
    expect(mine.map((e: { action: string }) => e.action).sort()).toEqual([
      "webhook_endpoint.create",
      "webhook_endpoint.update",
      "webhook_endpoint.update",
      "webhook_endpoint.update",
    ]);
  });

  test("roll_secret: a new secret shown once; overlap_hours 0-168", async () => {
    const ep = (await post("/v1/webhook_endpoints", { url: "http://example.com/r" })).body;
    const r = await post(`/v1/webhook_endpoints/${ep.id}/roll_secret`, { overlap_hours: 2 });
    expect(r.status).toBe(200);
    expect(r.body.secret).toMatch(/^whsec_/);
    expect(r.body.secret).not.toBe(ep.secret);
    const row = await t.app.db
      .selectFrom("webhook_endpoints")
      .selectAll()
      .where("id", "=", ep.id)
      .executeTakeFirstOrThrow();
    expect(row.previous_secret).not.toBeNull();
    expect(row.previous_secret_until! - t.app.clock.now()).toBeGreaterThan(2 * 3600_000 - 5000);
    const tooLong = await post(`/v1/webhook_endpoints/${ep.id}/roll_secret`, { overlap_hours: 169 });
    expect([tooLong.status, tooLong.body.code]).toEqual([400, "parameter_invalid"]);
    const none = await post(`/v1/webhook_endpoints/${ep.id}/roll_secret`, { overlap_hours: 0 });
    expect(none.status).toBe(200);
    const after = await t.app.db
      .selectFrom("webhook_endpoints")
      .selectAll()
      .where("id", "=", ep.id)
      .executeTakeFirstOrThrow();
    expect([after.previous_secret, after.previous_secret_until]).toEqual([null, null]);
  });

  test("delete answers {id, object, deleted} and the endpoint is gone", async () => {
    const ep = (await post("/v1/webhook_endpoints", { url: "http://example.com/d" })).body;
    const d = await t.request("DELETE", `/v1/webhook_endpoints/${ep.id}`, { key: a.testKey });
    expect(d.body).toEqual({ id: ep.id, object: "webhook_endpoint", deleted: true });
    expect((await get(`/v1/webhook_endpoints/${ep.id}`)).status).toBe(404);
  });

  test("scoped by mode: live keys see live endpoints only", async () => {
    const live = (await post("/v1/webhook_endpoints", { url: "https://example.com/live" }, a.liveKey)).body;
    expect(live.livemode).toBe(true);
    const testList = await get("/v1/webhook_endpoints?limit=100");
    expect(testList.body.data.some((e: { id: string }) => e.id === live.id)).toBe(false);
    const liveList = await get("/v1/webhook_endpoints?limit=100", a.liveKey);
    expect(liveList.body.data.every((e: { livemode: boolean }) => e.livemode)).toBe(true);
  });

  test("brand-limited keys cannot manage webhooks", async () => {
    const limited = await key(t.app, a.orgId, { name: "brand only", brand: a.brandId });
    const l = await get("/v1/webhook_endpoints", limited);
    expect([l.status, l.body.code]).toEqual([403, "forbidden"]);
    const c = await post("/v1/webhook_endpoints", { url: "https://example.com/x" }, limited);
    expect([c.status, c.body.code]).toEqual([403, "forbidden"]);
  });

  test("the OpenAPI document lists the webhook routes", async () => {
    const doc = await (await t.http.handle(new Request("http://localhost/v1/openapi.yaml"))).text();
    for (const p of [
      "/v1/webhook_endpoints/{id}/roll_secret:",
      "/v1/webhook_endpoints/{id}/deliveries:",
      "/v1/webhook_deliveries/{id}/resend:",
      "/v1/events/stream:",
    ])
      expect(doc).toContain(p);
  });
});
