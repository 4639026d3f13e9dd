// Video end to end against a real local S3 server and real files made by ffmpeg: the upload streams into the
// bucket, its facts come from the file's index, each network's video rules apply, the sandbox "processes" a video
// before the post is up, and video publishes waiting on processing never hold back a text post.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import { sandboxVideo } from "../../../src/platforms/sandbox/adapter.ts";
import { startPublishWorker } from "../../../src/queue/publish/worker.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, upload } from "../../helpers/media.ts";
import { type LocalS3, localS3 } from "../../helpers/s3.ts";
import { makeVideo } from "../../helpers/video.ts";

describeEachDialect("video", (dialect) => {
  let s3: LocalS3;
  let t: TestApp;
  let a: Tenant;
  let bucket: S3Client;
  const channels: Record<string, string> = {};
  const video: Record<string, string> = {};
  beforeAll(async () => {
    s3 = await localS3();
    t = await testApp(dialect, { env: { ...s3.env, SVC_MAX_VIDEO_BYTES: String(400_000) } });
    a = await tenant(t.app, "Video Org");
    channels.bluesky = (await t.request("GET", "/v1/channels", { key: a.testKey })).body.data[0].id;
    for (const emulates of ["x", "linkedin", "pinterest", "telegram"]) {
      const c = await t.request("POST", "/v1/channels", {
        key: a.testKey,
        body: { brand: a.brandId, provider: "sandbox", emulates },
      });
      channels[emulates] = c.body.id;
    }
    bucket = new S3Client({
      endpoint: s3.endpoint,
      region: "auto",
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
    const add = async (name: string, bytes: Buffer) => {
      const r = await upload(t, a.testKey, { brand: a.brandId, file: { bytes, name: `${name}.bin` } });
      if (r.status !== 201) throw new Error(JSON.stringify(r.body));
      video[name] = r.body.id;
    };
    await add("short", makeVideo({ seconds: 1 }));
    await add("fast", makeVideo({ seconds: 2, fps: 120 }));
    await add("mpeg4", makeVideo({ seconds: 4, codec: "mpeg4" }));
    await add("long", makeVideo({ seconds: 150, fps: 1, width: 64, height: 48, audio: false }));
    await add("mov", makeVideo({ seconds: 4, container: "mov", faststart: true }));
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  const objects = async () =>
    ((await bucket.send(new ListObjectsV2Command({ Bucket: s3.bucket }))).Contents ?? []).map((o) => o.Key);

  test("an MP4 streams into the bucket; length, frame rate and codecs come from its index", async () => {
    const bytes = makeVideo({ seconds: 3, fps: 30, width: 320, height: 240 });
    const r = await upload(t, a.testKey, {
      brand: a.brandId,
      alt: "Demo",
      file: { bytes, name: "demo.mp4" },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      type: "video/mp4",
      size: bytes.length,
      width: 320,
      height: 240,
      alt: "Demo",
      video: { duration_ms: 3000, frame_rate: 30, audio_codec: "mp4a.40.2" },
    });
    expect(r.body.video.video_codec).toStartWith("avc1.");
    expect(await objects()).toContain(`media/${a.orgId}/${r.body.id}`);
    const row = await t.app.db
      .selectFrom("media")
      .selectAll()
      .where("id", "=", r.body.id)
      .executeTakeFirstOrThrow();
    expect(row.storage).toBe("s3");
  });

  test("QuickTime is video too, with its index in front", async () => {
    const m = await t.request("GET", `/v1/media/${video.mov}`, { key: a.testKey });
    expect(m.body).toMatchObject({ type: "video/quicktime", video: { duration_ms: 4000, frame_rate: 25 } });
  });

  test("over SVC_MAX_VIDEO_BYTES: media_too_large, and nothing is left in the bucket", async () => {
    const before = await objects();
    const big = makeVideo({ seconds: 20, fps: 30, width: 640, height: 480 });
    expect(big.length).toBeGreaterThan(400_000);
    const r = await upload(t, a.testKey, { brand: a.brandId, file: { bytes: big } });
    expect([r.status, r.body.code]).toEqual([422, "media_too_large"]);
    expect(await objects()).toEqual(before);
  });

  test("each network's video rules", async () => {
    const codesFor = async (media: string, channel: string) => {
      const r = await t.request("POST", "/v1/posts/preview", {
        key: a.testKey,
        body: { brand: a.brandId, channels: [channel], content: { body: "Watch" }, media: [media] },
      });
      return r.body.renditions[0].violations.map((v: { code: string }) => v.code);
    };
    expect(await codesFor(video.long!, channels.x!)).toEqual(["video_too_long"]);
    expect(await codesFor(video.fast!, channels.x!)).toEqual(["video_frame_rate"]);
    expect(await codesFor(video.mpeg4!, channels.x!)).toEqual(["video_codec_unsupported"]);
    expect(await codesFor(video.short!, channels.linkedin!)).toEqual(["video_too_short"]);
    expect(await codesFor(video.short!, channels.pinterest!)).toEqual(["video_unsupported"]);
    expect(await codesFor(video.mov!, channels.telegram!)).toEqual(["video_unsupported"]);
    expect(await codesFor(video.mov!, channels.x!)).toEqual([]);

    const image = (await upload(t, a.testKey, { brand: a.brandId, file: { bytes: await jpeg(10, 10) } })).body
      .id;
    const alone = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: {
        brand: a.brandId,
        channels: [channels.x!],
        content: { body: "Both" },
        media: [video.mov, image],
      },
    });
    expect([alone.status, alone.body.code]).toEqual([422, "video_alone"]);
  });

  test("video posts wait on the sandbox's processing while a text post due now goes out at once", async () => {
    sandboxVideo.processingMs = 4000;
    // Twelve channels, each with a video post waiting on processing: more than the worker's ten at a time.
    const videoTargets: string[] = [];
    for (let i = 0; i < 12; i++) {
      const c = await t.request("POST", "/v1/channels", {
        key: a.testKey,
        body: { brand: a.brandId, provider: "sandbox", emulates: "x" },
      });
      const p = await t.request("POST", "/v1/posts", {
        key: a.testKey,
        body: {
          brand: a.brandId,
          channels: [c.body.id],
          content: { body: `Video ${i}` },
          media: [video.mov],
        },
      });
      expect(p.status).toBe(201);
      videoTargets.push(p.body.targets[0].id);
    }
    const w = startPublishWorker(t.app, { adapterFor, pollMs: 50 });
    try {
      await Bun.sleep(500);
      const started = Date.now();
      const text = await t.request("POST", "/v1/posts", {
        key: a.testKey,
        body: { brand: a.brandId, channels: [channels.bluesky!], content: { body: "Text, due now" } },
      });
      let status = "";
      while (Date.now() - started < 3000) {
        status = (await t.request("GET", `/v1/posts/${text.body.id}`, { key: a.testKey })).body.status;
        if (status === "published") break;
        await Bun.sleep(25);
      }
      expect(status).toBe("published");
      expect(Date.now() - started).toBeLessThan(1500);
      const waiting = await t.app.db
        .selectFrom("post_targets")
        .select("status")
        .where("id", "in", videoTargets)
        .execute();
      expect(waiting.every((x) => x.status === "publishing")).toBe(true);
      // Then the videos are up, as the sandbox received them (a video's bytes stay in the bucket).
      for (let i = 0; i < 200; i++) {
        const done = await t.app.db
          .selectFrom("post_targets")
          .select("status")
          .where("id", "in", videoTargets)
          .where("status", "=", "published")
          .execute();
        if (done.length === videoTargets.length) break;
        await Bun.sleep(50);
      }
      const got = await t.app.db
        .selectFrom("sandbox_media")
        .select(["type", "bytes", "media_id"])
        .where("target_id", "in", videoTargets)
        .execute();
      expect(got).toHaveLength(12);
      expect(
        got.every((g) => g.type === "video/quicktime" && g.bytes === null && g.media_id === video.mov),
      ).toBe(true);
      // Its permalink page plays it from a signed link to this install, which serves the bucket's bytes.
      const page = await t.http.handle(new Request(`http://localhost/sandbox/${videoTargets[0]}`));
      const html = await page.text();
      expect(page.headers.get("content-security-policy")).toContain("media-src http://localhost:8080");
      const src = /<video controls="" preload="metadata" src="([^"]+)"/
        .exec(html)?.[1]
        ?.replaceAll("&amp;", "&");
      expect(src).toStartWith(`http://localhost:8080/v1/media/${video.mov}/content?`);
      const served = await t.http.handle(
        new Request(src!.replace("http://localhost:8080", "http://localhost")),
      );
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("video/quicktime");
      const size = (await t.request("GET", `/v1/media/${video.mov}`, { key: a.testKey })).body.size;
      expect((await served.arrayBuffer()).byteLength).toBe(size);
    } finally {
      await w.stop();
      sandboxVideo.processingMs = 2000;
    }
  }, 60_000);
});
