// The operator API under /v1/operator/: only operator keys, and they nothing else; finding, reading and changing
// orgs with every bad input refused and nothing changed; usage; every change audited with the key's ID.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createOperatorKey, revokeOperatorKey } from "../../../src/domain/identity/auth/operator.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, upload } from "../../helpers/media.ts";

describeEachDialect("operator API", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let b: Tenant;
  let op: string;
  let opId: string;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app, "Hosted A");
    b = await tenant(t.app, "Hosted B");
    ({ secret: op, id: opId } = await createOperatorKey(t.app, "billing system"));
  });
  afterAll(() => t.close());

  const opReq = (method: string, path: string, body?: unknown, key = op) =>
    t.request(method, path, { key, ...(body === undefined ? {} : { body }) });

  test("only operator keys call the operator API, and operator keys call nothing else", async () => {
    const none = await t.request("GET", "/v1/operator/orgs");
    expect([none.status, none.body.code]).toEqual([401, "operator_key_invalid"]);
    const orgKey = await opReq("GET", "/v1/operator/orgs", undefined, a.liveKey);
    expect([orgKey.status, orgKey.body.code]).toEqual([401, "operator_key_invalid"]);
    const onOrgRoute = await t.request("GET", "/v1/brands", { key: op });
    expect([onOrgRoute.status, onOrgRoute.body.code]).toEqual([401, "api_key_invalid"]);
    const other = await createOperatorKey(t.app, "to revoke");
    expect(await revokeOperatorKey(t.app, other.id)).toBe(true);
    const revoked = await opReq("GET", "/v1/operator/orgs", undefined, other.secret);
    expect([revoked.status, revoked.body.code]).toEqual([401, "operator_key_revoked"]);
  });

  test("lists every org, finds one by external_ref, reads one", async () => {
    const all = await opReq("GET", "/v1/operator/orgs");
    expect(all.body.data.map((o: { id: string }) => o.id)).toEqual([b.orgId, a.orgId]);
    const set = await opReq("POST", `/v1/operator/orgs/${a.orgId}`, { external_ref: "cus_123" });
    expect(set.body.external_ref).toBe("cus_123");
    const found = await opReq("GET", "/v1/operator/orgs?external_ref=cus_123");
    expect(found.body.data.map((o: { id: string }) => o.id)).toEqual([a.orgId]);
    const got = await opReq("GET", `/v1/operator/orgs/${a.orgId}`);
    expect([got.body.name, got.body.status, got.body.external_ref]).toEqual([
      "Hosted A",
      "active",
      "cus_123",
    ]);
    const missing = await opReq("GET", "/v1/operator/orgs/org_00000000000000000000000000");
    expect(missing.body.code).toBe("resource_missing");
  });

  test("changes name, status, note and limits, audited with the operator key's ID", async () => {
    const r = await opReq("POST", `/v1/operator/orgs/${b.orgId}`, {
      name: "Hosted B Ltd",
      status_note: "Trial ends Friday",
      limits: { brands: 3, posts_per_month: 1000 },
    });
    expect(r.status).toBe(200);
    expect(r.body.limits).toEqual({ brands: 3, channels: null, members: null, posts_per_month: 1000 });
    expect([r.body.name, r.body.status_note]).toEqual(["Hosted B Ltd", "Trial ends Friday"]);
    const cleared = await opReq("POST", `/v1/operator/orgs/${b.orgId}`, { limits: { brands: null } });
    expect(cleared.body.limits.brands).toBeNull();
    expect(cleared.body.limits.posts_per_month).toBe(1000);
    const rows = await t.app.db
      .selectFrom("audit_events")
      .selectAll()
      .where("org_id", "=", b.orgId)
      .where("action", "=", "org.operator_update")
      .execute();
    expect(rows).toHaveLength(2);
    expect(rows.every((x) => x.operator === opId && x.user_id === null && x.api_key_id === null)).toBe(true);
  });

  test("bad input is refused with its code and changes nothing", async () => {
    const before = (await opReq("GET", `/v1/operator/orgs/${b.orgId}`)).body;
    const cases: [unknown, number, string, string][] = [
      [{ limits: { brands: -1 } }, 422, "limit_invalid", "limits.brands"],
      [{ limits: { members: 1.5 } }, 422, "limit_invalid", "limits.members"],
      [{ limits: { channels: "5" } }, 422, "limit_invalid", "limits.channels"],
      [{ limits: { seats: 5 } }, 400, "parameter_unknown", "limits.seats"],
      [{ status: "paused" }, 422, "status_invalid", "status"],
      [{ status_note: "x".repeat(501) }, 422, "status_note_invalid", "status_note"],
      [{ external_ref: "r".repeat(201) }, 422, "external_ref_invalid", "external_ref"],
      [{ name: "" }, 422, "name_invalid", "name"],
      [{ external_ref: "cus_123" }, 409, "external_ref_taken", "external_ref"],
    ];
    for (const [body, status, code, param] of cases) {
      const r = await opReq("POST", `/v1/operator/orgs/${b.orgId}`, body);
      expect([r.status, r.body.code, r.body.param]).toEqual([status, code, param]);
    }
    expect((await opReq("GET", `/v1/operator/orgs/${b.orgId}`)).body).toEqual(before);
  });

  test("usage counts the month's live posts and published targets, brands, live channels and members", async () => {
    const image = await jpeg(64, 48);
    const up = await upload(t, a.testKey, { brand: a.brandSlug, file: { bytes: image, name: "x.jpg" } });
    expect(up.status).toBe(201);
    const month = new Date(t.app.clock.now()).toISOString().slice(0, 7);
    const u = await opReq("GET", `/v1/operator/orgs/${a.orgId}/usage?month=${month}`);
    expect(u.status).toBe(200);
    expect(u.body).toMatchObject({
      object: "usage",
      org: a.orgId,
      brands: 1,
      live_channels: 0,
      members: 1,
    });
    expect(u.body.period_start).toBe(`${month}-01T00:00:00.000Z`);
    expect(u.body.media_bytes).toBe(up.body.size);
    const bad = await opReq("GET", `/v1/operator/orgs/${a.orgId}/usage?month=2026-13`);
    expect([bad.status, bad.body.code]).toEqual([400, "month_invalid"]);
  });
});
