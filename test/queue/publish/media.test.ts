// Media at publish time, end to end on the sandbox network: each network gets an image resized (scaled down only
// as far as needed, JPEG, orientation applied, never cropped) where its rules need it and the original unchanged
// where it fits; the sandbox page shows what was received; networks that fetch by link get signed links, which
// need an install reachable from the internet.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import sharp from "sharp";
import { mediaUrl } from "../../../src/domain/media/link.ts";
import { mediaForTarget } from "../../../src/domain/media/publish.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import { startPublishWorker } from "../../../src/queue/publish/worker.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, noisyJpeg, png, upload, webp } from "../../helpers/media.ts";

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

describeEachDialect("media at publish time", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let bluesky: string;
  const channels: Record<string, string> = {};
  const clock = new FakeClock(Date.parse("2026-01-05T10:00:00Z"));
  beforeAll(async () => {
    t = await testApp(dialect, { clock });
    a = await tenant(t.app, "Publish Media Org");
    bluesky = (await t.request("GET", "/v1/channels", { key: a.testKey })).body.data[0].id;
    for (const emulates of ["x", "instagram", "telegram"]) {
      const c = await t.request("POST", "/v1/channels", {
        key: a.testKey,
        body: { brand: a.brandId, provider: "sandbox", emulates },
      });
      channels[emulates] = c.body.id;
    }
  });
  afterAll(() => t.close());

  const add = async (bytes: Uint8Array, alt?: string) => {
    const r = await upload(t, a.testKey, { brand: a.brandId, file: { bytes }, ...(alt ? { alt } : {}) });
    expect(r.status).toBe(201);
    return r.body;
  };
  async function publish(channelIds: string[], media: string[]) {
    const r = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: { brand: a.brandId, channels: channelIds, content: { body: "Pictures" }, media },
    });
    expect(r.status).toBe(201);
    const w = startPublishWorker(t.app, { adapterFor, pollMs: 20 });
    for (let i = 0; i < 100; i++) {
      await Bun.sleep(20);
      await w.idle();
      const left = await t.app.db
        .selectFrom("post_targets")
        .select("id")
        .where("post_id", "=", r.body.id)
        .where("status", "in", ["queued", "publishing"])
        .execute();
      if (left.length === 0) break;
    }
    await w.stop();
    return (await t.request("GET", `/v1/posts/${r.body.id}`, { key: a.testKey })).body;
  }
  const received = (targetId: string) =>
    t.app.db
      .selectFrom("sandbox_media")
      .selectAll()
      .where("target_id", "=", targetId)
      .orderBy("position")
      .execute();
  const targetOf = (post: { targets: { channel: string; id: string }[] }, channel: string) =>
    post.targets.find((x) => x.channel === channel)!;

  test("too big for one network: scaled down as JPEG, turned upright, not cropped; the original where it fits", async () => {
    // 2400x1800 stored, EXIF orientation 6: displayed 1800 wide and 2400 high; about 3 MB of noise.
    const bytes = await sharp(await noisyJpeg(2400, 1800))
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(bytes.length).toBeGreaterThan(1_000_000);
    const m = await add(bytes, "A tall photo");
    expect([m.width, m.height]).toEqual([1800, 2400]);
    const post = await publish([bluesky, channels.x!], [m.id]);
    expect(post.status).toBe("published");

    const [small] = await received(targetOf(post, bluesky).id);
    expect(small!.type).toBe("image/jpeg");
    expect(small!.size).toBeLessThanOrEqual(1_000_000);
    const meta = await sharp(small!.bytes!).metadata();
    expect(meta.format).toBe("jpeg");
    expect(meta.orientation ?? 1).toBe(1);
    expect([meta.width, meta.height]).toEqual([small!.width ?? 0, small!.height ?? 0]);
    // Upright and whole: the same 3:4 shape, only smaller, and not smaller than needed by much.
    expect(Math.abs(meta.width! / meta.height! - 0.75)).toBeLessThan(0.01);
    expect(meta.width!).toBeLessThan(1800);
    expect(meta.width!).toBeGreaterThan(600);

    const [original] = await received(targetOf(post, channels.x!).id);
    expect(sha(original!.bytes!)).toBe(sha(bytes));
    expect(original!.size).toBe(bytes.length);
  });

  test("a type the network does not take is converted to JPEG at the same size", async () => {
    const m = await add(await webp(1000, 800));
    const post = await publish([channels.instagram!], [m.id]);
    const [got] = await received(targetOf(post, channels.instagram!).id);
    expect([got!.type, got!.width, got!.height]).toEqual(["image/jpeg", 1000, 800]);
    expect((await sharp(got!.bytes!).metadata()).format).toBe("jpeg");
  });

  test("over the width + height limit: scaled until it fits", async () => {
    const m = await add(await png(9000, 1200));
    const post = await publish([channels.telegram!], [m.id]);
    const [got] = await received(targetOf(post, channels.telegram!).id);
    expect(got!.type).toBe("image/jpeg");
    expect(got!.width! + got!.height!).toBeLessThanOrEqual(10_000);
    expect(got!.width! + got!.height!).toBeGreaterThan(9_900);
  });

  test("over 50 megapixels is refused with the reason, not resized", async () => {
    const m = await add(await jpeg(8000, 7600, { quality: 30 }));
    const r = await t.request("POST", "/v1/posts/preview", {
      key: a.testKey,
      body: { brand: a.brandId, channels: [channels.telegram!], content: { body: "Huge" }, media: [m.id] },
    });
    const v = r.body.renditions[0].violations;
    expect(v.map((x: { code: string }) => x.code)).toEqual(["media_dimensions"]);
    expect(v[0].message).toContain("images over 50 megapixels are not resized");
  });

  test("the sandbox page shows the images it received, with their alt text", async () => {
    const m = await add(await jpeg(120, 90), "Quarterly chart");
    const post = await publish([bluesky], [m.id]);
    const target = targetOf(post, bluesky);
    const page = await t.http.handle(new Request(`http://localhost/sandbox/${target.id}`));
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('<img src="data:image/jpeg;base64,');
    expect(html).toContain('alt="Quarterly chart"');
    expect(page.headers.get("content-security-policy")).toContain("img-src data:");
  });

  test("networks that fetch by link: media_link_missing unless the install is reachable; signed links", async () => {
    const m = await add(await jpeg(100, 100));
    const r = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: { brand: a.brandId, channels: [bluesky], content: { body: "x" }, media: [m.id] },
    });
    const local = await mediaForTarget(t.app, r.body.id, { provider: "threads", emulates: null });
    expect(local).toMatchObject({ ok: false, code: "media_link_missing" });

    const publicApp = await testApp(dialect, {
      url: t.dbUrl,
      clock,
      env: { SVC_BASE_URL: "https://svc.example.org", SVC_MASTER_KEYS: t.masterKeys },
    });
    const prepared = await mediaForTarget(publicApp.app, r.body.id, {
      provider: "threads",
      emulates: null,
    });
    if (!prepared.ok) throw new Error(prepared.message);
    const link = prepared.media[0]!.link!()!;
    expect(link).toStartWith(`https://svc.example.org/v1/media/${m.id}/content?expires=`);
    await publicApp.app.close();

    // The link answers with the bytes, without a credential; a changed, expired or foreign link is a 404.
    const path = link.replace("https://svc.example.org", "http://localhost");
    const ok = await t.http.handle(new Request(path));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("image/jpeg");
    const original = await t.app.db
      .selectFrom("media_blobs")
      .select("bytes")
      .where("media_id", "=", m.id)
      .executeTakeFirstOrThrow();
    expect(sha(new Uint8Array(await ok.arrayBuffer()))).toBe(sha(original.bytes as Uint8Array));
    const bad = [
      path.replace(/signature=[^&]+/, "signature=AAAA"),
      path.replace(/for=threads/, "for=instagram"),
      path.replace(m.id, (await add(await jpeg(9, 9))).id),
      mediaUrl(t.app, m.id, "threads", clock.now() + 10 * 3600_000).replace(
        "http://localhost:8080",
        "http://localhost",
      ),
    ];
    for (const u of bad) {
      const res = await t.http.handle(new Request(u));
      expect([res.status, ((await res.json()) as { code: string }).code]).toEqual([404, "resource_missing"]);
    }
    clock.advance(3601_000);
    expect((await t.http.handle(new Request(path))).status).toBe(404);
  });
});
