// One upload must not take the appliance down: what decoding or indexing a file costs is bounded before the work
// starts. A pixel flood (a small PNG whose header declares 20000 x 20000) is refused from its header with
// media_too_large; an MP4 whose index claims 15 million samples is refused from its box headers with
// media_unreadable, before mp4box builds a sample table. Before: 23 s and 1.5 GiB for the PNG, 3.3 GiB and the
// event loop held 2.9 s for the MP4. Both files are made here, for real.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { MAX_INDEX_SAMPLES } from "../../../src/domain/media/probe.ts";
import { MAX_IMAGE_PIXELS } from "../../../src/domain/media/sniff.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { pixelFloodPng, png, upload } from "../../helpers/media.ts";
import { type LocalS3, localS3 } from "../../helpers/s3.ts";
import { makeVideo } from "../../helpers/video.ts";

/** `fn`'s answer, with how long it took and how much the process's resident memory grew meanwhile (sampled). */
async function measured<T>(fn: () => Promise<T>): Promise<{ out: T; ms: number; grewMiB: number }> {
  Bun.gc(true);
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const start = performance.now();
  try {
    const out = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { out, ms: performance.now() - start, grewMiB: (peak - before) / 2 ** 20 };
  } finally {
    clearInterval(sampler);
  }
}

/** `mp4` with its first sample-size box (`stsz`) claiming `samples` samples of one size each: a few bytes changed. */
function inflatedIndex(mp4: Buffer, samples: number): Buffer {
  const out = Buffer.from(mp4);
  const at = out.indexOf("stsz", 0, "latin1") - 4;
  if (at < 0) throw new Error("no stsz box");
  // Box size, type, version and flags, then sample_size (constant when not 0) and sample_count.
  out.writeUInt32BE(1000, at + 12);
  out.writeUInt32BE(samples, at + 16);
  return out;
}

describeEachDialect("decode limits before decoding", (dialect) => {
  let s3: LocalS3;
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    s3 = await localS3();
    t = await testApp(dialect, { env: s3.env });
    a = await tenant(t.app, "Limits Org");
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  test("a PNG whose header declares 20000 x 20000 is refused from the header: media_too_large, in bounded time and memory", async () => {
    const flood = await pixelFloodPng(20_000, 20_000);
    expect(flood.byteLength).toBeLessThan(2 * 1024 * 1024);
    const {
      out: r,
      ms,
      grewMiB,
    } = await measured(() =>
      upload(t, a.testKey, { brand: a.brandId, file: { bytes: flood, name: "flood.png" } }),
    );
    expect(r.status).toBe(422);
    const body = r.body as { errors: { code: string; param: string; detail?: unknown }[] };
    expect(body.errors[0]).toMatchObject({ code: "media_too_large", param: "file" });
    expect(JSON.stringify(body.errors[0])).toContain(String(MAX_IMAGE_PIXELS));
    // Decoding it took 23 s and 1.5 GiB; reading its header takes milliseconds and next to no memory.
    expect(ms).toBeLessThan(2000);
    expect(grewMiB).toBeLessThan(150);
    expect(await t.app.db.selectFrom("media").select("id").execute()).toEqual([]);
  }, 60_000);

  test("an image under the pixel limit is still decoded and accepted", async () => {
    const r = await upload(t, a.testKey, {
      brand: a.brandId,
      file: { bytes: await png(640, 480), name: "ok.png" },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ width: 640, height: 480 });
  });

  test("an MP4 whose index claims 15 million samples is refused from its box headers: media_unreadable, in bounded time and memory", async () => {
    const real = makeVideo({ seconds: 1, faststart: true, audio: false });
    const inflated = inflatedIndex(real, 15_000_000);
    const {
      out: r,
      ms,
      grewMiB,
    } = await measured(() =>
      upload(t, a.testKey, { brand: a.brandId, file: { bytes: inflated, name: "inflated.mp4" } }),
    );
    expect(r.status).toBe(422);
    const body = r.body as { errors: { code: string; param: string; message: string }[] };
    expect(body.errors[0]).toMatchObject({ code: "media_unreadable", param: "file" });
    expect(body.errors[0]!.message).toContain("15000000 samples");
    expect(body.errors[0]!.message).toContain(String(MAX_INDEX_SAMPLES));
    // Parsing it cost 3.3 GiB and held the event loop 2.9 s.
    expect(ms).toBeLessThan(2000);
    expect(grewMiB).toBeLessThan(150);
    expect(await t.app.db.selectFrom("media").select("id").where("kind", "=", "video").execute()).toEqual([]);
  }, 60_000);

  test("the same video with its real index is accepted", async () => {
    const r = await upload(t, a.testKey, {
      brand: a.brandId,
      file: { bytes: makeVideo({ seconds: 1, faststart: true, audio: false }), name: "ok.mp4" },
    });
    expect(r.status).toBe(201);
    expect(r.body.video.duration_ms).toBeGreaterThan(900);
  });
});
