// Operator keys: verified only by the operator API's authentication, refused by every org route.
import { afterAll, beforeAll, expect, test } from "bun:test";
import {
  authenticateOperator,
  createOperatorKey,
  revokeOperatorKey,
} from "../../src/domain/identity/auth/operator.ts";
import type { ServiceError } from "../../src/lib/errors.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";

describeEachDialect("operator keys", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
  });
  afterAll(() => t.close());

  const code = async (p: Promise<unknown>) => {
    try {
      await p;
      return "ok";
    } catch (e) {
      return (e as ServiceError).code;
    }
  };

  test("a key verifies until revoked; org keys and malformed ones are refused", async () => {
    const k = await createOperatorKey(t.app, "hosting");
    expect(k.secret).toMatch(/^svc_op_[0-9A-Za-z]{32}$/);
    const row = await t.app.db
      .selectFrom("operator_keys")
      .selectAll()
      .where("id", "=", k.id)
      .executeTakeFirstOrThrow();
    expect(row.hash).not.toContain(k.secret.slice(7));
    const op = await authenticateOperator(t.app, `Bearer ${k.secret}`, "req_x");
    expect([op.operatorKeyId, op.name]).toEqual([k.id, "hosting"]);
    expect(await code(authenticateOperator(t.app, `Bearer ${a.testKey}`, "req_x"))).toBe(
      "operator_key_invalid",
    );
    expect(await code(authenticateOperator(t.app, null, "req_x"))).toBe("operator_key_invalid");
    expect(await code(authenticateOperator(t.app, `Bearer svc_op_${"x".repeat(32)}`, "req_x"))).toBe(
      "operator_key_invalid",
    );
    expect(await revokeOperatorKey(t.app, k.id)).toBe(true);
    expect(await code(authenticateOperator(t.app, `Bearer ${k.secret}`, "req_x"))).toBe(
      "operator_key_revoked",
    );
    // And the org API refuses operator keys.
    const me = await t.request("GET", "/v1/me", { key: (await createOperatorKey(t.app, "other")).secret });
    expect([me.status, me.body.code]).toEqual([401, "api_key_invalid"]);
  });

  test("the request log keeps method, path, status, code, duration, key and request ID, no body", async () => {
    const ok = await t.request("GET", "/v1/brands?limit=1", { key: a.testKey });
    const bad = await t.request("POST", "/v1/brands", { key: a.testKey, body: { name: "" } });
    await t.http.ctx.requestLog.flush();
    const rows = await t.app.db.selectFrom("request_log").selectAll().where("org_id", "=", a.orgId).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const okRow = byId.get(ok.headers.get("request-id")!)!;
    expect([okRow.method, okRow.path, okRow.status, okRow.code, okRow.livemode]).toEqual([
      "GET",
      "/v1/brands",
      200,
      null,
      0,
    ]);
    expect(okRow.api_key_id).toMatch(/^key_/);
    expect(okRow.duration_ms).toBeGreaterThanOrEqual(0);
    const badRow = byId.get(bad.headers.get("request-id")!)!;
    expect([badRow.method, badRow.status, badRow.code]).toEqual(["POST", 422, "name_invalid"]);
    expect(Object.keys(badRow).sort()).toEqual([
      "api_key_id",
      "code",
      "created_at",
      "duration_ms",
      "id",
      "livemode",
      "method",
      "org_id",
      "path",
      "status",
      "user_token_id",
    ]);
  });
});
