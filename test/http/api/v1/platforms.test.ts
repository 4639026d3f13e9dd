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
    expect(Object.keys(bluesky)).not.toContain("media_by_link");
    const telegram = r.body.data.find((p: { provider: string }) => p.provider === "telegram");
    expect(telegram.images.max_length_with_media).toBe(1024);
    expect(telegram.images.min_aspect_ratio).toBe(0.05);
  });

  test("states each network's video rules as it states image limits (reference §5)", async () => {
    const r = await t.request("GET", "/v1/platforms", { key: a.testKey });
    const by = Object.fromEntries(r.body.data.map((p: { provider: string }) => [p.provider, p]));
    expect(by.x.video).toEqual({
      types: ["video/mp4", "video/quicktime"],
      max_bytes: 512 * 1024 * 1024,
      min_seconds: 0.5,
      max_seconds: 140,
      max_fps: 60,
      codecs: ["h264"],
      min_aspect_ratio: 1 / 3,
      max_aspect_ratio: 3,
    });
    expect([by.bluesky.video.types, by.bluesky.video.max_bytes, by.bluesky.video.max_seconds]).toEqual([
      ["video/mp4"],
      100_000_000,
      180,
    ]);
    expect([by.threads.video.max_seconds, by.threads.video.max_fps, by.threads.video.codecs]).toEqual([
      300,
      60,
      ["h264", "hevc"],
    ]);
    expect([by.linkedin.video.min_seconds, by.linkedin.video.max_seconds]).toEqual([3, 30 * 60]);
    expect(by.linkedin_pages.video).toEqual(by.linkedin.video);
    expect([by.instagram.video.min_seconds, by.instagram.video.max_seconds]).toEqual([3, 15 * 60]);
    expect(by.facebook.video.max_seconds).toBe(20 * 60);
    expect([by.tiktok.video.max_bytes, by.tiktok.video.max_seconds]).toEqual([4 * 1024 ** 3, 10 * 60]);
    expect(by.telegram.video.max_bytes).toBe(50_000_000);
    expect(by.mastodon.video.max_bytes).toBe(99 * 1024 * 1024);
    // A network that takes no video says so with null, not an empty object.
    expect(by.pinterest.video).toBeNull();
    expect(by.slack.video.types).toEqual(["video/mp4", "video/quicktime"]);
    // The schema has teeth: a video rule with the wrong type fails it.
    expect(schemaErrors("Platform", { ...by.x, video: { ...by.x.video, max_fps: "60" } })).not.toBe("");
    expect(schemaErrors("Platform", { ...by.x, video: undefined })).not.toBe("");
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
