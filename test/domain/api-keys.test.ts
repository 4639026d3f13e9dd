// API keys through POST /v1/api_keys and friends: what a key may grant (scopes, brand, mode, expiry), secrets shown
// once, lists per mode, rolling with an overlap, self roll, revoking, and the audit rows all of it leaves.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { FakeClock } from "../../src/lib/clock.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { INTEGRATION, key, type Tenant, tenant } from "../helpers/factories.ts";

const HOUR = 3600_000;
const codes = (body: { errors?: { code: string }[] }) => (body.errors ?? []).map((e) => e.code);

describeEachDialect("API keys", (dialect) => {
  const clock = new FakeClock();
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect, { clock });
    a = await tenant(t.app, "Keys Org");
  });
  afterAll(() => t.close());

  const create = (creator: string, body: unknown, headers?: Record<string, string>) =>
    t.request("POST", "/v1/api_keys", { key: creator, body, ...(headers ? { headers } : {}) });
  const idOf = async (secret: string) => (await t.request("GET", "/v1/me", { key: secret })).body.api_key.id;

  test("an unknown scope is scope_invalid, naming its position", async () => {
    const r = await create(a.testKey, { name: "bad", scopes: ["posts:read", "posts:delete"] });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe("scope_invalid");
    expect(r.body.errors).toEqual([
      { code: "scope_invalid", param: "scopes.1", message: "Unknown scope posts:delete.", detail: null },
    ]);
  });

  test("a key cannot grant an administrative scope, even one it holds (scope_not_grantable)", async () => {
    // The full test key lists audit:read and keys:write itself.
    const r = await create(a.testKey, { name: "auditor", scopes: ["audit:read"] });
    expect([r.status, r.body.code, r.body.param]).toEqual([422, "scope_not_grantable", "scopes.0"]);
    const k = await create(a.testKey, { name: "key maker", scopes: ["brands:read", "keys:write"] });
    expect(codes(k.body)).toEqual(["scope_not_grantable"]);
  });

  test("a narrow key cannot grant scopes it lacks (scope_not_held)", async () => {
    const narrow = await key(t.app, a.orgId, { name: "narrow", scopes: ["keys:write", "brands:read"] });
    const ok = await create(narrow, { name: "reader", scopes: ["brands:read"] });
    expect(ok.status).toBe(201);
    expect(ok.body.scopes).toEqual(["brands:read"]);
    const more = await create(narrow, { name: "writer", scopes: ["brands:read", "posts:write"] });
    expect(more.status).toBe(422);
    expect(more.body.errors).toEqual([
      {
        code: "scope_not_held",
        param: "scopes",
        message: "You cannot grant posts:write: you do not hold it.",
        detail: null,
      },
    ]);
  });

  test("omitting scopes asks for every integration scope: scope_not_held when the creator lacks some", async () => {
    const allButAds = INTEGRATION.filter((s) => s !== "ads:read" && s !== "newsletters:write");
    const almost = await key(t.app, a.orgId, { name: "almost full", scopes: ["keys:write", ...allButAds] });
    const r = await create(almost, { name: "full please" });
    expect(r.status).toBe(422);
    expect(codes(r.body)).toEqual(["scope_not_held", "scope_not_held"]);
    expect(r.body.errors.map((e: { message: string }) => e.message)).toEqual([
      "You cannot grant ads:read: you do not hold it.",
      "You cannot grant newsletters:write: you do not hold it.",
    ]);
    // A creator holding every integration scope may omit them: the new key lists none (full access).
    const full = await create(a.testKey, { name: "full" });
    expect([full.status, full.body.scopes]).toEqual([201, []]);
  });

  test("a brand-limited key creates only keys limited to its brand (brand_required)", async () => {
    const limited = await key(t.app, a.orgId, {
      name: "limited",
      brand: a.brandId,
      scopes: ["keys:write", "brands:read"],
    });
    const unlimited = await create(limited, { name: "escape", scopes: ["brands:read"] });
    expect([unlimited.status, unlimited.body.code, unlimited.body.param]).toEqual([
      422,
      "brand_required",
      "brand",
    ]);
    const same = await create(limited, { name: "same brand", scopes: ["brands:read"], brand: a.brandSlug });
    expect(same.status).toBe(201);
    expect(same.body.brand).toBe(a.brandId);
  });

  test("a brand that is not in the org is brand_invalid", async () => {
    const r = await create(a.testKey, { name: "x", brand: "no-such-brand" });
    expect([r.status, r.body.code, r.body.param]).toEqual([422, "brand_invalid", "brand"]);
    const other = await tenant(t.app, "Other Keys Org");
    const r2 = await create(a.testKey, { name: "x", brand: other.brandId });
    expect(r2.body.code).toBe("brand_invalid");
  });

  test("an expiring key creates only keys expiring no later (expires_too_late)", async () => {
    const until = clock.now() + 10 * HOUR;
    const expiring = await key(t.app, a.orgId, {
      name: "expiring",
      scopes: ["keys:write", "brands:read"],
      expires_at: new Date(until).toISOString(),
    });
    const never = await create(expiring, { name: "forever", scopes: ["brands:read"] });
    expect([never.status, never.body.code, never.body.param]).toEqual([
      422,
      "expires_too_late",
      "expires_at",
    ]);
    const later = await create(expiring, {
      name: "later",
      scopes: ["brands:read"],
      expires_at: new Date(until + HOUR).toISOString(),
    });
    expect(later.body.code).toBe("expires_too_late");
    const sooner = await create(expiring, {
      name: "sooner",
      scopes: ["brands:read"],
      expires_at: new Date(until - HOUR).toISOString(),
    });
    expect(sooner.status).toBe(201);
    expect(sooner.body.expires_at).toBe(new Date(until - HOUR).toISOString());
  });

  test("a key creates keys only in its own mode (livemode_mismatch)", async () => {
    const r = await create(a.testKey, { name: "live from test", livemode: true });
    expect([r.status, r.body.code, r.body.param]).toEqual([422, "livemode_mismatch", "livemode"]);
    const live = await create(a.liveKey, { name: "live", livemode: true });
    expect(live.status).toBe(201);
    expect(live.body.livemode).toBe(true);
    expect(live.body.secret).toMatch(/^svc_live_[0-9A-Za-z]{38}$/);
  });

  test("the secret is shown on create only; lists hold the caller's mode only", async () => {
    const made = await create(a.testKey, { name: "shown once", scopes: ["posts:read"] });
    expect(made.status).toBe(201);
    expect(made.body.object).toBe("api_key");
    expect(made.body.secret).toMatch(/^svc_test_[0-9A-Za-z]{38}$/);
    expect(made.body.hint).toBe(`…${made.body.secret.slice(-4)}`);
    expect(made.body.livemode).toBe(false);

    const me = await t.request("GET", "/v1/me", { key: made.body.secret });
    expect(me.body.api_key.id).toBe(made.body.id);
    expect(me.body.api_key.secret).toBeUndefined();

    const test = await t.request("GET", "/v1/api_keys?limit=100", { key: a.testKey });
    expect(test.status).toBe(200);
    const listed = test.body.data.find((k: { id: string }) => k.id === made.body.id);
    expect(listed.name).toBe("shown once");
    expect(listed.secret).toBeUndefined();
    expect(test.body.data.every((k: { livemode: boolean }) => k.livemode === false)).toBe(true);
    expect(test.body.data.some((k: { secret?: string }) => "secret" in k)).toBe(false);

    const live = await t.request("GET", "/v1/api_keys?limit=100", { key: a.liveKey });
    expect(live.body.data.length).toBeGreaterThan(0);
    expect(live.body.data.every((k: { livemode: boolean }) => k.livemode === true)).toBe(true);
    expect(live.body.data.some((k: { id: string }) => k.id === made.body.id)).toBe(false);
  });

  test("rolling: the old secret works for overlap_hours, then answers api_key_expired", async () => {
    const old = await create(a.testKey, { name: "rolled", scopes: ["brands:read"] });
    const rolled = await t.request("POST", `/v1/api_keys/${old.body.id}/roll`, {
      key: a.testKey,
      body: { overlap_hours: 2 },
    });
    expect(rolled.status).toBe(201);
    expect(rolled.body.id).not.toBe(old.body.id);
    expect(rolled.body.name).toBe("rolled");
    expect(rolled.body.scopes).toEqual(["brands:read"]);
    expect(rolled.body.secret).toMatch(/^svc_test_/);
    expect(rolled.body.secret).not.toBe(old.body.secret);

    const start = clock.now();
    const listed = await t.request("GET", "/v1/api_keys?limit=100", { key: a.testKey });
    const oldRow = listed.body.data.find((k: { id: string }) => k.id === old.body.id);
    expect(oldRow.expires_at).toBe(new Date(start + 2 * HOUR).toISOString());

    clock.advance(2 * HOUR - 1000);
    expect((await t.request("GET", "/v1/brands", { key: old.body.secret })).status).toBe(200);
    clock.advance(1000);
    const gone = await t.request("GET", "/v1/brands", { key: old.body.secret });
    expect([gone.status, gone.body.code]).toEqual([401, "api_key_expired"]);
    expect((await t.request("GET", "/v1/brands", { key: rolled.body.secret })).status).toBe(200);
  });

  test("overlap_hours over 168 is refused as parameter_invalid (400, like a wrong type)", async () => {
    const k = await create(a.testKey, { name: "overlap", scopes: ["brands:read"] });
    const r = await t.request("POST", `/v1/api_keys/${k.body.id}/roll`, {
      key: a.testKey,
      body: { overlap_hours: 169 },
    });
    expect([r.status, r.body.code, r.body.param]).toEqual([400, "parameter_invalid", "overlap_hours"]);
    expect(r.body.detail).toBe("overlap_hours must be 0 to 168.");
    const wrongType = await t.request("POST", `/v1/api_keys/${k.body.id}/roll`, {
      key: a.testKey,
      body: { overlap_hours: "24" },
    });
    expect([wrongType.status, wrongType.body.code]).toEqual([400, "parameter_invalid"]);
    const max = await t.request("POST", `/v1/api_keys/${k.body.id}/roll`, {
      key: a.testKey,
      body: { overlap_hours: 168 },
    });
    expect(max.status).toBe(201);
  });

  test("a key rolls itself without keys:write; the default overlap is 24 hours", async () => {
    const self = await key(t.app, a.orgId, { name: "self roller", scopes: ["brands:read"] });
    const selfId = await idOf(self);
    // It cannot manage other keys...
    const other = await t.request("POST", `/v1/api_keys/${selfId}/roll`, { key: self });
    expect([other.status, other.body.code]).toEqual([403, "scope_missing"]);
    // ...but it may roll itself.
    const r = await t.request("POST", "/v1/api_keys/self/roll", { key: self });
    expect(r.status).toBe(201);
    expect(r.body.scopes).toEqual(["brands:read"]);
    const start = clock.now();
    clock.advance(24 * HOUR - 1000);
    expect((await t.request("GET", "/v1/me", { key: self })).status).toBe(200);
    clock.advance(1000);
    expect((await t.request("GET", "/v1/me", { key: self })).body.code).toBe("api_key_expired");
    const me = await t.request("GET", "/v1/me", { key: r.body.secret });
    expect(me.body.api_key.id).toBe(r.body.id);
    expect(clock.now() - start).toBe(24 * HOUR);
  });

  test("revoking: the key answers api_key_expired at once, and rolling it is key_inactive (409)", async () => {
    const k = await create(a.testKey, { name: "to revoke", scopes: ["brands:read"] });
    expect((await t.request("GET", "/v1/me", { key: k.body.secret })).status).toBe(200);
    const rev = await t.request("POST", `/v1/api_keys/${k.body.id}/revoke`, { key: a.testKey });
    expect(rev.status).toBe(200);
    expect(rev.body.revoked_at).toBe(new Date(clock.now()).toISOString());
    const after = await t.request("GET", "/v1/me", { key: k.body.secret });
    expect([after.status, after.body.code]).toEqual([401, "api_key_expired"]);
    expect(after.headers.get("www-authenticate")).toBe('Bearer realm="svc"');
    const roll = await t.request("POST", `/v1/api_keys/${k.body.id}/roll`, { key: a.testKey });
    expect([roll.status, roll.body.code]).toEqual([409, "key_inactive"]);
    // Revoking twice is harmless and keeps the first time.
    clock.advance(1000);
    const again = await t.request("POST", `/v1/api_keys/${k.body.id}/revoke`, { key: a.testKey });
    expect(again.body.revoked_at).toBe(rev.body.revoked_at);
  });

  test("create, roll and revoke each leave one audit row naming the key that acted", async () => {
    const made = await create(a.testKey, { name: "audited", scopes: ["posts:read"] });
    const rolled = await t.request("POST", `/v1/api_keys/${made.body.id}/roll`, {
      key: a.testKey,
      body: { overlap_hours: 0 },
    });
    const revoked = await t.request("POST", `/v1/api_keys/${rolled.body.id}/revoke`, { key: a.testKey });
    expect([made.status, rolled.status, revoked.status]).toEqual([201, 201, 200]);
    const actorId = await idOf(a.testKey);

    const log = await t.request("GET", "/v1/audit_events?limit=100", { key: a.testKey });
    expect(log.status).toBe(200);
    const about = (action: string, target: string) =>
      log.body.data.filter(
        (e: { action: string; target: string }) => e.action === action && e.target === target,
      );
    const [c] = about("api_key.create", made.body.id);
    expect(c).toMatchObject({
      api_key: actorId,
      user: null,
      operator: null,
      outcome: "success",
      request_id: made.headers.get("request-id"),
      detail: { name: "audited", scopes: ["posts:read"], brand: null },
    });
    const [r] = about("api_key.roll", made.body.id);
    expect(r).toMatchObject({
      api_key: actorId,
      request_id: rolled.headers.get("request-id"),
      detail: { new_key: rolled.body.id, overlap_hours: 0 },
    });
    const [v] = about("api_key.revoke", rolled.body.id);
    expect(v).toMatchObject({ api_key: actorId, request_id: revoked.headers.get("request-id") });
    expect(about("api_key.create", made.body.id).length).toBe(1);
  });
});
