// Bluesky against a real local PDS (@atproto/pds on 127.0.0.1): connecting with an app password, publishing text,
// a thread, a link, images and a video (kept in a local S3 bucket) through the API and the publish worker, reading
// the records and blobs back from the PDS, a video the PDS refuses, the never-twice rule when a worker dies after
// the PDS took a post, and a revoked app password seen by publishing and by channels.check. Both databases.

import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { jsonToLex } from "@atproto/lexicon";
import sharp from "sharp";
import { checkDueChannels } from "../../../src/domain/channels/check.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import { blueskyAdapter } from "../../../src/platforms/bluesky/adapter.ts";
import { recordKey } from "../../../src/platforms/bluesky/rkey.ts";
import { startPublishWorker } from "../../../src/queue/publish/worker.ts";
import { reclaimExpired } from "../../../src/queue/tasks/publish-reclaim.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { blueskyLexicons } from "../../helpers/bluesky/lexicons.ts";
import { type Pds, type PdsAccount, startPds } from "../../helpers/bluesky/pds.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, upload } from "../../helpers/media.ts";
import { type LocalS3, localS3 } from "../../helpers/s3.ts";
import { makeVideo } from "../../helpers/video.ts";

/** The largest blob this PDS takes: above the test images and the small clips, below the large clip. */
const BLOB_LIMIT = 150_000;
let pds: Pds;
// A page for link cards, on loopback like the PDS.
let page: ReturnType<typeof Bun.serve>;
// The bucket videos are kept in (POST /v1/media streams them there), as in production.
let s3: LocalS3;
beforeAll(async () => {
  pds = await startPds({ blobUploadLimit: BLOB_LIMIT });
  s3 = await localS3();
  page = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () =>
      new Response(
        `<html><head><title>Plain title</title><meta property="og:title" content="Launch notes &amp; more">
         <meta property="og:description" content="What changed in the spring release."></head></html>`,
        { headers: { "content-type": "text/html; charset=utf-8" } },
      ),
  });
}, 60_000);
afterAll(async () => {
  page.stop(true);
  await pds.stop();
  await s3.close();
});

let accounts = 0;
const uniqueName = () => `u${Date.now().toString(36)}${(accounts++).toString(36)}`;

