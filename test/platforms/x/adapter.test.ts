// X against a stand-in of its API v2 whose every request and answer is checked against X's OpenAPI description,
// with tokens from a real authorization server (oidc-provider with X's paths; the stand-in asks it whose token it
// is): connecting reads the account, a live thread goes out through the real publish worker as a reply chain (a
// token about to expire renewed first), each documented failure is classified, an uncertain create is settled by
// reading the account's posts, and engagement is read from public_metrics. A channel connected with pasted OAuth
// 1.0a keys signs every request (the stand-in checks each signature, timestamp and nonce) and publishes text,
// images and video the same way.
import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../../src/domain/apps/create.ts";
import { checkDueChannels } from "../../../src/domain/channels/check.ts";
import { openSecrets } from "../../../src/domain/channels/fields.ts";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import type { TestApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, noisyJpeg, upload } from "../../helpers/media.ts";
import { connectLive, liveVideo, networkApp, publishDirect, publishLive } from "../../helpers/networks.ts";
import { type OAuthServer, oauthServer } from "../../helpers/oauth-server.ts";
import { personActor } from "../../helpers/person.ts";
import { type LocalS3, localS3 } from "../../helpers/s3.ts";
import { signedInChannel } from "../../helpers/signin.ts";
import { paddedVideo, sha256, videoMedia } from "../../helpers/video.ts";
import { expectClean } from "../../stand-ins/server.ts";
import { validationNote } from "../../stand-ins/spec.ts";
import { startX, type XStandIn } from "../../stand-ins/x.ts";

validationNote();
// The stand-in compiles X's description's validators on first use: seconds on a busy machine.
setDefaultTimeout(30_000);

const CLIENT = { clientId: "x-adapter-client", clientSecret: "x-adapter-secret" };
const adapter = adapterFor("x")!;

