// Brands through /v1/brands: defaults, lookup by ID and slug, updates, slug rules, slot and UTM limits, the org's
// brand limit, brand-limited keys, the approval-policy rule and the audit rows.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { WEEKDAYS } from "../../src/domain/brands/schema.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { key, type Tenant, tenant } from "../helpers/factories.ts";

const DEFAULT_SLOTS = ["monday", "tuesday", "wednesday", "thursday", "friday"].flatMap((weekday) => [
  { weekday, time: "09:00" },
  { weekday, time: "13:00" },
]);

describeEachDialect("brands", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app, "Brands Org");
  });
  afterAll(() => t.close());

  const post = (path: string, body: unknown, k = a.testKey) => t.request("POST", path, { key: k, body });

  test("a new brand gets UTC, no approval, no UTM domains and slots Mon-Fri at 09:00 and 13:00", async () => {
    const r = await post("/v1/brands", { name: "Acme Widgets" });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      object: "brand",
      name: "Acme Widgets",
      slug: "acme-widgets",
      timezone: "UTC",
      approval_policy: "none",
      utm_domains: [],
      slots: DEFAULT_SLOTS,
      email_theme: { logo: null, accent: "", postal_address: "", footer: "" },
    });
    expect(r.body.id).toMatch(/^brand_[0-7][0-9a-z]{25}$/);
    expect(r.body.created_at).toBe(r.body.updated_at);
  });

  test("a brand is found by ID and by slug", async () => {
    const made = await post("/v1/brands", { name: "Lookup", slug: "look-up", timezone: "Europe/Berlin" });
    const byId = await t.request("GET", `/v1/brands/${made.body.id}`, { key: a.testKey });
    const bySlug = await t.request("GET", "/v1/brands/look-up", { key: a.testKey });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(made.body);
    expect(bySlug.body).toEqual(made.body);
    expect(bySlug.body.timezone).toBe("Europe/Berlin");
    const missing = await t.request("GET", "/v1/brands/nope", { key: a.testKey });
    expect([missing.status, missing.body.code, missing.body.param]).toEqual([404, "resource_missing", "id"]);
  });

  test("an update changes name and slots and lowercases UTM domains", async () => {
    const made = await post("/v1/brands", { name: "Before" });
    const slots = [
      { weekday: "saturday", time: "10:30" },
      { weekday: "sunday", time: "23:59" },
    ];
    const r = await post(`/v1/brands/${made.body.id}`, {
      name: "After",
      slots,
      utm_domains: ["Example.COM", "shop.Example.org"],
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: made.body.id,
      name: "After",
      slug: made.body.slug,
      slots,
      utm_domains: ["example.com", "shop.example.org"],
    });
    const again = await t.request("GET", `/v1/brands/${made.body.id}`, { key: a.testKey });
    expect(again.body.utm_domains).toEqual(["example.com", "shop.example.org"]);
    expect(again.body.slots).toEqual(slots);
    // An update through the slug works too.
    const bySlug = await post(`/v1/brands/${made.body.slug}`, { timezone: "America/New_York" });
    expect(bySlug.body.timezone).toBe("America/New_York");
  });

  test("a slug taken in the org is slug_taken (409), on create and on update", async () => {
    await post("/v1/brands", { name: "First", slug: "taken" });
    const dup = await post("/v1/brands", { name: "Second", slug: "taken" });
    expect([dup.status, dup.body.code, dup.body.param]).toEqual([409, "slug_taken", "slug"]);
    const other = await post("/v1/brands", { name: "Third" });
    const upd = await post(`/v1/brands/${other.body.id}`, { slug: "taken" });
    expect([upd.status, upd.body.code]).toEqual([409, "slug_taken"]);
    // Another org may use the same slug.
    const b = await tenant(t.app, "Other Brands Org");
    expect((await post("/v1/brands", { name: "Mine", slug: "taken" }, b.testKey)).status).toBe(201);
  });

  test("a derived slug takes the first free -N suffix", async () => {
    const slugs = [];
    for (let i = 0; i < 3; i++) slugs.push((await post("/v1/brands", { name: "Crème Brûlée!" })).body.slug);
    expect(slugs).toEqual(["creme-brulee", "creme-brulee-2", "creme-brulee-3"]);
  });

  test("bootstrap derives the brand slug the same way", async () => {
    const r = await bootstrap(t.app, {
      email: "chef@example.com",
      org: "Patisserie",
      brand: "Crème Brûlée",
      password: "correct horse battery staple",
    });
    expect(r.brand.slug).toBe("creme-brulee");
  });

  test("more than 200 slots is too_many_slots", async () => {
    const many = Array.from({ length: 201 }, (_, i) => ({
      weekday: WEEKDAYS[i % 7]!,
      // 29 distinct times: 00:00 … 23:00, then 00:30 … 04:30.
      time: `${String(Math.floor(i / 7) % 24).padStart(2, "0")}:${i >= 168 ? "30" : "00"}`,
    }));
    const r = await post("/v1/brands", { name: "Busy", slots: many });
    expect([r.status, r.body.code, r.body.param]).toEqual([422, "too_many_slots", "slots"]);
    const ok = await post("/v1/brands", { name: "Busy", slots: many.slice(0, 200) });
    expect(ok.status).toBe(201);
    expect(ok.body.slots.length).toBe(200);
  });

  test("a bad time and a listed-twice slot are slot_invalid", async () => {
    const bad = await post("/v1/brands", { name: "Bad", slots: [{ weekday: "monday", time: "25:00" }] });
    expect([bad.status, bad.body.code, bad.body.param]).toEqual([422, "slot_invalid", "slots.0.time"]);
    const day = await post("/v1/brands", { name: "Bad", slots: [{ weekday: "funday", time: "09:00" }] });
    expect([day.body.code, day.body.param]).toEqual(["slot_invalid", "slots.0.weekday"]);
    const twice = await post("/v1/brands", {
      name: "Twice",
      slots: [
        { weekday: "monday", time: "09:00" },
        { weekday: "monday", time: "09:00" },
      ],
    });
    expect([twice.status, twice.body.code, twice.body.param]).toEqual([422, "slot_invalid", "slots"]);
  });

  test("more than 20 UTM domains is utm_domains_too_many", async () => {
    const domains = Array.from({ length: 21 }, (_, i) => `d${i}.example.com`);
    const r = await post("/v1/brands", { name: "Tracked", utm_domains: domains });
    expect([r.status, r.body.code, r.body.param]).toEqual([422, "utm_domains_too_many", "utm_domains"]);
    expect((await post("/v1/brands", { name: "Tracked", utm_domains: domains.slice(1) })).status).toBe(201);
  });

  test("the org's brand limit refuses one more with limit_reached (param brands)", async () => {
    const c = await tenant(t.app, "Limited Org");
    // The operator sets the limit in the orgs row; the org has its bootstrap brand already.
    await t.app.db.updateTable("orgs").set({ limit_brands: 2 }).where("id", "=", c.orgId).execute();
    expect((await post("/v1/brands", { name: "Second" }, c.testKey)).status).toBe(201);
    const third = await post("/v1/brands", { name: "Third" }, c.testKey);
    expect(third.status).toBe(403);
    expect(third.body).toMatchObject({
      code: "limit_reached",
      param: "brands",
      details: { limit: 2, count: 2 },
    });
    const list = await t.request("GET", "/v1/brands", { key: c.testKey });
    expect(list.body.data.length).toBe(2);
  });

  test("a brand-limited key sees only its brand; another brand is missing", async () => {
    const other = await post("/v1/brands", { name: "Hidden" });
    const limited = await key(t.app, a.orgId, {
      name: "one brand",
      brand: a.brandId,
      scopes: ["brands:read", "brands:write"],
    });
    const list = await t.request("GET", "/v1/brands?limit=100", { key: limited });
    expect(list.body.data.map((b: { id: string }) => b.id)).toEqual([a.brandId]);
    const get = await t.request("GET", `/v1/brands/${other.body.id}`, { key: limited });
    expect([get.status, get.body.code]).toEqual([404, "resource_missing"]);
    const upd = await post(`/v1/brands/${other.body.id}`, { name: "Mine now" }, limited);
    expect([upd.status, upd.body.code]).toEqual([404, "resource_missing"]);
    expect((await t.request("GET", `/v1/brands/${a.brandSlug}`, { key: limited })).status).toBe(200);
    const create = await post("/v1/brands", { name: "New" }, limited);
    expect([create.status, create.body.code]).toEqual([403, "forbidden"]);
  });

  test("lowering approval_policy needs posts:approve; raising it does not", async () => {
    const made = await post("/v1/brands", { name: "Gated" });
    const writer = await key(t.app, a.orgId, { name: "writer", scopes: ["brands:read", "brands:write"] });
    const up = await post(`/v1/brands/${made.body.id}`, { approval_policy: "required_for_all" }, writer);
    expect([up.status, up.body.approval_policy]).toEqual([200, "required_for_all"]);
    const down = await post(
      `/v1/brands/${made.body.id}`,
      { approval_policy: "required_for_editors_and_keys" },
      writer,
    );
    expect([down.status, down.body.code]).toEqual([403, "scope_missing"]);
    expect(down.body.details).toEqual({ scope: "posts:approve" });
    const still = await t.request("GET", `/v1/brands/${made.body.id}`, { key: a.testKey });
    expect(still.body.approval_policy).toBe("required_for_all");
    const approver = await post(`/v1/brands/${made.body.id}`, { approval_policy: "none" }); // holds posts:approve
    expect([approver.status, approver.body.approval_policy]).toEqual([200, "none"]);
  });

  test("create and update leave audit rows; a refusal leaves access.denied", async () => {
    const made = await post("/v1/brands", { name: "Audited" });
    const upd = await post(`/v1/brands/${made.body.id}`, { name: "Audited Again", slots: [] });
    const reader = await key(t.app, a.orgId, { name: "reader", scopes: ["brands:read"] });
    const denied = await post(`/v1/brands/${made.body.id}`, { name: "No" }, reader);
    expect(denied.status).toBe(403);
    const log = await t.request("GET", "/v1/audit_events?limit=100", { key: a.testKey });
    const rows = log.body.data.filter((e: { target: string }) => e.target === made.body.id);
    expect(rows.map((e: { action: string }) => e.action)).toEqual(["brand.update", "brand.create"]);
    expect(rows[1].detail).toEqual({ name: "Audited", slug: "audited" });
    expect(rows[1].request_id).toBe(made.headers.get("request-id"));
    expect(rows[0].detail).toEqual({ fields: ["name", "slots"] });
    expect(rows[0].request_id).toBe(upd.headers.get("request-id"));
    const refusal = log.body.data.find(
      (e: { action: string; request_id: string }) =>
        e.action === "access.denied" && e.request_id === denied.headers.get("request-id"),
    );
    expect(refusal).toMatchObject({
      target: "POST /v1/brands/:id",
      outcome: "denied",
      detail: { code: "scope_missing" },
    });
  });
});
