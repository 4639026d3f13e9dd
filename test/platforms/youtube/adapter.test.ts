// YouTube against a stand-in whose every request and answer is checked against YouTube's Discovery document
// (turned into JSON Schema), with tokens from a real authorization server (oidc-provider with Google's paths): a
// sign-in lists the account's channel; a live video post goes from the local S3 server through the real publish
// worker, its first line the title and the rest the description, uploaded with the resumable protocol and waited
// for while YouTube processes it; an upload whose connection drops (a real cut TCP connection, and a 503 after
// part of the bytes) is resumed from the byte YouTube acknowledged; 1,600 units an upload are counted per app, and
// a spent quota holds the channel as rate_limited until midnight Pacific time; each documented failure is
// classified; engagement comes from videos.list statistics.
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../../src/domain/apps/create.ts";
import { spentUnits } from "../../../src/domain/targets/quota.ts";
import type { Adapter } from "../../../src/platforms/adapter.ts";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import { accountLister } from "../../../src/platforms/signin/accounts.ts";
import { authorizeUrl } from "../../../src/platforms/signin/oauth.ts";
import { signInSpec } from "../../../src/platforms/signin/specs.ts";
import { nextReset, quotaDay } from "../../../src/platforms/youtube/quota.ts";
import { titleAndDescription } from "../../../src/platforms/youtube/title.ts";
import { startPublishWorker } from "../../../src/queue/publish/worker.ts";
import type { TestApp } from "../../helpers/app.ts";
import { type CuttingProxy, cuttingProxy } from "../../helpers/cutting-proxy.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { drain, liveVideo, networkApp, publishDirect } from "../../helpers/networks.ts";
import { type OAuthServer, oauthServer } from "../../helpers/oauth-server.ts";
import { personActor } from "../../helpers/person.ts";
import { type LocalS3, localS3 } from "../../helpers/s3.ts";
import { signedInChannel } from "../../helpers/signin.ts";
import { paddedVideo, sha256, videoMedia } from "../../helpers/video.ts";
import { expectClean } from "../../stand-ins/server.ts";
import { validationNote } from "../../stand-ins/spec.ts";
import { startYouTube, type YouTubeStandIn } from "../../stand-ins/youtube.ts";

validationNote();
setDefaultTimeout(60_000);

const CLIENT = { clientId: "yt-client", clientSecret: "yt-secret" };
const SCOPES = [
  "https://www.googleapis.com/auth/youtube.upload",
  "https://www.googleapis.com/auth/youtube.readonly",
  "https://www.googleapis.com/auth/youtube.force-ssl",
];
const adapter = adapterFor("youtube")!;

describe("YouTube titles", () => {
  test("the first line is the title, the rest the description; < and > replaced; over 100 cut with …", () => {
    expect(titleAndDescription("Launch <day>\nWhat is new:\n- faster")).toEqual({
      title: "Launch ‹day›",
      description: "What is new:\n- faster",
    });
    const long = titleAndDescription(`${"a".repeat(120)}\nrest`);
    expect([...long.title]).toHaveLength(100);
    expect(long.title.endsWith("…")).toBe(true);
    // Graphemes are not split: 99 flags and the ellipsis.
    const flags = titleAndDescription("🇫🇷".repeat(150)).title;
    expect(flags).toBe(`${"🇫🇷".repeat(99)}…`);
    expect(titleAndDescription("\n\n  Title after blank lines  \nbody").title).toBe(
      "Title after blank lines",
    );
  });

  test("the quota's day is Pacific; its reset is the next midnight there, 23 or 25 hours apart on clock changes", () => {
    const at = Date.parse("2026-11-26T07:59:00Z"); // 23:59 on the 25th in Los Angeles (PST)
    expect(quotaDay(at, "America/Los_Angeles")).toBe("2026-11-25");
    expect(nextReset(at, "America/Los_Angeles")).toBe(Date.parse("2026-11-26T08:00:00Z"));
    // 2026-11-01 is 25 hours long in Los Angeles (PDT → PST).
    expect(nextReset(Date.parse("2026-10-31T08:00:00Z"), "America/Los_Angeles")).toBe(
      Date.parse("2026-11-01T07:00:00Z"),
    );
    expect(nextReset(Date.parse("2026-11-01T07:00:00Z"), "America/Los_Angeles")).toBe(
      Date.parse("2026-11-02T08:00:00Z"),
    );
  });
});

