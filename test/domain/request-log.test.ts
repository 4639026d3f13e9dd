// The request log writes what the pipeline saw, a batch of requests in one statement, on both databases.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";

describeEachDialect("request log", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  test("a batch keeps each request's mode, status, code and key", async () => {
    await t.http.ctx.requestLog.flush();
    const sent = [
      await t.request("GET", "/v1/me", { key: a.testKey }),
      await t.request("GET", "/v1/posts?bogus=1", { key: a.testKey }),
      await t.request("GET", "/v1/me", { key: a.liveKey }),
    ];
    await t.http.ctx.requestLog.flush();
    const ids = sent.map((r) => r.headers.get("request-id")!);
    const rows = await t.app.db.selectFrom("request_log").selectAll().where("id", "in", ids).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const keyIds = await t.app.db
      .selectFrom("api_keys")
      .select(["id", "livemode"])
      .where("org_id", "=", a.orgId)
      .execute();
    const keyOf = (livemode: number) => keyIds.find((k) => k.livemode === livemode)!.id;
    expect(ids.map((id) => byId.get(id))).toMatchObject([
      { org_id: a.orgId, livemode: 0, method: "GET", path: "/v1/me", status: 200, code: null },
      { livemode: 0, path: "/v1/posts", status: 400, code: "parameter_unknown" },
      { livemode: 1, path: "/v1/me", status: 200, code: null, api_key_id: keyOf(1), user_token_id: null },
    ]);
    expect(byId.get(ids[0]!)!.api_key_id).toBe(keyOf(0));
    for (const r of rows) {
      expect(Number.isInteger(r.duration_ms)).toBe(true);
      expect(typeof r.created_at).toBe("number");
    }
  });
});
