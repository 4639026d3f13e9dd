// Org status set by the operator, enforced on every route of the route table (generated, not listed by hand):
// read_only refuses every change and still reads; suspended refuses every key and token. Through the operator
// API, so what is tested is what an operator does.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createOperatorKey } from "../../../src/domain/identity/auth/operator.ts";
import { v1Routes } from "../../../src/http/api/v1/index.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant, userToken } from "../../helpers/factories.ts";

const orgRoutes = v1Routes.filter((r) => !r.operator);
const pathOf = (p: string) => p.replace(/:[A-Za-z_]+/g, "x_1");

describeEachDialect("org status", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let op: string;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app, "Status Org");
    op = (await createOperatorKey(t.app, "ops")).secret;
  });
  afterAll(() => t.close());

  const setStatus = (status: string, note: string | null = null) =>
    t.request("POST", `/v1/operator/orgs/${a.orgId}`, { key: op, body: { status, status_note: note } });

  test("read_only: every write route answers org_read_only with the note; reads still work", async () => {
    expect((await setStatus("read_only", "Invoice overdue")).status).toBe(200);
    const writes = orgRoutes.filter((r) => r.method !== "GET" && !r.safe);
    expect(writes.length).toBeGreaterThan(20);
    for (const r of writes) {
      const res = await t.request(r.method, pathOf(r.path), { key: a.testKey, body: {} });
      expect([`${r.method} ${r.path}`, res.status, res.body.code]).toEqual([
        `${r.method} ${r.path}`,
        403,
        "org_read_only",
      ]);
      expect(res.body.detail).toContain("Invoice overdue");
    }
    const reads = await t.request("GET", "/v1/brands", { key: a.testKey });
    expect(reads.status).toBe(200);
    const preview = await t.request("POST", "/v1/posts/preview", {
      key: a.testKey,
      body: { brand: a.brandSlug, content: { body: "still allowed: changes nothing" } },
    });
    expect(preview.status).toBe(200);
  });

  test("suspended: every route refuses keys and user tokens with org_suspended", async () => {
    expect((await setStatus("suspended", "Contact billing")).status).toBe(200);
    const token = (await userToken(t.app, a.userId)).secret;
    for (const r of orgRoutes) {
      for (const key of [a.testKey, a.liveKey, token]) {
        const res = await t.request(r.method, pathOf(r.path), {
          key,
          body: r.method === "GET" ? undefined : {},
        });
        expect([`${r.method} ${r.path}`, res.status, res.body.code]).toEqual([
          `${r.method} ${r.path}`,
          403,
          "org_suspended",
        ]);
      }
    }
  });

  test("active again: keys work", async () => {
    expect((await setStatus("active")).status).toBe(200);
    expect((await t.request("POST", "/v1/brands", { key: a.testKey, body: { name: "Back" } })).status).toBe(
      201,
    );
  });
});
