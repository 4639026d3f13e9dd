// /v1/media as a client sees it: uploads by multipart or by URL, the type decided by the bytes, the displayed
// size, every refusal with its code, list/get/alt/delete, and another org's or the other mode's media as missing.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { type TestApp, testApp } from "../../../helpers/app.ts";
import { describeEachDialect } from "../../../helpers/db.ts";
import { type Tenant, tenant } from "../../../helpers/factories.ts";
import { animatedGif, jpeg, mp4Header, png, upload, webp } from "../../../helpers/media.ts";
import { schemaErrors } from "../../../helpers/schemas.ts";

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

describeEachDialect("/v1/media", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let b: Tenant;
  let images: Bun.Server<undefined>;
  let origin: string;
  let photo: Buffer;
  beforeAll(async () => {
    t = await testApp(dialect, { env: { SVC_ALLOW_PRIVATE_WEBHOOKS: "true" } });
    a = await tenant(t.app, "Media Org");
    b = await tenant(t.app, "Other Media Org");
    photo = await jpeg(640, 480);
    // A web server the URL uploads fetch from (private addresses allowed for this test app).
    images = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (req) => {
        const path = new URL(req.url).pathname;
        if (path === "/photo.jpg") return new Response(photo, { headers: { "content-type": "text/html" } });
        if (path === "/page.html") return new Response("<html>not an image</html>");
        return new Response("gone", { status: 404 });
      },
    });
    origin = `http://127.0.0.1:${images.port}`;
  });
  afterAll(async () => {
    images.stop(true);
    await t.close();
  });

  describe("upload", () => {
    test("a JPEG: type from the bytes, size as displayed after EXIF orientation, sha256, alt", async () => {
      const bytes = await jpeg(400, 300, { orientation: 6 });
      const r = await upload(t, a.testKey, {
        brand: a.brandId,
        alt: "A sunset over the bay",
        // The name and the declared type say PNG; the bytes say JPEG.
        file: { bytes, name: "sunset.png", type: "image/png" },
      });
      expect(r.status).toBe(201);
      expect(schemaErrors("Media", r.body)).toBe("");
      expect(r.body).toMatchObject({
        object: "media",
        brand: a.brandId,
        livemode: false,
        type: "image/jpeg",
        size: bytes.length,
        width: 300,
        height: 400,
        alt: "A sunset over the bay",
        filename: "sunset.png",
        sha256: sha(bytes),
        video: null,
      });
      expect(r.body.id).toMatch(/^media_/);
    });

    test("PNG, WebP and an animated GIF are images too", async () => {
      const cases: [Buffer, string, number, number][] = [
        [await png(30, 20, 0.5), "image/png", 30, 20],
        [await webp(50, 60), "image/webp", 50, 60],
        [await animatedGif(20, 10), "image/gif", 20, 10],
      ];
      for (const [bytes, type, width, height] of cases) {
        const r = await upload(t, a.testKey, { brand: a.brandSlug, file: { bytes } });
        expect(r.status).toBe(201);
        expect([r.body.type, r.body.width, r.body.height, r.body.alt]).toEqual([type, width, height, null]);
      }
    });

    test("by URL, fetched through the guarded client; the served content type is ignored", async () => {
      const r = await t.request("POST", "/v1/media", {
        key: a.testKey,
        body: { brand: a.brandId, url: `${origin}/photo.jpg`, alt: "From the web" },
      });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        type: "image/jpeg",
        width: 640,
        height: 480,
        filename: "photo.jpg",
        alt: "From the web",
        sha256: sha(photo),
      });
    });

    test("every refusal has its code, and nothing is stored", async () => {
      const before = (await t.app.db.selectFrom("media").select("id").execute()).length;
      const cases: [Promise<{ status: number; body: { code: string } }>, number, string][] = [
        [upload(t, a.testKey, { brand: a.brandId }), 400, "file_missing"],
        [
          upload(t, a.testKey, { brand: a.brandId, color: "red", file: { bytes: photo } }),
          400,
          "form_invalid",
        ],
        [
          t.request("POST", "/v1/media", {
            key: a.testKey,
            raw: "file=abc",
            headers: { "content-type": "application/x-www-form-urlencoded" },
          }),
          400,
          "form_invalid",
        ],
        [
          t.request("POST", "/v1/media", {
            key: a.testKey,
            raw: "--x\r\nbroken",
            headers: { "content-type": "multipart/form-data" },
          }),
          400,
          "form_invalid",
        ],
        [upload(t, a.testKey, { brand: a.brandId, file: { bytes: new Uint8Array(0) } }), 422, "media_empty"],
        [
          upload(t, a.testKey, {
            brand: a.brandId,
            file: { bytes: Buffer.alloc(16 * 1024 * 1024 + 1, 7) },
          }),
          422,
          "media_type_unsupported",
        ],
        [
          upload(t, a.testKey, {
            brand: a.brandId,
            file: { bytes: Buffer.concat([photo, Buffer.alloc(16 * 1024 * 1024)]) },
          }),
          422,
          "media_too_large",
        ],
        [
          upload(t, a.testKey, {
            brand: a.brandId,
            file: { bytes: Buffer.from("<svg></svg>"), type: "image/png" },
          }),
          422,
          "media_type_unsupported",
        ],
        [
          upload(t, a.testKey, { brand: a.brandId, alt: "x".repeat(1001), file: { bytes: photo } }),
          422,
          "alt_too_long",
        ],
        [
          upload(t, a.testKey, { brand: a.brandId, file: { bytes: photo.subarray(0, 200) } }),
          422,
          "media_unreadable",
        ],
        [upload(t, a.testKey, { brand: a.brandId, file: { bytes: mp4Header() } }), 422, "video_needs_s3"],
        [upload(t, a.testKey, { brand: b.brandId, file: { bytes: photo } }), 404, "resource_missing"],
        [
          t.request("POST", "/v1/media", {
            key: a.testKey,
            body: { brand: a.brandId, url: "ftp://x/y.jpg" },
          }),
          422,
          "url_invalid",
        ],
        [
          t.request("POST", "/v1/media", {
            key: a.testKey,
            body: { brand: a.brandId, url: `${origin}/none.jpg` },
          }),
          422,
          "url_unreachable",
        ],
        [
          t.request("POST", "/v1/media", {
            key: a.testKey,
            body: { brand: a.brandId, url: `${origin}/page.html` },
          }),
          422,
          "media_type_unsupported",
        ],
        [
          t.request("POST", "/v1/media", { key: a.testKey, body: { brand: a.brandId, url: 5 } }),
          400,
          "parameter_invalid",
        ],
      ];
      for (const [pending, status, code] of cases) {
        const r = await pending;
        expect([r.status, r.body.code]).toEqual([status, code]);
      }
      expect((await t.app.db.selectFrom("media").select("id").execute()).length).toBe(before);
      expect((await t.app.db.selectFrom("media_blobs").select("media_id").execute()).length).toBe(before);
    });

    test("a private address is refused unless SVC_ALLOW_PRIVATE_WEBHOOKS allows it", async () => {
      const strict = await testApp(dialect);
      const c = await tenant(strict.app, "Strict Org");
      const r = await strict.request("POST", "/v1/media", {
        key: c.testKey,
        body: { brand: c.brandId, url: `${origin}/photo.jpg` },
      });
      expect([r.status, r.body.code]).toEqual([422, "url_invalid"]);
      expect(r.body.errors[0].message).toContain("non-public address (loopback)");
      expect(r.body.errors[0].message).toContain("SVC_ALLOW_PRIVATE_WEBHOOKS");
      await strict.close();
    });
  });

  describe("list, get, alt, delete", () => {
    test("list by brand, newest first; get; change alt; delete", async () => {
      const one = (await upload(t, a.testKey, { brand: a.brandId, file: { bytes: await png(5, 5) } })).body;
      const two = (await upload(t, a.testKey, { brand: a.brandId, file: { bytes: await png(6, 6) } })).body;
      const list = await t.request("GET", `/v1/media?brand=${a.brandSlug}&limit=2`, { key: a.testKey });
      expect(list.status).toBe(200);
      expect(list.body.data.map((m: { id: string }) => m.id)).toEqual([two.id, one.id]);
      expect(list.body.has_more).toBe(true);

      const got = await t.request("GET", `/v1/media/${one.id}`, { key: a.testKey });
      expect(got.body).toEqual(one);

      const alt = await t.request("POST", `/v1/media/${one.id}`, {
        key: a.testKey,
        body: { alt: "Blue square" },
      });
      expect([alt.status, alt.body.alt]).toEqual([200, "Blue square"]);
      const long = await t.request("POST", `/v1/media/${one.id}`, {
        key: a.testKey,
        body: { alt: "é".repeat(1001) },
      });
      expect([long.status, long.body.code]).toEqual([422, "alt_too_long"]);
      const unknown = await t.request("POST", `/v1/media/${one.id}`, {
        key: a.testKey,
        body: { alt: "x", size: 1 },
      });
      expect([unknown.status, unknown.body.code]).toEqual([400, "parameter_unknown"]);

      const del = await t.request("DELETE", `/v1/media/${one.id}`, { key: a.testKey });
      expect(del.body).toEqual({ id: one.id, object: "media", deleted: true });
      expect((await t.request("GET", `/v1/media/${one.id}`, { key: a.testKey })).status).toBe(404);
      const blob = await t.app.db
        .selectFrom("media_blobs")
        .select("media_id")
        .where("media_id", "=", one.id)
        .execute();
      expect(blob).toEqual([]);
    });

    test("another org's and the other mode's media answer 404 resource_missing on every route", async () => {
      const mine = (await upload(t, a.testKey, { brand: a.brandId, file: { bytes: photo } })).body;
      for (const key of [b.testKey, a.liveKey]) {
        const calls = [
          t.request("GET", `/v1/media/${mine.id}`, { key }),
          t.request("POST", `/v1/media/${mine.id}`, { key, body: { alt: "mine now" } }),
          t.request("DELETE", `/v1/media/${mine.id}`, { key }),
        ];
        for (const r of await Promise.all(calls))
          expect([r.status, r.body.code]).toEqual([404, "resource_missing"]);
        const list = await t.request("GET", "/v1/media", { key });
        expect(list.body.data.map((m: { id: string }) => m.id)).not.toContain(mine.id);
      }
      const other = await t.request("GET", `/v1/media?brand=${a.brandId}`, { key: b.testKey });
      expect([other.status, other.body.code]).toEqual([404, "resource_missing"]);
      expect((await t.request("GET", `/v1/media/${mine.id}`, { key: a.testKey })).body.alt).toBe(null);
    });

    test("live-mode media are the live key's own", async () => {
      const live = await upload(t, a.liveKey, { brand: a.brandId, file: { bytes: photo } });
      expect([live.status, live.body.livemode]).toEqual([201, true]);
      expect((await t.request("GET", `/v1/media/${live.body.id}`, { key: a.testKey })).status).toBe(404);
    });
  });
});
