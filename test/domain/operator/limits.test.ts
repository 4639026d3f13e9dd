// Org limits set through the operator API: reached at their exact boundary, never passed by concurrent creates,
// and lowering one removes nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createOperatorKey } from "../../../src/domain/identity/auth/operator.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

describeEachDialect("org limits", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let op: string;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app, "Limited");
    op = (await createOperatorKey(t.app, "ops")).secret;
  });
  afterAll(() => t.close());

  const limits = (l: Record<string, number | null>) =>
    t.request("POST", `/v1/operator/orgs/${a.orgId}`, { key: op, body: { limits: l } });
  const brand = (n: string) => t.request("POST", "/v1/brands", { key: a.testKey, body: { name: n } });

  test("brands: rounds of concurrent creates never pass the limit", async () => {
    // Each round raises the limit by 2 and sends 10 creates at once: exactly 2 may pass.
    for (let round = 0; round < 5; round++) {
      expect((await limits({ brands: 1 + 2 * (round + 1) })).status).toBe(200);
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => brand(`Round ${round} ${i}`)));
      const refused = results.filter((r) => r.status === 403);
      expect(results.filter((r) => r.status === 201)).toHaveLength(2);
      expect(refused.every((r) => r.body.code === "limit_reached" && r.body.param === "brands")).toBe(true);
    }
    expect((await t.request("GET", "/v1/brands?limit=100", { key: a.testKey })).body.data).toHaveLength(11);
  });

  test("lowering a limit removes nothing; raising it by one allows exactly one more", async () => {
    expect((await limits({ brands: 1 })).status).toBe(200);
    expect((await t.request("GET", "/v1/brands?limit=100", { key: a.testKey })).body.data).toHaveLength(11);
    expect((await brand("Over")).body.code).toBe("limit_reached");
    expect((await limits({ brands: 12 })).status).toBe(200);
    expect((await brand("Fifth")).status).toBe(201);
    expect((await brand("Sixth")).body.code).toBe("limit_reached");
    expect((await limits({ brands: null })).status).toBe(200);
    expect((await brand("Unlimited")).status).toBe(201);
  });

  test("test-mode posts do not count toward the live posts-per-month limit", async () => {
    const channel = await t.request("POST", "/v1/channels", {
      key: a.testKey,
      body: { brand: a.brandSlug, provider: "sandbox" },
    });
    expect(channel.status).toBe(201);
    expect((await limits({ posts_per_month: 0 })).status).toBe(200);
    const testPost = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: { brand: a.brandSlug, content: { body: "test mode is free" }, publish_at: "next_slot" },
    });
    expect(testPost.status).toBe(201);
  });
});
