// GET /v1/platforms: every provider's public shape, to any valid credential.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { providers } from "../../../../src/platforms/types.ts";
import { type TestApp, testApp } from "../../../helpers/app.ts";
import { describeEachDialect } from "../../../helpers/db.ts";
import { key, type Tenant, tenant } from "../../../helpers/factories.ts";
import { schemaErrors } from "../../../helpers/schemas.ts";

describeEachDialect("/v1/platforms", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app, "Platforms Org");
  });
  afterAll(() => t.close());

  test("lists every provider in order with its limits and connect fields", async () => {
    const r = await t.request("GET", "/v1/platforms", { key: a.testKey });
    expect(r.status).toBe(200);
    expect([r.body.object, r.body.has_more, r.body.url]).toEqual(["list", false, "/v1/platforms"]);
    expect(r.body.data.map((p: { provider: string }) => p.provider)).toEqual([...providers]);
    for (const p of r.body.data) expect(schemaErrors("Platform", p)).toBe("");
    const bluesky = r.body.data.find((p: { provider: string }) => p.provider === "bluesky");
    expect([bluesky.max_length, bluesky.counting, bluesky.max_thread_parts, bluesky.max_media]).toEqual([
      300,
      "bluesky",
      25,
      4,
    ]);
    expect(bluesky.connect_fields.map((f: { name: string; secret: boolean }) => [f.name, f.secret])).toEqual([
      ["identifier", false],
      ["app_password", true],
      ["service", false],
    ]);
    // Only the public shape: what only the service uses stays inside.
    expect(Object.keys(bluesky)).not.toContain("idempotent");
    expect(Object.keys(bluesky)).not.toContain("video");
    const telegram = r.body.data.find((p: { provider: string }) => p.provider === "telegram");
    expect(telegram.images.max_length_with_media).toBe(1024);
    expect(telegram.images.min_aspect_ratio).toBe(0.05);
  });

  test("needs a valid credential but no scope", async () => {
    const narrow = await key(t.app, a.orgId, { name: "posts only", scopes: ["posts:read"] });
    const r = await t.request("GET", "/v1/platforms", { key: narrow });
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(providers.length);
    const live = await t.request("GET", "/v1/platforms", { key: a.liveKey });
    expect(live.body.data).toEqual(r.body.data);
    const none = await t.request("GET", "/v1/platforms");
    expect([none.status, none.body.code]).toEqual([401, "api_key_missing"]);
  });
});