describeEachDialect("X adapter", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let auth: OAuthServer;
  let x: XStandIn;
  let s3: LocalS3;
  let appId: string;
  let n = 0;

  beforeAll(async () => {
    auth = await oauthServer();
    await auth.start({ ...CLIENT, redirectUri: "http://localhost:8080/connect/x/callback" });
    x = await startX(auth);
    s3 = await localS3();
    t = await networkApp(dialect, { x: x.url, "x.auth": auth.url, "x.token": auth.url }, s3.env);
    a = await tenant(t.app);
    const actor = await personActor(t.app, a.userId, a.orgId, true);
    appId = (
      await createApp(t.app, actor, {
        provider: "x",
        name: "X",
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
      })
    ).id;
  });
  afterEach(() => expectClean(x));
  afterAll(async () => {
    await t.close();
    await auth.close();
    x.stop();
    await s3.close();
  });

  /** A signed-in X channel for a new account, as the sign-in leaves it (user ID and username in its settings). */
  async function channel(expiresInMs = 2 * 3600_000) {
    const account = `xuser${++n}`;
    const u = x.userOf(account);
    return signedInChannel(t, a, auth, {
      appId,
      clientId: CLIENT.clientId,
      account,
      expiresInMs,
      shown: { key: u.id, handle: `@${u.username}`, settings: { user_id: u.id, username: u.username } },
    });
  }
  const settingsOf = (account: string) => ({ user_id: x.userOf(account).id, username: account });

  test("connect reads the account with the OAuth 2 token; a revoked grant and unknown OAuth 1 keys are refused", async () => {
    const tokens = await auth.issue("connector", CLIENT.clientId);
    const signal = new AbortController().signal;
    const ok = await adapter.connect!(t.app, { livemode: true, settings: {}, secrets: tokens, signal });
    expect(ok).toEqual({
      kind: "connected",
      account: { display_name: "Connector", handle: "@connector", profile_url: "https://x.com/connector" },
      settings: { user_id: x.userOf("connector").id, username: "connector" },
    });
    await auth.revokeGrants("connector");
    const revoked = await adapter.connect!(t.app, { livemode: true, settings: {}, secrets: tokens, signal });
    expect(revoked.kind).toBe("rejected");
    const oauth1 = await adapter.connect!(t.app, {
      livemode: true,
      settings: {},
      secrets: { api_key: "k", api_key_secret: "s", access_token: "t", access_token_secret: "ts" },
      signal,
    });
    expect(oauth1.kind).toBe("rejected");
    expect(x.oauth1Refusals.at(-1)).toBe("GET /2/users/me: unknown consumer key");
    // Through the API, keys X does not know are refused before anything is saved.
    const pasted = await t.request("POST", "/v1/channels", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        provider: "x",
        fields: { api_key: "k", api_key_secret: "s", access_token: "t", access_token_secret: "ts" },
      },
    });
    expect([pasted.status, pasted.body.code]).toEqual([422, "connect_failed"]);
  });

  test("a live thread through the publish worker is a reply chain; a token expiring within 5 minutes is renewed first", async () => {
    const ch = await channel(2 * 60_000);
    const post = await publishLive(t, a, ch.id, {
      parts: ["First part of the thread", "Second part, a reply"],
    });
    expect(post.status).toBe("published");
    const mine = x.posts.filter((p) => p.author === x.userOf(ch.account).id);
    expect(mine.map((p) => p.text)).toEqual(["First part of the thread", "Second part, a reply"]);
    expect(mine[0]!.replyTo).toBeNull();
    expect(mine[1]!.replyTo).toBe(mine[0]!.id);
    expect(post.targets[0].permalink).toBe(`https://x.com/${ch.account}/status/${mine[0]!.id}`);
    // The worker renewed the token before publishing: the channel holds new tokens from the server.
    const row = await t.app.db
      .selectFrom("channels")
      .selectAll()
      .where("id", "=", ch.id)
      .executeTakeFirstOrThrow();
    const secrets = await openSecrets(t.app, row);
    expect(secrets.access_token).not.toBe(ch.tokens.access_token);
    expect(secrets.refresh_token).not.toBe(ch.tokens.refresh_token);
    expect(await auth.accountOf(secrets.access_token!)).toBe(ch.account);
  });

  test("failures are classified: 429 with its reset, 401, 503, duplicate content, and a reset after the create was read", async () => {
    const ch = await channel();
    const secrets = ch.tokens;
    const settings = settingsOf(ch.account);
    x.fail("rate_limited");
    const limited = await publishDirect(t, "x", { settings, secrets, parts: ["Rate limited"] });
    expect(limited.outcome.kind).toBe("rate_limited");
    if (limited.outcome.kind === "rate_limited") {
      expect(limited.outcome.retryAfterMs).toBeGreaterThan(50_000);
      expect(limited.outcome.retryAfterMs).toBeLessThanOrEqual(61_000);
    }
    x.fail("revoked");
    expect((await publishDirect(t, "x", { settings, secrets, parts: ["Revoked"] })).outcome.kind).toBe(
      "auth_revoked",
    );
    x.fail("server_error");
    expect((await publishDirect(t, "x", { settings, secrets, parts: ["Busy"] })).outcome.kind).toBe(
      "transient",
    );
    expect((await publishDirect(t, "x", { settings, secrets, parts: ["Once only"] })).outcome.kind).toBe(
      "published",
    );
    const dup = await publishDirect(t, "x", { settings, secrets, parts: ["Once only"] });
    expect(dup.outcome).toMatchObject({ kind: "rejected", code: "duplicate" });
    x.fail("reset_after_read");
    const lost = await publishDirect(t, "x", { settings, secrets, parts: ["Answer lost"] });
    expect(lost.outcome.kind).toBe("uncertain");
  });

  test("a video goes up in segments read from its stream, X processes it (STATUS until succeeded), then the post names it", async () => {
    const ch = await channel();
    const settings = settingsOf(ch.account);
    // Over one segment (4 MiB), so it is appended in two.
    const bytes = paddedVideo(5 * 1024 * 1024);
    const media = [videoMedia(bytes, { width: 320, height: 240, duration_ms: 4000 })];
    const before = x.requests.length;
    const r = await publishDirect(t, "x", { settings, secrets: ch.tokens, parts: ["A clip"], media });
    expect(r.outcome.kind).toBe("published");
    const seen = x.requests.slice(before);
    const init = seen.find((q) => q.path === "/2/media/upload/initialize")!;
    expect(init.body).toMatchObject({
      media_type: "video/mp4",
      total_bytes: bytes.byteLength,
      media_category: "tweet_video",
    });
    expect(seen.filter((q) => q.path.endsWith("/append"))).toHaveLength(2);
    const status = seen.filter((q) => q.method === "GET" && q.path === "/2/media/upload");
    expect(status).toHaveLength(2);
    expect(status[0]!.query.command).toBe("STATUS");
    const post = x.posts.at(-1)!;
    expect(post.text).toBe("A clip");
    expect(post.media).toHaveLength(1);
    expect(sha256(post.media[0]!.bytes)).toBe(sha256(bytes));
    // The post was created only after processing had succeeded.
    const create = seen.findIndex((q) => q.path === "/2/tweets");
    expect(create).toBeGreaterThan(seen.lastIndexOf(status[1]!));
  });

  test("an uncertain thread is found among the account's posts; engagement comes from public_metrics", async () => {
    const ch = await channel();
    const settings = settingsOf(ch.account);
    const secrets = ch.tokens;
    const since = Date.now();
    x.fail("reset_after_read");
    const first = await publishDirect(t, "x", {
      settings,
      secrets,
      parts: ["Lost answer, one", "Lost answer, two"],
    });
    expect(first.outcome.kind).toBe("uncertain");
    const remote = { targetId: "ptgt_x", livemode: true, signal: new AbortController().signal };
    const chan = { id: ch.id, provider: "x", emulates: null, settings, secrets };
    const parts = [
      { index: 0, text: "Lost answer, one", media: [] },
      { index: 1, text: "Lost answer, two", media: [] },
    ];
    // Only the first part went out: it is found, the second is not yet posted.
    const half = await adapter.find!(t.app, { ...remote, channel: chan, parts, done: [], since });
    expect(half.kind).toBe("unknown");
    const one = await adapter.find!(t.app, { ...remote, channel: chan, parts: [parts[0]!], done: [], since });
    expect(one.kind).toBe("found");
    const never = await adapter.find!(t.app, {
      ...remote,
      channel: chan,
      parts: [{ index: 0, text: "Never sent", media: [] }],
      done: [],
      since,
    });
    expect(never).toEqual({ kind: "not_found" });
    if (one.kind !== "found") return;
    const post = x.posts.find((p) => p.id === one.parts[0]!.remote_id)!;
    post.likes = 8;
    const counts = await adapter.engagement!(t.app, { ...remote, channel: chan, parts: one.parts });
    expect(counts).toEqual({
      kind: "counts",
      counts: { likes: 8, reposts: 2, replies: 0, quotes: 0, views: 160 },
    });
    post.deleted = true;
    expect(await adapter.engagement!(t.app, { ...remote, channel: chan, parts: one.parts })).toEqual({
      kind: "deleted",
    });
  });

  test("channels.check asks X weekly, not daily; a revoked grant found by the check makes the channel needs_reauth", async () => {
    const ch = await channel();
    const at = (days: number) =>
      t.app.db
        .updateTable("channels")
        .set({ checked_at: Date.now() - days * 24 * 3600_000 })
        .where("provider", "=", "x")
        .execute();
    await at(2);
    expect((await checkDueChannels(t.app)).ok).toBe(0);
    await at(8);
    await auth.revokeGrants(ch.account);
    const counts = await checkDueChannels(t.app);
    expect(counts.needs_reauth).toBeGreaterThanOrEqual(1);
    const row = await t.app.db
      .selectFrom("channels")
      .selectAll()
      .where("id", "=", ch.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("needs_reauth");
  });

  test("images go up through the chunked media upload with their alt text and are attached to the first part", async () => {
    const ch = await channel();
    const small = await jpeg(400, 300);
    // Over one 4 MiB segment: appended in two.
    const big = await noisyJpeg(2100, 1600, 100);
    expect(big.byteLength).toBeGreaterThan(4 * 1024 * 1024);
    expect(big.byteLength).toBeLessThan(5_000_000); // X takes it as it is
    const ids: string[] = [];
    for (const [bytes, alt] of [
      [small, "A chart of the launch"],
      [big, "A noisy photo"],
    ] as const) {
      const r = await upload(t, a.liveKey, {
        brand: a.brandId,
        alt,
        file: { bytes, name: "i.jpg", type: "image/jpeg" },
      });
      expect(r.status).toBe(201);
      ids.push(r.body.id);
    }
    const post = await publishLive(t, a, ch.id, { parts: ["With two images", "And a reply without"] }, ids);
    expect(post.status).toBe("published");
    const mine = x.posts.filter((p) => p.author === x.userOf(ch.account).id);
    expect(mine[0]!.media.map((m) => [m.type, m.bytes.byteLength, m.alt])).toEqual([
      ["image/jpeg", small.byteLength, "A chart of the launch"],
      ["image/jpeg", big.byteLength, "A noisy photo"],
    ]);
    expect(Buffer.from(mine[0]!.media[1]!.bytes).equals(big)).toBe(true);
    expect(mine[1]!.media).toEqual([]);
    const appends = x.requests.filter(
      (r) => /\/append$/.test(r.path) && r.rawPath.includes(mine[0]!.media[1]!.id),
    );
    expect(appends).toHaveLength(2);
  });

  test("a refused or limited upload posts nothing: 429 and 503 on the upload are retried, a video X fails to process is refused", async () => {
    const ch = await channel();
    const settings = settingsOf(ch.account);
    const bytes = await jpeg(300, 200);
    const image = {
      id: "media_x",
      mime: "image/jpeg",
      alt: null,
      kind: "image" as const,
      read: async () => bytes,
    };
    const before = x.posts.length;
    x.fail("rate_limited");
    const limited = await publishDirect(t, "x", {
      settings,
      secrets: ch.tokens,
      parts: ["Limited"],
      media: [image],
    });
    expect(limited.outcome.kind).toBe("rate_limited");
    // A video X cannot process (no MP4 inside): refused once its STATUS says failed, and no post is made.
    const junk = new Uint8Array(64 * 1024).fill(7);
    const video = videoMedia(junk, { width: 320, height: 240, duration_ms: 4000 });
    const refused = await publishDirect(t, "x", {
      settings,
      secrets: ch.tokens,
      parts: ["Video"],
      media: [video],
    });
    expect(refused.outcome).toMatchObject({ kind: "rejected", code: "media_rejected" });
    expect(x.posts.length).toBe(before);
    // A 503 on the upload: no post exists yet, so trying again is safe.
    x.fail("server_error");
    const busy = await publishDirect(t, "x", {
      settings,
      secrets: ch.tokens,
      parts: ["Busy upload"],
      media: [image],
    });
    expect(busy.outcome.kind).toBe("transient");
    expect(x.posts.length).toBe(before);
  });

  test("pasted OAuth 1.0a keys: connecting signs GET /2/users/me; a live thread with images and a video goes out signed", async () => {
    const keys = x.oauth1App();
    const token = x.oauth1Token(keys.api_key, "keyed");
    const refusals = x.oauth1Refusals.length;
    const before = x.requests.length;
    const ch = await connectLive(t, a, "x", { ...keys, ...token });
    expect(ch.handle).toBe("@keyed");
    const row = await t.app.db
      .selectFrom("channels")
      .selectAll()
      .where("id", "=", ch.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.settings)).toMatchObject({ user_id: x.userOf("keyed").id, username: "keyed" });
    expect(await openSecrets(t.app, row)).toMatchObject({ ...keys, ...token });

    const image = await upload(t, a.liveKey, {
      brand: a.brandId,
      alt: "The keyed chart",
      file: { bytes: await jpeg(400, 300), name: "i.jpg", type: "image/jpeg" },
    });
    const thread = await publishLive(t, a, ch.id, { parts: ["Signed first part", "Signed reply"] }, [
      image.body.id,
    ]);
    expect(thread.status).toBe("published");
    const mine = () => x.posts.filter((p) => p.author === x.userOf("keyed").id);
    expect(mine().map((p) => [p.text, p.media.map((m) => m.alt)])).toEqual([
      ["Signed first part", ["The keyed chart"]],
      ["Signed reply", []],
    ]);
    expect(mine()[1]!.replyTo).toBe(mine()[0]!.id);
    expect(thread.targets[0].permalink).toBe(`https://x.com/keyed/status/${mine()[0]!.id}`);

    const video = await liveVideo(t, a, "A signed clip");
    const clip = await publishLive(t, a, ch.id, { body: "A signed video" }, [video.id]);
    expect(clip.status).toBe("published");
    const posted = mine().at(-1)!;
    expect(posted.text).toBe("A signed video");
    expect(sha256(posted.media[0]!.bytes)).toBe(sha256(video.bytes));
    expect(posted.media[0]!.alt).toBe("A signed clip");

    // Every request (the connect, the uploads, the STATUS reads with their query, the posts) was signed, and the
    // stand-in accepted each signature: none was refused and no bearer token was sent.
    const seen = x.requests.slice(before);
    expect(seen.some((q) => q.method === "GET" && q.path === "/2/media/upload")).toBe(true);
    expect(seen.every((q) => q.headers.authorization!.startsWith("OAuth "))).toBe(true);
    expect(x.oauth1Refusals.length).toBe(refusals);

    // Reads sign their query parameters too: engagement and settling work on a keyed channel.
    const remote = { targetId: "ptgt_keyed", livemode: true, signal: new AbortController().signal };
    const chan = {
      id: ch.id,
      provider: "x",
      emulates: null,
      settings: JSON.parse(row.settings),
      secrets: { ...keys, ...token },
    };
    mine()[0]!.likes = 4;
    const counts = await adapter.engagement!(t.app, {
      ...remote,
      channel: chan,
      parts: [{ index: 0, remote_id: mine()[0]!.id, remote_url: "" }],
    });
    expect(counts).toMatchObject({ kind: "counts", counts: { likes: 4 } });
    const found = await adapter.find!(t.app, {
      ...remote,
      channel: chan,
      parts: [{ index: 0, text: "A signed video", media: [] }],
      done: [],
      since: Date.now() - 60_000,
    });
    expect(found).toMatchObject({ kind: "found", parts: [{ remote_id: posted.id }] });
    expect(x.oauth1Refusals.length).toBe(refusals);
  });

  test("OAuth 1.0a: a wrong token secret and a revoked token are refused by X and classified auth_revoked; a nonce is never reused", async () => {
    const keys = x.oauth1App();
    const token = x.oauth1Token(keys.api_key, "keyed2");
    const settings = settingsOf("keyed2");
    const wrong = await publishDirect(t, "x", {
      settings,
      secrets: { ...keys, ...token, access_token_secret: "not-the-secret" },
      parts: ["Badly signed"],
    });
    expect(wrong.outcome.kind).toBe("auth_revoked");
    expect(x.oauth1Refusals.at(-1)).toBe("POST /2/tweets: bad signature");
    const ok = await publishDirect(t, "x", {
      settings,
      secrets: { ...keys, ...token },
      parts: ["Well signed"],
    });
    expect(ok.outcome.kind).toBe("published");
    // Each request carries a fresh nonce: the same signed request sent twice is refused the second time.
    const { xAuthHeaders } = await import("../../../src/platforms/x/auth.ts");
    const url = `${x.url}/2/users/me`;
    const headers = await xAuthHeaders({ ...keys, ...token }, "GET", url);
    expect((await fetch(url, { headers })).status).toBe(200);
    expect((await fetch(url, { headers })).status).toBe(401);
    expect(x.oauth1Refusals.at(-1)).toBe("GET /2/users/me: nonce used before");
    x.revokeOAuth1(token.access_token);
    const revoked = await publishDirect(t, "x", {
      settings,
      secrets: { ...keys, ...token },
      parts: ["After revoking"],
    });
    expect(revoked.outcome.kind).toBe("auth_revoked");
    expect(x.posts.filter((p) => p.author === x.userOf("keyed2").id).map((p) => p.text)).toEqual([
      "Well signed",
    ]);
  });

  test("X's one-video rule: a video with any other medium is refused with video_alone in preview and on create", async () => {
    const keys = x.oauth1App();
    const ch = await connectLive(t, a, "x", { ...keys, ...x.oauth1Token(keys.api_key, "keyed3") });
    const video = await liveVideo(t, a, "Clip");
    const image = await upload(t, a.liveKey, {
      brand: a.brandId,
      file: { bytes: await jpeg(40, 30), name: "i.jpg", type: "image/jpeg" },
    });
    const other = await liveVideo(t, a, "Second clip");
    for (const media of [
      [video.id, image.body.id],
      [image.body.id, video.id],
      [video.id, other.id],
    ]) {
      const body = { brand: a.brandId, channels: [ch.id], content: { body: "Both" }, media };
      const preview = await t.request("POST", "/v1/posts/preview", { key: a.liveKey, body });
      expect([preview.status, preview.body.code]).toEqual([422, "video_alone"]);
      const create = await t.request("POST", "/v1/posts", { key: a.liveKey, body });
      expect([create.status, create.body.code]).toEqual([422, "video_alone"]);
    }
    const posts = x.posts.length;
    // The video alone is accepted.
    const alone = await t.request("POST", "/v1/posts/preview", {
      key: a.liveKey,
      body: { brand: a.brandId, channels: [ch.id], content: { body: "Alone" }, media: [video.id] },
    });
    expect(alone.status).toBe(200);
    expect(alone.body.renditions[0].violations).toEqual([]);
    expect(x.posts.length).toBe(posts);
  });
});