describeEachDialect("Bluesky on a local PDS", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  const clock = new FakeClock(Date.now());
  /** Apps that made the database: closed last (closing drops their database). */
  const closeLater: TestApp[] = [];
  afterEach(async () => {
    await t.close();
    for (const x of closeLater.splice(0)) await x.close();
  });
  async function setUp(env: Record<string, string> = {}) {
    t = await testApp(dialect, {
      clock,
      env: { SVC_ALLOW_PRIVATE_NETWORKS: "true", SVC_ALLOW_PRIVATE_WEBHOOKS: "true", ...env },
    });
    a = await tenant(t.app);
  }
  async function account(): Promise<{ acct: PdsAccount; appPassword: string }> {
    const acct = await pds.createAccount(uniqueName());
    return { acct, appPassword: await pds.appPassword(acct, "svc") };
  }
  async function connect(acct: PdsAccount, appPassword: string) {
    return t.request("POST", "/v1/channels", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        provider: "bluesky",
        fields: { identifier: acct.handle, app_password: appPassword, service: pds.url },
      },
    });
  }
  async function drain() {
    const w = startPublishWorker(t.app, { adapterFor, pollMs: 20 });
    for (let i = 0; i < 200; i++) {
      await Bun.sleep(20);
      await w.idle();
      const due = await t.app.db
        .selectFrom("post_targets")
        .select("id")
        .where("status", "in", ["queued", "publishing"])
        .where("next_attempt_at", "<=", clock.now())
        .execute();
      if (due.length === 0) break;
    }
    await w.stop();
  }
  async function post(channel: string, body: string) {
    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: { brand: a.brandId, channels: [channel], content: { body } },
    });
    expect(r.status).toBe(201);
    return r.body;
  }
  const getPost = async (id: string) => (await t.request("GET", `/v1/posts/${id}`, { key: a.liveKey })).body;

  test("connecting checks the app password with the PDS first, and shows the account", async () => {
    await setUp();
    const { acct, appPassword } = await account();
    const wrong = await connect(acct, "aaaa-bbbb-cccc-dddd");
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe("connect_failed");
    expect(wrong.body.errors[0].param).toBe("fields");
    expect(wrong.body.errors[0].message).toContain("Bluesky refused these credentials");
    const none = await t.request("GET", "/v1/channels", { key: a.liveKey });
    expect(none.body.data).toEqual([]);

    const r = await connect(acct, appPassword);
    expect(r.status).toBe(201);
    expect(r.body.provider).toBe("bluesky");
    expect(r.body.handle).toBe(acct.handle);
    expect(r.body.display_name).toBe(acct.handle);
    expect(r.body.profile_url).toBe(`https://bsky.app/profile/${acct.handle}`);
    expect(r.body.settings).toEqual({ identifier: acct.handle, service: pds.url });
    expect(JSON.stringify(r.body)).not.toContain(appPassword);
    expect(r.body.checked_at).not.toBeNull();
    const row = await t.app.db
      .selectFrom("channels")
      .select("secrets")
      .where("id", "=", r.body.id)
      .executeTakeFirstOrThrow();
    expect(row.secrets).not.toContain(appPassword);
    const events = await t.app.db
      .selectFrom("events")
      .select("type")
      .where("org_id", "=", a.orgId)
      .where("livemode", "=", 1)
      .where("type", "=", "channel.connected")
      .execute();
    expect(events.length).toBe(1);
  });

  test("a server that cannot be reached is 503 provider_unavailable, and a private one needs SVC_ALLOW_PRIVATE_NETWORKS", async () => {
    await setUp();
    const { acct, appPassword } = await account();
    const down = await t.request("POST", "/v1/channels", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        provider: "bluesky",
        fields: { identifier: acct.handle, app_password: appPassword, service: "http://127.0.0.1:9" },
      },
    });
    expect(down.status).toBe(503);
    expect(down.body.code).toBe("provider_unavailable");
    await t.close();
    t = await testApp(dialect, { clock });
    a = await tenant(t.app);
    const blocked = await connect(acct, appPassword);
    expect(blocked.status).toBe(422);
    expect(blocked.body.code).toBe("connect_failed");
    expect(blocked.body.errors[0].message).toContain("non-public address");
  });

  test("text, a thread and a link are published as records on the PDS", async () => {
    await setUp();
    const { acct, appPassword } = await account();
    const ch = (await connect(acct, appPassword)).body.id;
    const link = `http://127.0.0.1:${page.port}/notes/spring-release-2026`;
    const text = await post(ch, "Hello from svc 👋");
    const thread = await post(ch, "First part\n{{thread}}\nSecond part\n{{thread}}\nThird part");
    const linked = await post(ch, `Read the notes: ${link} #release`);
    await drain();

    const records = await pds.records(acct.did);
    expect(records.length).toBe(5);
    // Every record svc wrote is a valid app.bsky.feed.post by the published lexicon (the PDS checked too).
    const lex = blueskyLexicons();
    if (lex) for (const r of records) lex.assertValidRecord("app.bsky.feed.post", r.value);
    else console.warn("Bluesky lexicons not found beside the project: lexicon validation was off");
    const byKey = new Map(records.map((r) => [r.uri.slice(r.uri.lastIndexOf("/") + 1), r]));

    const tt = (await getPost(text.id)).targets[0];
    expect(tt.status).toBe("published");
    const textKey = recordKey(tt.id, 0);
    expect(tt.permalink).toBe(`https://bsky.app/profile/${acct.handle}/post/${textKey}`);
    expect(byKey.get(textKey)!.value.text).toBe("Hello from svc 👋");

    const th = (await getPost(thread.id)).targets[0];
    expect(th.status).toBe("published");
    const [p0, p1, p2] = [0, 1, 2].map((i) => byKey.get(recordKey(th.id, i))!);
    expect([p0!.value.text, p1!.value.text, p2!.value.text]).toEqual([
      "First part",
      "Second part",
      "Third part",
    ]);
    expect(p0!.value.reply).toBeUndefined();
    expect(p1!.value.reply).toEqual({
      root: { uri: p0!.uri, cid: p0!.cid },
      parent: { uri: p0!.uri, cid: p0!.cid },
    });
    expect(p2!.value.reply).toEqual({
      root: { uri: p0!.uri, cid: p0!.cid },
      parent: { uri: p1!.uri, cid: p1!.cid },
    });

    const lt = (await getPost(linked.id)).targets[0];
    const lr = byKey.get(recordKey(lt.id, 0))!.value as {
      text: string;
      facets: { index: { byteStart: number; byteEnd: number }; features: Record<string, string>[] }[];
      embed: { $type: string; external: { uri: string; title: string; description: string } };
    };
    const shown = `127.0.0.1:${page.port}/notes/spring...`;
    expect(lr.text).toBe(`Read the notes: ${shown} #release`);
    const bytes = new TextEncoder().encode(lr.text);
    const slice = (f: { index: { byteStart: number; byteEnd: number } }) =>
      new TextDecoder().decode(bytes.slice(f.index.byteStart, f.index.byteEnd));
    expect(slice(lr.facets[0]!)).toBe(shown);
    expect(lr.facets[0]!.features[0]).toEqual({ $type: "app.bsky.richtext.facet#link", uri: link });
    expect(slice(lr.facets[1]!)).toBe("#release");
    expect(lr.facets[1]!.features[0]).toEqual({ $type: "app.bsky.richtext.facet#tag", tag: "release" });
    expect(lr.embed).toEqual({
      $type: "app.bsky.embed.external",
      external: {
        uri: link,
        title: "Launch notes & more",
        description: "What changed in the spring release.",
      },
    });
  });

  test("images are uploaded as blobs and embedded with their alt text and aspect ratio, in place of a link card", async () => {
    await setUp();
    const { acct, appPassword } = await account();
    const ch = (await connect(acct, appPassword)).body.id;
    const wide = await upload(t, a.liveKey, {
      brand: a.brandId,
      alt: "A wide orange chart",
      file: { bytes: await jpeg(640, 360), name: "wide.jpg", type: "image/jpeg" },
    });
    expect(wide.status).toBe(201);
    const tall = await upload(t, a.liveKey, {
      brand: a.brandId,
      file: { bytes: await jpeg(300, 400), name: "tall.jpg", type: "image/jpeg" },
    });
    expect(tall.status).toBe(201);
    const link = `http://127.0.0.1:${page.port}/notes/spring-release-2026`;
    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        channels: [ch],
        content: { body: `Two charts, notes at ${link}` },
        media: [wide.body.id, tall.body.id],
      },
    });
    expect(r.status).toBe(201);
    await drain();

    const target = (await getPost(r.body.id)).targets[0];
    expect(target.status).toBe("published");
    const records = await pds.records(acct.did);
    expect(records.length).toBe(1);
    const value = records[0]!.value as {
      facets: { features: Record<string, string>[] }[];
      embed: {
        $type: string;
        images: {
          image: { $type: string; ref: { $link: string }; mimeType: string; size: number };
          alt: string;
          aspectRatio: { width: number; height: number };
        }[];
      };
    };
    expect(records[0]!.uri).toEndWith(`/${recordKey(target.id, 0)}`);
    // The published lexicon accepts it (blob references are JSON here: converted back first).
    const lex = blueskyLexicons();
    if (lex) lex.assertValidRecord("app.bsky.feed.post", jsonToLex(value));
    else console.warn("Bluesky lexicons not found beside the project: lexicon validation was off");
    // Images win: no link card, the link keeps its facet.
    expect(value.embed.$type).toBe("app.bsky.embed.images");
    expect(value.facets[0]!.features[0]).toEqual({ $type: "app.bsky.richtext.facet#link", uri: link });
    expect(value.embed.images.map((i) => [i.alt, i.aspectRatio])).toEqual([
      ["A wide orange chart", { width: 640, height: 360 }],
      ["", { width: 300, height: 400 }],
    ]);
    // Each blob reference points at a blob the PDS holds: the JPEG that was uploaded, at its size.
    for (const [i, img] of value.embed.images.entries()) {
      expect(img.image.$type).toBe("blob");
      expect(img.image.mimeType).toBe("image/jpeg");
      const q = new URLSearchParams({ did: acct.did, cid: img.image.ref.$link });
      const blob = await fetch(`${pds.url}/xrpc/com.atproto.sync.getBlob?${q}`);
      expect(blob.status).toBe(200);
      const bytes = new Uint8Array(await blob.arrayBuffer());
      expect(bytes.length).toBe(img.image.size);
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(
        i === 0 ? ["jpeg", 640, 360] : ["jpeg", 300, 400],
      );
    }
  });

  /** A real MP4 uploaded through POST /v1/media (multipart) into the local bucket; its media ID. */
  async function uploadVideo(bytes: Uint8Array, alt?: string): Promise<string> {
    const r = await upload(t, a.liveKey, {
      brand: a.brandId,
      ...(alt ? { alt } : {}),
      file: { bytes, name: "clip.mp4", type: "video/mp4" },
    });
    expect(r.status).toBe(201);
    expect(r.body.type).toBe("video/mp4");
    const row = await t.app.db
      .selectFrom("media")
      .select("storage")
      .where("id", "=", r.body.id)
      .executeTakeFirstOrThrow();
    expect(row.storage).toBe("s3");
    return r.body.id;
  }
  async function postWith(channel: string, body: string, media: string[]) {
    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: { brand: a.brandId, channels: [channel], content: { body }, media },
    });
    expect(r.status).toBe(201);
    return r.body;
  }
  interface VideoRecord {
    text: string;
    embed: {
      $type: string;
      video: { $type: string; ref: { $link: string }; mimeType: string; size: number };
      alt?: string;
      aspectRatio?: { width: number; height: number };
    };
  }

  test("a video goes from the bucket to the PDS as a blob, embedded with app.bsky.embed.video: alt, aspect ratio, the same bytes", async () => {
    await setUp(s3.env);
    const { acct, appPassword } = await account();
    const ch = (await connect(acct, appPassword)).body.id;
    const bytes = makeVideo({ seconds: 2, width: 320, height: 240 });
    const media = await uploadVideo(bytes, "A test pattern with a tone");
    const p = await postWith(ch, "A clip from the spring release", [media]);
    await drain();

    const target = (await getPost(p.id)).targets[0];
    expect(target.status).toBe("published");
    expect(target.permalink).toBe(`https://bsky.app/profile/${acct.handle}/post/${recordKey(target.id, 0)}`);
    const records = await pds.records(acct.did);
    expect(records.length).toBe(1);
    expect(records[0]!.uri).toEndWith(`/${recordKey(target.id, 0)}`);
    const value = records[0]!.value as unknown as VideoRecord;
    const lex = blueskyLexicons();
    if (lex) lex.assertValidRecord("app.bsky.feed.post", jsonToLex(value));
    else console.warn("Bluesky lexicons not found beside the project: lexicon validation was off");
    expect(value.text).toBe("A clip from the spring release");
    expect(value.embed.$type).toBe("app.bsky.embed.video");
    expect(value.embed.alt).toBe("A test pattern with a tone");
    expect(value.embed.aspectRatio).toEqual({ width: 320, height: 240 });
    expect(value.embed.video.$type).toBe("blob");
    expect(value.embed.video.mimeType).toBe("video/mp4");
    expect(value.embed.video.size).toBe(bytes.length);
    const q = new URLSearchParams({ did: acct.did, cid: value.embed.video.ref.$link });
    const blob = await fetch(`${pds.url}/xrpc/com.atproto.sync.getBlob?${q}`);
    expect(blob.status).toBe(200);
    expect(Buffer.from(await blob.arrayBuffer()).equals(bytes)).toBe(true);
  });

  test("a worker that dies after the PDS took a video post: the retry finds it and the video is posted once", async () => {
    await setUp(s3.env);
    const { acct, appPassword } = await account();
    const ch = (await connect(acct, appPassword)).body.id;
    const bytes = makeVideo({ seconds: 1, width: 160, height: 120 });
    const p = await postWith(ch, "Only one clip", [await uploadVideo(bytes)]);
    const targetId = p.targets[0].id;
    // What a worker killed mid-publish leaves: the attempt claimed, the PDS holding the post, no part saved.
    const { claimTargets } = await import("../../../src/queue/publish/claim.ts");
    const { mediaForTarget } = await import("../../../src/domain/media/publish.ts");
    const { adapterChannel } = await import("../../../src/domain/channels/state.ts");
    const [claimed] = await claimTargets(t.app, 1);
    expect(claimed!.target.id).toBe(targetId);
    const row = await t.app.db
      .selectFrom("channels")
      .selectAll()
      .where("id", "=", ch)
      .executeTakeFirstOrThrow();
    const prepared = await mediaForTarget(t.app, p.id, row);
    if (!prepared.ok) throw new Error(prepared.message);
    expect(prepared.video).toBe(true);
    const outcome = await blueskyAdapter.publish(t.app, {
      targetId,
      postId: p.id,
      livemode: true,
      attempt: 1,
      channel: await adapterChannel(t.app, row),
      parts: [{ index: 0, text: "Only one clip", media: prepared.media }],
      done: [],
      metadata: {},
      signal: new AbortController().signal,
      onPartPublished: async () => {},
    });
    expect(outcome.kind).toBe("published");
    expect((await pds.records(acct.did)).length).toBe(1);

    clock.advance(4 * 60_000);
    expect(await reclaimExpired(t.app)).toBe(1);
    expect((await getPost(p.id)).targets[0].error.code).toBe("worker_lost");
    await drain();
    const after = (await getPost(p.id)).targets[0];
    expect(after.status).toBe("published");
    expect(after.permalink).toBe(`https://bsky.app/profile/${acct.handle}/post/${recordKey(targetId, 0)}`);
    const records = await pds.records(acct.did);
    expect(records.length).toBe(1);
    const value = records[0]!.value as unknown as VideoRecord;
    expect([value.embed.$type, value.embed.video.size]).toEqual(["app.bsky.embed.video", bytes.length]);
  });

  test("a video larger than the PDS takes: media_rejected with the PDS's words, and nothing is posted", async () => {
    await setUp(s3.env);
    const { acct, appPassword } = await account();
    const ch = (await connect(acct, appPassword)).body.id;
    const bytes = makeVideo({ seconds: 8, fps: 30, width: 640, height: 480 });
    expect(bytes.length).toBeGreaterThan(BLOB_LIMIT);
    const p = await postWith(ch, "Too big for this PDS", [await uploadVideo(bytes)]);
    await drain();
    const target = (await getPost(p.id)).targets[0];
    expect(target.status).toBe("failed");
    expect(target.error.code).toBe("media_rejected");
    expect(target.error.message).toStartWith("The PDS refused the video (");
    expect(target.error.message).toContain("PayloadTooLarge");
    expect(await pds.records(acct.did)).toEqual([]);
  });

  test("a worker that dies after the PDS took the post: reclaimed, retried, and the look-up finds it (never twice)", async () => {
    await setUp();
    const { acct, appPassword } = await account();
    const ch = (await connect(acct, appPassword)).body.id;
    const p = await post(ch, "Only once\n{{thread}}\nStill only once");
    const targetId = p.targets[0].id;
    // What a worker killed mid-publish leaves: the attempt claimed, the PDS holding both records, no part saved.
    const { claimTargets } = await import("../../../src/queue/publish/claim.ts");
    const [claimed] = await claimTargets(t.app, 1);
    expect(claimed!.target.id).toBe(targetId);
    const row = await t.app.db
      .selectFrom("channels")
      .selectAll()
      .where("id", "=", ch)
      .executeTakeFirstOrThrow();
    const { adapterChannel } = await import("../../../src/domain/channels/state.ts");
    const outcome = await blueskyAdapter.publish(t.app, {
      targetId,
      postId: p.id,
      livemode: true,
      attempt: 1,
      channel: await adapterChannel(t.app, row),
      parts: [
        { index: 0, text: "Only once", media: [] },
        { index: 1, text: "Still only once", media: [] },
      ],
      done: [],
      metadata: {},
      signal: new AbortController().signal,
      onPartPublished: async () => {},
    });
    expect(outcome.kind).toBe("published");
    expect((await pds.records(acct.did)).length).toBe(2);

    clock.advance(4 * 60_000);
    expect(await reclaimExpired(t.app)).toBe(1);
    const reclaimed = (await getPost(p.id)).targets[0];
    expect(reclaimed.status).toBe("queued");
    expect(reclaimed.error.code).toBe("worker_lost");
    await drain();
    const after = (await getPost(p.id)).targets[0];
    expect(after.status).toBe("published");
    expect(after.permalink).toBe(`https://bsky.app/profile/${acct.handle}/post/${recordKey(targetId, 0)}`);
    expect((await pds.records(acct.did)).length).toBe(2);
  });

  test("a revoked app password: channels.check and publishing both make the channel needs_reauth", async () => {
    await setUp();
    const first = await account();
    const checked = (await connect(first.acct, first.appPassword)).body.id;
    await pds.revokeAppPassword(first.acct, "svc");
    clock.advance(25 * 3600_000);
    const counts = await checkDueChannels(t.app);
    expect(counts.needs_reauth).toBe(1);
    const c = (await t.request("GET", `/v1/channels/${checked}`, { key: a.liveKey })).body;
    expect(c.status).toBe("needs_reauth");
    expect(c.check_error).toContain("AuthenticationRequired");
    const enable = await t.request("POST", `/v1/channels/${checked}`, {
      key: a.liveKey,
      body: { status: "active" },
    });
    expect(enable.status).toBe(409);
    expect(enable.body.code).toBe("needs_reauth");

    // Reconnecting with a new app password clears it.
    const fresh = await pds.appPassword(first.acct, "svc-2");
    const re = await t.request("POST", `/v1/channels/${checked}/reconnect`, {
      key: a.liveKey,
      body: { fields: { identifier: first.acct.handle, app_password: fresh, service: pds.url } },
    });
    expect(re.status).toBe(200);
    expect(re.body.status).toBe("active");

    // Publishing after a revocation: a fresh process has no session, signs in, is refused.
    await pds.revokeAppPassword(first.acct, "svc-2");
    const original = t;
    t = await testApp(dialect, {
      clock,
      url: original.dbUrl,
      env: { SVC_ALLOW_PRIVATE_NETWORKS: "true", SVC_MASTER_KEYS: original.masterKeys },
    });
    closeLater.push(original);
    const p = await post(checked, "Will not go out");
    await drain();
    const target = (await getPost(p.id)).targets[0];
    expect(target.status).toBe("queued");
    expect(target.error.code).toBe("unauthorized");
    const after = (await t.request("GET", `/v1/channels/${checked}`, { key: a.liveKey })).body;
    expect(after.status).toBe("needs_reauth");
    const reauth = await t.app.db
      .selectFrom("events")
      .select("type")
      .where("org_id", "=", a.orgId)
      .where("type", "=", "channel.needs_reauth")
      .execute();
    expect(reauth.length).toBe(2);
    expect((await pds.records(first.acct.did)).length).toBe(0);
  });
});
