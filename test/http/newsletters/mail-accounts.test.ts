// Mail accounts: providers listed; the sandbox in test mode and Brevo (against its stateful stand-in, every
// request and answer checked against Brevo's OpenAPI description) in live mode; credentials checked before
// saving and sealed; the sender rules; default audiences checked with the provider; list/get/update/delete;
// audiences read from the provider, a revoked key marking the account needs_reauth; org and mode isolation.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { key, type Tenant, tenant } from "../../helpers/factories.ts";
import { networkApp } from "../../helpers/networks.ts";
import { schemaErrors } from "../../helpers/schema.ts";
import { type BrevoStandIn, startBrevo } from "../../stand-ins/brevo.ts";
import { expectClean } from "../../stand-ins/server.ts";

describeEachDialect("mail accounts", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let other: Tenant;
  let brevo: BrevoStandIn;
  beforeAll(async () => {
    brevo = await startBrevo();
    t = await networkApp(dialect, { brevo: brevo.url });
    a = await tenant(t.app);
    other = await tenant(t.app);
  });
  afterAll(async () => {
    brevo.stop();
    await t.close();
  });

  const post = (path: string, body: unknown, k = a.testKey) => t.request("POST", path, { key: k, body });
  const get = (path: string, k = a.testKey) => t.request("GET", path, { key: k });
  const sandbox = (extra: Record<string, unknown> = {}) => ({
    brand: a.brandSlug,
    provider: "sandbox",
    from_name: "Acme News",
    from_email: "news@acme.example",
    ...extra,
  });

  test("GET /v1/mail_providers lists the sandbox and Brevo with their fields", async () => {
    const r = await get("/v1/mail_providers");
    expect(r.status).toBe(200);
    expect(schemaErrors("MailProviderList", r.body)).toBeNull();
    const byName = Object.fromEntries(r.body.data.map((p: { provider: string }) => [p.provider, p]));
    expect(byName.sandbox).toMatchObject({ livemode: false, available: true });
    expect(byName.brevo).toMatchObject({ livemode: true, available: false });
    expect(byName.brevo.fields.map((f: { name: string; secret: boolean }) => [f.name, f.secret])).toEqual([
      ["api_key", true],
    ]);
    const live = await get("/v1/mail_providers", a.liveKey);
    expect(live.body.data.find((p: { provider: string }) => p.provider === "brevo").available).toBe(true);
  });

  test("sandbox account in test mode: created, listed, got, with default audiences", async () => {
    const r = await post(
      "/v1/mail_accounts",
      sandbox({ default_audiences: ["everyone"], reply_to: "hi@acme.example" }),
    );
    expect(r.status).toBe(201);
    expect(schemaErrors("MailAccount", r.body)).toBeNull();
    expect(r.body.id).toMatch(/^mailacct_[0-9a-z]{26}$/);
    expect(r.body).toMatchObject({
      object: "mail_account",
      brand: a.brandId,
      livemode: false,
      provider: "sandbox",
      display_name: "Sandbox sandbox",
      from_name: "Acme News",
      from_email: "news@acme.example",
      reply_to: "hi@acme.example",
      default_audiences: ["everyone"],
      status: "active",
    });
    const one = await get(`/v1/mail_accounts/${r.body.id}`);
    expect(one.body).toEqual(r.body);
    const list = await get(`/v1/mail_accounts?brand=${a.brandSlug}`);
    expect(schemaErrors("MailAccountList", list.body)).toBeNull();
    expect(list.body.data.map((m: { id: string }) => m.id)).toContain(r.body.id);
    const aud = await get(`/v1/mail_accounts/${r.body.id}/audiences`);
    expect(aud.status).toBe(200);
    expect(schemaErrors("AudienceList", aud.body)).toBeNull();
    expect(aud.body.data.map((x: { id: string }) => x.id)).toEqual(["everyone", "customers", "trial"]);
  });

  test("the same provider account twice on one brand: 409 mail_account_connected", async () => {
    const first = await post("/v1/mail_accounts", sandbox({ fields: { account: "twice" } }));
    expect(first.status).toBe(201);
    const again = await post("/v1/mail_accounts", sandbox({ fields: { account: "twice" } }));
    expect([again.status, again.body.code]).toEqual([409, "mail_account_connected"]);
  });

  test("sender and field rules: every problem listed with its code", async () => {
    const r = await post("/v1/mail_accounts", {
      brand: a.brandSlug,
      provider: "sandbox",
      from_name: "",
      from_email: "not-an-address",
      reply_to: "also not",
    });
    expect(r.status).toBe(422);
    const codes = r.body.errors.map((e: { code: string; param: string }) => [e.code, e.param]);
    expect(codes).toEqual(
      expect.arrayContaining([
        ["from_name_invalid", "from_name"],
        ["from_email_invalid", "from_email"],
        ["reply_to_invalid", "reply_to"],
      ]),
    );
    const long = await post("/v1/mail_accounts", sandbox({ from_name: "x".repeat(101) }));
    expect([long.status, long.body.code]).toEqual([422, "from_name_invalid"]);
    const hundred = await post(
      "/v1/mail_accounts",
      sandbox({ from_name: "x".repeat(100), fields: { account: "hundred" } }),
    );
    expect(hundred.status).toBe(201);
    const unknownField = await post("/v1/mail_accounts", sandbox({ fields: { apikey: "x" } }));
    expect([unknownField.status, unknownField.body.code, unknownField.body.param]).toEqual([
      422,
      "field_unknown",
      "fields.apikey",
    ]);
    const aud = await post(
      "/v1/mail_accounts",
      sandbox({ default_audiences: ["everyone", "nobody"], fields: { account: "aud" } }),
    );
    expect([aud.status, aud.body.code, aud.body.param]).toEqual([
      422,
      "audience_unknown",
      "default_audiences.1",
    ]);
    const prov = await post("/v1/mail_accounts", sandbox({ provider: "mailchump" }));
    expect([prov.status, prov.body.code]).toEqual([422, "provider_invalid"]);
    const revoked = await post(
      "/v1/mail_accounts",
      sandbox({ fields: { simulate_revoked: "yes", account: "rv" } }),
    );
    expect([revoked.status, revoked.body.code]).toEqual([422, "connect_failed"]);
  });

  test("modes: Brevo is refused in test mode, the sandbox in live mode", async () => {
    const b = await post("/v1/mail_accounts", sandbox({ provider: "brevo", fields: { api_key: "x" } }));
    expect([b.status, b.body.code]).toEqual([422, "provider_unavailable"]);
    const s = await post("/v1/mail_accounts", sandbox(), a.liveKey);
    expect([s.status, s.body.code]).toEqual([422, "provider_unavailable"]);
  });

  test("Brevo: key checked with GET /account, lists read, secret sealed and never shown", async () => {
    const acct = brevo.addAccount({
      email: "client@shop.example",
      companyName: "Shop",
      lists: ["All", "VIP"],
    });
    const [all, vip] = acct.lists;
    const bad = await post(
      "/v1/mail_accounts",
      sandbox({ provider: "brevo", fields: { api_key: "xkeysib-wrong" } }),
      a.liveKey,
    );
    expect([bad.status, bad.body.code]).toEqual([422, "connect_failed"]);
    const missing = await post("/v1/mail_accounts", sandbox({ provider: "brevo" }), a.liveKey);
    expect([missing.status, missing.body.code, missing.body.param]).toEqual([
      422,
      "field_required",
      "fields.api_key",
    ]);
    const r = await post(
      "/v1/mail_accounts",
      sandbox({ provider: "brevo", fields: { api_key: acct.apiKey }, default_audiences: [String(vip!.id)] }),
      a.liveKey,
    );
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ livemode: true, provider: "brevo", display_name: "Shop", settings: {} });
    expect(JSON.stringify(r.body)).not.toContain(acct.apiKey);
    const row = await t.app.db
      .selectFrom("mail_accounts")
      .select("secrets")
      .where("id", "=", r.body.id)
      .executeTakeFirstOrThrow();
    expect(row.secrets!.startsWith("v1:")).toBe(true);
    expect(row.secrets).not.toContain(acct.apiKey);

    const aud = await get(`/v1/mail_accounts/${r.body.id}/audiences`, a.liveKey);
    expect(aud.body.data.map((x: { id: string; name: string }) => [x.id, x.name]).sort()).toEqual(
      [
        [String(all!.id), "All"],
        [String(vip!.id), "VIP"],
      ].sort(),
    );
    const unknownList = await post(
      `/v1/mail_accounts/${r.body.id}`,
      { default_audiences: ["999999"] },
      a.liveKey,
    );
    expect([unknownList.status, unknownList.body.code]).toEqual([422, "audience_unknown"]);

    // A 5xx while connecting saves nothing.
    brevo.fail("server_error");
    const down = await post(
      "/v1/mail_accounts",
      sandbox({ provider: "brevo", fields: { api_key: acct.apiKey }, brand: a.brandSlug }),
      a.liveKey,
    );
    expect([down.status, down.body.code]).toEqual([503, "provider_unavailable"]);

    // Revoked at Brevo: the audiences read marks the account; new fields bring it back.
    acct.revoked = true;
    const denied = await get(`/v1/mail_accounts/${r.body.id}/audiences`, a.liveKey);
    expect([denied.status, denied.body.code]).toEqual([422, "mail_account_needs_reauth"]);
    expect((await get(`/v1/mail_accounts/${r.body.id}`, a.liveKey)).body.status).toBe("needs_reauth");
    acct.revoked = false;
    const again = await get(`/v1/mail_accounts/${r.body.id}/audiences`, a.liveKey);
    expect(again.body.code).toBe("mail_account_needs_reauth");
    const fixed = await post(
      `/v1/mail_accounts/${r.body.id}`,
      { fields: { api_key: acct.apiKey } },
      a.liveKey,
    );
    expect(fixed.status).toBe(200);
    expect(fixed.body.status).toBe("active");
    // Another account's key is a new connection, not an update.
    const otherAcct = brevo.addAccount({ email: "someone@else.example" });
    const swapped = await post(
      `/v1/mail_accounts/${r.body.id}`,
      { fields: { api_key: otherAcct.apiKey } },
      a.liveKey,
    );
    expect([swapped.status, swapped.body.code]).toEqual([422, "connect_failed"]);
    // Validation was on: the stand-in matched each call to the description's operation.
    const ops = new Set(brevo.requests.map((q) => q.operationId));
    expect([...ops].filter((o) => o !== null).sort()).toEqual(["getAccount", "getLists"]);
    expectClean(brevo);
  });

  test("update the sender; delete", async () => {
    const r = await post("/v1/mail_accounts", sandbox({ fields: { account: "upd" } }));
    const u = await post(`/v1/mail_accounts/${r.body.id}`, {
      from_name: "Acme Weekly",
      reply_to: null,
      default_audiences: ["trial"],
    });
    expect(u.status).toBe(200);
    expect(u.body).toMatchObject({ from_name: "Acme Weekly", reply_to: null, default_audiences: ["trial"] });
    const bad = await post(`/v1/mail_accounts/${r.body.id}`, { from_email: "nope" });
    expect([bad.status, bad.body.code]).toEqual([422, "from_email_invalid"]);
    const d = await t.request("DELETE", `/v1/mail_accounts/${r.body.id}`, { key: a.testKey });
    expect(d.body).toEqual({ id: r.body.id, object: "mail_account", deleted: true });
    expect((await get(`/v1/mail_accounts/${r.body.id}`)).status).toBe(404);
  });

  test("isolation: another org, the other mode, and a key without channels:write", async () => {
    const r = await post("/v1/mail_accounts", sandbox({ fields: { account: "iso" } }));
    const id = r.body.id;
    for (const k of [other.testKey, a.liveKey]) {
      expect((await get(`/v1/mail_accounts/${id}`, k)).status).toBe(404);
      expect((await get(`/v1/mail_accounts/${id}/audiences`, k)).status).toBe(404);
      expect((await post(`/v1/mail_accounts/${id}`, { from_name: "x" }, k)).status).toBe(404);
      expect((await t.request("DELETE", `/v1/mail_accounts/${id}`, { key: k })).status).toBe(404);
      const list = await get("/v1/mail_accounts", k);
      expect(list.body.data.map((m: { id: string }) => m.id)).not.toContain(id);
    }
    // Another org's brand is not found.
    const cross = await post("/v1/mail_accounts", sandbox({ brand: a.brandId }), other.testKey);
    expect(cross.status).toBe(404);
    const reader = await key(t.app, a.orgId, { name: "reader", scopes: ["channels:read"] });
    const denied = await post("/v1/mail_accounts", sandbox({ fields: { account: "ro" } }), reader);
    expect([denied.status, denied.body.code]).toEqual([403, "scope_missing"]);
    expect((await get(`/v1/mail_accounts/${id}`, reader)).status).toBe(200);
  });
});