describeEachDialect("YouTube adapter", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let auth: OAuthServer;
  let yt: YouTubeStandIn;
  let proxy: CuttingProxy;
  let s3: LocalS3;
  let appId: string;
  let n = 0;

  beforeAll(async () => {
    auth = await oauthServer({
      routes: { authorization: "/o/oauth2/v2/auth", token: "/token" },
      scopes: SCOPES,
      tokenEndpointAuthMethod: "client_secret_post",
      accessTokenTtl: 3600,
    });
    await auth.start({ ...CLIENT, redirectUri: "http://localhost:8080/connect/youtube/callback" });
    yt = await startYouTube(auth);
    proxy = await cuttingProxy(yt.port);
    s3 = await localS3();
    t = await networkApp(
      dialect,
      { youtube: proxy.url, "youtube.auth": auth.url, "youtube.token": auth.url },
      s3.env,
    );
    a = await tenant(t.app);
    const actor = await personActor(t.app, a.userId, a.orgId, true);
    appId = (
      await createApp(t.app, actor, {
        provider: "youtube",
        name: "Google",
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
      })
    ).id;
  });
  afterEach(() => expectClean(yt));
  afterAll(async () => {
    await t.close();
    await auth.close();
    await proxy.close();
    yt.stop();
    await s3.close();
  });

  async function channel(privacy = "unlisted", scopes?: string[]) {
    const account = `ytuser${++n}`;
    const id = yt.channelOf(account);
    return signedInChannel(t, a, auth, {
      ...(scopes ? { scopes } : {}),
      provider: "youtube",
      appId,
      clientId: CLIENT.clientId,
      account,
      expiresInMs: 3600_000,
      shown: { key: id, handle: `@${account}`, settings: { channel_id: id, privacy } },
    });
  }
  const settingsOf = (account: string, privacy = "private") => ({
    channel_id: yt.channelOf(account),
    privacy,
  });

  test("the sign-in asks Google for offline access with PKCE; the account's channel is listed; a revoked grant is refused", async () => {
    const url = new URL(
      authorizeUrl(t.app, signInSpec("youtube")!, {
        clientId: CLIENT.clientId,
        redirectUri: "http://localhost:8080/connect/youtube/callback",
        state: "s",
        challenge: "c",
      }),
    );
    expect(url.searchParams.get("access_type")).toBe("offline");
    expect(url.searchParams.get("prompt")).toBe("consent");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("scope")).toBe(SCOPES.join(" "));
    const tokens = await auth.issue("lister", CLIENT.clientId);
    const listed = await accountLister("youtube")!(t.app, tokens.access_token, new AbortController().signal);
    const id = yt.channelOf("lister");
    expect(listed).toEqual({
      kind: "accounts",
      accounts: [
        {
          key: id,
          display_name: "Lister",
          handle: "@lister",
          profile_url: `https://www.youtube.com/channel/${id}`,
          settings: { channel_id: id, privacy: "public" },
        },
      ],
    });
    const signal = new AbortController().signal;
    const ok = await adapter.connect!(t.app, {
      livemode: true,
      settings: { channel_id: id },
      secrets: tokens,
      signal,
    });
    expect(ok.kind).toBe("connected");
    await auth.revokeGrants("lister");
    const revoked = await adapter.connect!(t.app, {
      livemode: true,
      settings: { channel_id: id },
      secrets: tokens,
      signal,
    });
    expect(revoked.kind).toBe("rejected");
  });

  test("a live video post: streamed from S3 with the resumable protocol, processed, published with its title, description and privacy; 1,600 units spent", async () => {
    const ch = await channel("unlisted");
    const video = await liveVideo(t, a, "A launch video");
    yt.processingLooks = 2;
    const before = yt.requests.length;
    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        content: { body: "Launch <day> is here\nEverything that is new, in two seconds." },
        channels: [ch.id],
        media: [video.id],
      },
    });
    expect(r.status).toBe(201);
    await drain(t);
    const post = (await t.request("GET", `/v1/posts/${r.body.id}`, { key: a.liveKey })).body;
    yt.processingLooks = 1;
    expect(post.targets[0].status).toBe("published");
    const v = yt.videos.at(-1)!;
    expect(v.channelId).toBe(yt.channelOf(ch.account));
    expect([v.title, v.description, v.privacy]).toEqual([
      "Launch ‹day› is here",
      "Everything that is new, in two seconds.",
      "unlisted",
    ]);
    expect([v.size, v.sha256]).toEqual([video.bytes.byteLength, sha256(video.bytes)]);
    expect(post.targets[0].permalink).toBe(`https://www.youtube.com/watch?v=${v.id}`);
    const seen = yt.requests.slice(before);
    const start = seen.find((q) => q.method === "POST")!;
    expect(start.query).toEqual({ uploadType: "resumable", part: "snippet,status" });
    expect(start.headers["x-upload-content-length"]).toBe(String(video.bytes.byteLength));
    // Processing was asked until processed: two looks while uploaded, then processed.
    expect(
      seen.filter((q) => q.method === "GET" && q.query.part === "status,processingDetails"),
    ).toHaveLength(3);
    expect(await spentUnits(t.app, "youtube", appId)).toBe(1600);
  });

  test("a dropped connection mid-upload, then a 503 after part of the bytes: each time the session is asked how far it got and the upload goes on from there", async () => {
    const ch = await channel();
    const bytes = paddedVideo(6 * 1024 * 1024);
    const media = [videoMedia(bytes, { width: 160, height: 120, duration_ms: 4000 })];
    const before = yt.requests.length;
    // The PUT's connection is cut after ~2 MiB of its request; the resumed PUT is refused after 1 MiB more.
    proxy.cutAfter(2 * 1024 * 1024);
    const cutsBefore = proxy.cuts;
    let resumed = false;
    const r = await publishDirect(t, "youtube", {
      settings: settingsOf(ch.account),
      secrets: ch.tokens,
      parts: ["Resumed upload\nIt went on from where it stopped."],
      media: media.map((m) => ({
        ...m,
        stream: async (from = 0) => {
          if (from > 0 && !resumed) {
            resumed = true;
            yt.stopAfter(1024 * 1024);
          }
          return m.stream(from);
        },
      })),
    });
    expect(r.outcome.kind).toBe("published");
    expect(proxy.cuts).toBe(cutsBefore + 1);
    const v = yt.videos.at(-1)!;
    expect([v.size, v.sha256]).toEqual([bytes.byteLength, sha256(bytes)]);
    const puts = yt.requests.slice(before).filter((q) => q.method === "PUT");
    const asks = puts.filter((q) => q.headers["content-range"] === `bytes */${bytes.byteLength}`);
    expect(asks.length).toBe(2);
    const resumes = puts.filter((q) => /^bytes [1-9]\d*-/.test(q.headers["content-range"] ?? ""));
    expect(resumes.length).toBe(2);
    // Each resume began where the session stood, after the first bytes.
    const firsts = resumes.map((q) => Number(/^bytes (\d+)-/.exec(q.headers["content-range"]!)![1]));
    expect(firsts[0]!).toBeGreaterThan(0);
    expect(firsts[1]!).toBeGreaterThan(firsts[0]!);
    expect(r.parts).toEqual([
      { index: 0, remote_id: v.id, remote_url: `https://www.youtube.com/watch?v=${v.id}` },
    ]);
  });

  test("a spent daily quota holds the channel as rate_limited until midnight Pacific, nothing sent; YouTube's own quotaExceeded marks the app's day spent", async () => {
    const ch = await channel();
    const video = await liveVideo(t, a, "Over quota");
    const day = quotaDay(Date.now(), "America/Los_Angeles");
    // 5 uploads (8,000 units) already today: a sixth still fits, a seventh would not.
    await t.app.db
      .insertInto("app_quota")
      .values({ app_id: appId, day, units: 9000, updated_at: Date.now() })
      .onConflict((oc) => oc.columns(["app_id", "day"]).doUpdateSet({ units: 9000 }))
      .execute();
    const before = yt.requests.length;
    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: { brand: a.brandId, content: { body: "Over quota" }, channels: [ch.id], media: [video.id] },
    });
    await drain(t);
    const target = await t.app.db
      .selectFrom("post_targets")
      .selectAll()
      .where("post_id", "=", r.body.id)
      .executeTakeFirstOrThrow();
    expect([target.status, target.error_code]).toEqual(["queued", "rate_limited"]);
    expect(yt.requests.length).toBe(before);
    const row = await t.app.db
      .selectFrom("channels")
      .selectAll()
      .where("id", "=", ch.id)
      .executeTakeFirstOrThrow();
    const reset = nextReset(Date.now(), "America/Los_Angeles");
    expect(Math.abs(Number(row.rate_limited_until) - Math.max(reset, Date.now() + 3600_000))).toBeLessThan(
      60_000,
    );
    expect(Math.abs(Number(target.next_attempt_at) - Number(row.rate_limited_until))).toBeLessThan(1000);
    await t.app.db.deleteFrom("post_targets").where("post_id", "=", r.body.id).execute();
    await t.app.db.deleteFrom("app_quota").execute();

    // YouTube says the quota is spent (another program on the same Google project): rate_limited, the day marked.
    const ch2 = await channel();
    const bytes = paddedVideo(256 * 1024);
    yt.fail("rate_limited", 1, (q) => q.method === "POST");
    const direct = await publishDirect(t, "youtube", {
      settings: settingsOf(ch2.account),
      secrets: ch2.tokens,
      parts: ["Spent elsewhere"],
      media: [videoMedia(bytes, { width: 160, height: 120, duration_ms: 4000 })],
    });
    expect(direct.outcome).toMatchObject({ kind: "rate_limited", quotaExhausted: true });
    expect((direct.outcome as { retryAfterMs: number }).retryAfterMs).toBeGreaterThanOrEqual(3600_000);
    // Through the worker the day is marked spent for the app.
    const video2 = await liveVideo(t, a, "Spent");
    yt.fail("rate_limited", 1, (q) => q.method === "POST");
    await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        content: { body: "Spent elsewhere" },
        channels: [ch2.id],
        media: [video2.id],
      },
    });
    await drain(t);
    expect(await spentUnits(t.app, "youtube", appId)).toBe(10_000);
    await t.app.db.deleteFrom("app_quota").execute();
    await t.app.db.updateTable("channels").set({ rate_limited_until: null }).execute();
  });

  test("privacy is the channel's option: POST /v1/channels/{id} changes it, refuses a value YouTube does not take and any other field", async () => {
    const ch = await channel("public");
    const r = await t.request("POST", `/v1/channels/${ch.id}`, {
      key: a.liveKey,
      body: { fields: { privacy: "unlisted" } },
    });
    expect(r.status).toBe(200);
    expect(r.body.settings.privacy).toBe("unlisted");
    const bad = await t.request("POST", `/v1/channels/${ch.id}`, {
      key: a.liveKey,
      body: { fields: { privacy: "friends", channel_id: "UCother" } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { code: string; param: string }) => [e.code, e.param]).sort()).toEqual([
      ["field_invalid", "fields.privacy"],
      ["field_unknown", "fields.channel_id"],
    ]);
    // Another org's key, and the test key, see no such channel.
    const other = await tenant(t.app);
    expect(
      (
        await t.request("POST", `/v1/channels/${ch.id}`, {
          key: other.liveKey,
          body: { fields: { privacy: "private" } },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request("POST", `/v1/channels/${ch.id}`, {
          key: a.testKey,
          body: { fields: { privacy: "private" } },
        })
      ).status,
    ).toBe(404);
    // The next upload goes up unlisted.
    const bytes = paddedVideo(256 * 1024);
    const row = await t.app.db
      .selectFrom("channels")
      .select("settings")
      .where("id", "=", ch.id)
      .executeTakeFirstOrThrow();
    const direct = await publishDirect(t, "youtube", {
      settings: JSON.parse(row.settings!),
      secrets: ch.tokens,
      parts: ["Unlisted now"],
      media: [videoMedia(bytes, { width: 160, height: 120, duration_ms: 4000 })],
    });
    expect(direct.outcome.kind).toBe("published");
    expect(yt.videos.at(-1)!.privacy).toBe("unlisted");
  });

  test("documented failures: an expired token, a file YouTube cannot process, a 5xx at the start; a video already up is never uploaded again", async () => {
    const ch = await channel();
    const good = paddedVideo(256 * 1024);
    const media = [videoMedia(good, { width: 160, height: 120, duration_ms: 4000 })];
    const call = (text: string, m = media, secrets = ch.tokens) =>
      publishDirect(t, "youtube", { settings: settingsOf(ch.account), secrets, parts: [text], media: m });

    yt.fail("server_error", 1, (q) => q.method === "POST");
    expect((await call("5xx")).outcome.kind).toBe("transient");

    const notMp4 = new Uint8Array(256 * 1024).fill(7);
    const failed = await call("Not a video", [videoMedia(notMp4, { width: 1, height: 1, duration_ms: 1 })]);
    expect(failed.outcome).toMatchObject({ kind: "rejected", code: "video_rejected" });
    expect((failed.outcome as { message: string }).message).toContain("invalidFile");
    // The video was saved as soon as YouTube had it: a later attempt would not upload it again.
    expect(failed.parts).toHaveLength(1);

    const expired = await auth.issue(`gone${n}`, CLIENT.clientId);
    await auth.revokeGrants(`gone${n}`);
    expect((await call("Expired", media, expired)).outcome.kind).toBe("auth_revoked");

    // A video already uploaded (its part saved) is only waited for, never uploaded again.
    const before = yt.videos.length;
    const first = await call("Once");
    const again = await publishDirect(t, "youtube", {
      settings: settingsOf(ch.account),
      secrets: ch.tokens,
      parts: ["Once"],
      media,
      done: first.parts,
    });
    expect([first.outcome.kind, again.outcome.kind]).toEqual(["published", "published"]);
    expect(yt.videos.length).toBe(before + 1);
  });

  test("engagement from videos.list statistics; a deleted video is deleted", async () => {
    const ch = await channel();
    const bytes = paddedVideo(256 * 1024);
    const r = await publishDirect(t, "youtube", {
      settings: settingsOf(ch.account),
      secrets: ch.tokens,
      parts: ["Counted"],
      media: [videoMedia(bytes, { width: 160, height: 120, duration_ms: 4000 })],
    });
    const v = yt.videos.find((x) => x.id === r.parts[0]!.remote_id)!;
    Object.assign(v, { views: 1234, likes: 56, comments: 7 });
    const input = {
      targetId: "ptgt_x",
      livemode: true,
      channel: {
        id: "chan_x",
        provider: "youtube",
        emulates: null,
        settings: settingsOf(ch.account),
        secrets: ch.tokens,
      },
      signal: new AbortController().signal,
      parts: r.parts,
    };
    expect(await adapter.engagement!(t.app, input)).toEqual({
      kind: "counts",
      counts: { likes: 56, reposts: 0, replies: 7, quotes: 0, views: 1234 },
    });
    v.deleted = true;
    expect(await adapter.engagement!(t.app, input)).toEqual({ kind: "deleted" });
  });
  const postWithComment = async (channelId: string, mediaId: string, body: string, first_comment: string) => {
    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: { brand: a.brandId, content: { body }, channels: [channelId], media: [mediaId], first_comment },
    });
    expect(r.status).toBe(201);
    return r.body.id as string;
  };
  const getPost = async (id: string) => (await t.request("GET", `/v1/posts/${id}`, { key: a.liveKey })).body;
  /** A new day's quota for the app (the quota test before these spends the whole day). */
  const newQuotaDay = async () => {
    yt.units.clear();
    await t.app.db.deleteFrom("app_quota").where("app_id", "=", appId).execute();
  };

  test("a first comment is the channel's own top-level comment on its video, once YouTube has processed it; over 10,000 characters is refused in the preview", async () => {
    await newQuotaDay();
    const ch = await channel("unlisted");
    const video = await liveVideo(t, a, "With a comment");
    const before = yt.requests.length;
    const id = await postWithComment(
      ch.id,
      video.id,
      "Behind the scenes\nHow we made it.",
      "Chapters: 0:00 intro",
    );
    await drain(t);
    const target = (await getPost(id)).targets[0];
    expect([target.status, target.first_comment.status]).toEqual(["published", "published"]);
    const v = yt.videos.at(-1)!;
    const c = yt.commentThreads.at(-1)!;
    expect([c.videoId, c.channelId, c.text]).toEqual([
      v.id,
      yt.channelOf(ch.account),
      "Chapters: 0:00 intro",
    ]);
    expect(target.first_comment.permalink).toBe(`https://www.youtube.com/watch?v=${v.id}&lc=${c.id}`);
    const seen = yt.requests.slice(before);
    const insert = seen.findIndex((q) => q.path === "/youtube/v3/commentThreads");
    expect(seen[insert]!.query).toEqual({ part: "snippet" });
    expect(seen[insert]!.body).toEqual({
      snippet: { videoId: v.id, topLevelComment: { snippet: { textOriginal: "Chapters: 0:00 intro" } } },
    });
    // After the processing looks, and once.
    const looks = seen
      .map((q, i) => (q.query.part === "status,processingDetails" ? i : -1))
      .filter((i) => i >= 0);
    expect(insert).toBeGreaterThan(looks.at(-1)!);
    expect(seen.filter((q) => q.path === "/youtube/v3/commentThreads")).toHaveLength(1);

    const preview = await t.request("POST", "/v1/posts/preview", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        content: { body: "Long" },
        channels: [ch.id],
        media: [video.id],
        first_comment: "x".repeat(10_001),
      },
    });
    expect(
      preview.body.renditions[0].violations.map(
        (x: { code: string; limit: number }) => `${x.code}:${x.limit}`,
      ),
    ).toEqual(["too_long:10000"]);
  });

  test("a worker killed between the upload and the comment: the retry comments alone, the video is never uploaded twice", async () => {
    await newQuotaDay();
    const ch = await channel("unlisted");
    const video = await liveVideo(t, a, "Killed");
    const id = await postWithComment(ch.id, video.id, "Uploaded once", "Commented once");
    const youtube = adapterFor("youtube")!;
    const killed: Adapter = {
      ...youtube,
      publish: (app, input) =>
        youtube.publish(app, {
          ...input,
          onPartPublished: async (part) => {
            await input.onPartPublished(part);
            if (input.attempt === 1 && part.index === 0) throw new Error("worker killed");
          },
        }),
    };
    const w = startPublishWorker(t.app, {
      adapterFor: (p) => (p === "youtube" ? killed : adapterFor(p)),
      pollMs: 20,
    });
    for (let i = 0; i < 200; i++) {
      await Bun.sleep(20);
      await w.idle();
      const s = (await getPost(id)).targets[0].status;
      if (s !== "queued" && s !== "publishing") break;
    }
    await w.stop();
    const mid = (await getPost(id)).targets[0];
    expect(mid.status).toBe("needs_attention");
    expect(mid.first_comment.status).not.toBe("published");
    const channelId = yt.channelOf(ch.account);
    const mine = () => yt.videos.filter((v) => v.channelId === channelId);
    const comments = () => yt.commentThreads.filter((c) => c.channelId === channelId);
    expect([mine().length, comments().length]).toEqual([1, 0]);
    const retry = await t.request("POST", `/v1/post_targets/${mid.id}/retry`, { key: a.liveKey });
    expect(retry.status).toBe(200);
    await drain(t);
    const done = (await getPost(id)).targets[0];
    expect([done.status, done.first_comment.status]).toEqual(["published", "published"]);
    expect(mine()).toHaveLength(1);
    expect(comments().map((c) => [c.videoId, c.text])).toEqual([[mine()[0]!.id, "Commented once"]]);
  });

  test("a channel connected before svc asked for youtube.force-ssl: the video goes up, the comment is refused with what to do (reconnect)", async () => {
    await newQuotaDay();
    const older = SCOPES.filter((x) => !x.endsWith("youtube.force-ssl"));
    const ch = await channel("unlisted", older);
    const video = await liveVideo(t, a, "Older consent");
    const id = await postWithComment(ch.id, video.id, "Still uploads", "Needs the new permission");
    await drain(t);
    const target = (await getPost(id)).targets[0];
    expect(target.status).toBe("failed");
    expect(target.first_comment.status).toBe("failed");
    expect(target.error.code).toBe("unauthorized");
    expect(target.error.message).toContain("reconnect it");
    const channelId = yt.channelOf(ch.account);
    expect(yt.videos.filter((v) => v.channelId === channelId)).toHaveLength(1);
    expect(yt.commentThreads.filter((c) => c.channelId === channelId)).toHaveLength(0);
    const refused = yt.requests.filter((q) => q.path === "/youtube/v3/commentThreads").at(-1)!;
    expect(refused.headers.authorization).toBe(`Bearer ${ch.tokens.access_token}`);
  });

  test("delete_published deletes the video and its comment with it; asking again deletes nothing twice; an older consent or another channel's video is refused in YouTube's words", async () => {
    await newQuotaDay();
    const ch = await channel("unlisted");
    const video = await liveVideo(t, a, "Short-lived");
    const id = await postWithComment(ch.id, video.id, "Up for a day", "And its comment");
    await drain(t);
    const v = yt.videos.at(-1)!;
    expect(yt.commentThreads.filter((c) => c.videoId === v.id)).toHaveLength(1);
    const before = yt.requests.length;
    const del = await t.request("POST", `/v1/posts/${id}/delete_published`, { key: a.liveKey });
    expect(del.status).toBe(200);
    expect(del.body.results.map((x: { provider: string; result: string }) => [x.provider, x.result])).toEqual(
      [["youtube", "deleted"]],
    );
    expect(v.deleted).toBe(true);
    expect(yt.commentThreads.filter((c) => c.videoId === v.id)).toHaveLength(0);
    const calls = yt.requests.slice(before).map((q) => [q.method, q.path, q.query.id ?? null]);
    expect(calls).toEqual([["DELETE", "/youtube/v3/videos", v.id]]);
    const again = await t.request("POST", `/v1/posts/${id}/delete_published`, { key: a.liveKey });
    expect(again.body.results[0].result).toBe("deleted");
    expect(yt.requests.length).toBe(before + 1);
    const target = (await getPost(id)).targets[0];
    expect(target.deleted_at).not.toBeNull();

    // The adapter itself: a video already gone counts as deleted (404 videoNotFound).
    const remote = {
      targetId: target.id,
      livemode: true,
      signal: new AbortController().signal,
      channel: {
        id: ch.id,
        provider: "youtube",
        emulates: null,
        settings: settingsOf(ch.account),
        secrets: ch.tokens,
      },
      parts: [{ index: 0, remote_id: v.id, remote_url: null }],
    };
    expect(await adapter.deletePublished!(t.app, remote)).toEqual({ kind: "deleted" });

    // Another channel's video: YouTube's 403, in its words; the video stays.
    const other = await channel("unlisted");
    const kept = await liveVideo(t, a, "Not yours");
    await postWithComment(other.id, kept.id, "Stays up", "Stays too");
    await drain(t);
    const theirs = yt.videos.at(-1)!;
    const refused = await adapter.deletePublished!(t.app, {
      ...remote,
      parts: [{ index: 0, remote_id: theirs.id, remote_url: null }],
    });
    expect(refused).toMatchObject({
      kind: "failed",
      message: expect.stringContaining("YouTube answered 403"),
    });
    expect(theirs.deleted).toBe(false);

    // A channel connected with youtube.upload alone cannot delete: the refusal says to connect it again.
    const older = await channel(
      "unlisted",
      SCOPES.filter((x) => !x.endsWith("youtube.force-ssl")),
    );
    const upload = await adapter.deletePublished!(t.app, {
      ...remote,
      channel: { ...remote.channel, id: older.id, secrets: older.tokens },
      parts: [{ index: 0, remote_id: theirs.id, remote_url: null }],
    });
    expect(upload).toMatchObject({
      kind: "failed",
      message: expect.stringContaining("Connect the channel again"),
    });
    expect(theirs.deleted).toBe(false);
  });
});
