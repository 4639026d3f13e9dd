// TikTok against a stand-in that follows the Content Posting API's documentation (each endpoint's page named
// beside its schema in test/stand-ins/tiktok.ts), with tokens from a real authorization server (oidc-provider on
// TikTok's paths, PKCE, refresh tokens that rotate): the sign-in page gets client_key and comma-joined scopes; the
// account is read from user info and its channel says plainly that posts are private until the app is audited,
// as every preview does; a live video post goes from the local S3 server through the real publish worker (its
// token renewed first, client_key in the form), in 10 MiB chunks streamed from the bucket, and TikTok's status is
// asked until PUBLISH_COMPLETE; a chunk refused part-way is sent again from its first byte; each documented
// failure is classified.
import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../../src/domain/apps/create.ts";
import { openSecrets } from "../../../src/domain/channels/fields.ts";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import { accountLister } from "../../../src/platforms/signin/accounts.ts";
import { authorizeUrl } from "../../../src/platforms/signin/oauth.ts";
import { signInSpec } from "../../../src/platforms/signin/specs.ts";
import { planChunks } from "../../../src/platforms/tiktok/chunks.ts";
import { TIKTOK_VISIBILITY } from "../../../src/platforms/tiktok/signin.ts";
import type { TestApp } from "../../helpers/app.ts";
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
import { startTikTok, type TikTokStandIn } from "../../stand-ins/tiktok.ts";

validationNote();
setDefaultTimeout(60_000);

const CLIENT = { clientId: "tt-client-key", clientSecret: "tt-secret" };
const SCOPES = ["user.info.basic", "video.publish", "video.upload"];
const MiB = 1024 * 1024;
const adapter = adapterFor("tiktok")!;

/** A proxy in front of the token endpoint that keeps each request's form. */
function recordingProxy(target: string) {
  const forms: Record<string, string>[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const body = await req.text();
      if (req.method === "POST") forms.push(Object.fromEntries(new URLSearchParams(body)));
      const headers = new Headers(req.headers);
      headers.delete("host");
      return fetch(`${target}${url.pathname}${url.search}`, {
        method: req.method,
        headers,
        body: req.method === "GET" ? undefined : body,
      });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, forms, stop: () => server.stop(true) };
}

test("chunks are 10 MiB, the count rounded down, the last one taking the trailing bytes; 10 MiB or less goes whole", () => {
  expect(planChunks(3 * MiB)).toEqual({ chunkSize: 3 * MiB, count: 1, ranges: [[0, 3 * MiB - 1]] });
  expect(planChunks(25 * MiB + 7)).toEqual({
    chunkSize: 10 * MiB,
    count: 2,
    ranges: [
      [0, 10 * MiB - 1],
      [10 * MiB, 25 * MiB + 6],
    ],
  });
  const gib = planChunks(1024 * MiB);
  expect([gib.count, gib.ranges.at(-1)![1]]).toEqual([102, 1024 * MiB - 1]);
  expect(gib.ranges.at(-1)![1] - gib.ranges.at(-1)![0] + 1).toBe(14 * MiB);
});

describeEachDialect("TikTok adapter", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let auth: OAuthServer;
  let tokenProxy: ReturnType<typeof recordingProxy>;
  let tt: TikTokStandIn;
  let s3: LocalS3;
  let appId: string;
  let n = 0;

  beforeAll(async () => {
    auth = await oauthServer({
      routes: { authorization: "/v2/auth/authorize/", token: "/v2/oauth/token/" },
      scopes: SCOPES,
      tokenEndpointAuthMethod: "client_secret_post",
      accessTokenTtl: 24 * 3600,
    });
    await auth.start({ ...CLIENT, redirectUri: "http://localhost:8080/connect/tiktok/callback" });
    tokenProxy = recordingProxy(auth.url);
    tt = await startTikTok(auth);
    s3 = await localS3();
    t = await networkApp(
      dialect,
      { tiktok: tt.url, "tiktok.auth": auth.url, "tiktok.token": tokenProxy.url },
      s3.env,
    );
    a = await tenant(t.app);
    const actor = await personActor(t.app, a.userId, a.orgId, true);
    appId = (
      await createApp(t.app, actor, {
        provider: "tiktok",
        name: "TikTok",
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
      })
    ).id;
  });
  afterEach(() => expectClean(tt));
  afterAll(async () => {
    await t.close();
    await auth.close();
    tokenProxy.stop();
    tt.stop();
    await s3.close();
  });

  async function channel(expiresInMs = 24 * 3600_000) {
    const account = `ttuser${++n}`;
    const openId = tt.openIdOf(account);
    return signedInChannel(t, a, auth, {
      provider: "tiktok",
      appId,
      clientId: CLIENT.clientId,
      account,
      expiresInMs,
      shown: {
        key: openId,
        handle: null,
        settings: { open_id: openId, privacy: "SELF_ONLY", visibility: TIKTOK_VISIBILITY },
      },
    });
  }
  const settingsOf = (account: string) => ({ open_id: tt.openIdOf(account), privacy: "SELF_ONLY" });

  test("the sign-in page gets client_key, comma-joined scopes and a PKCE challenge; user info gives the account, marked private until audited", async () => {
    const url = new URL(
      authorizeUrl(t.app, signInSpec("tiktok")!, {
        clientId: CLIENT.clientId,
        redirectUri: "http://localhost:8080/connect/tiktok/callback",
        state: "s",
        challenge: "c",
      }),
    );
    expect(url.origin + url.pathname).toBe(`${auth.url}/v2/auth/authorize/`);
    expect(url.searchParams.get("client_key")).toBe(CLIENT.clientId);
    expect(url.searchParams.get("scope")).toBe("user.info.basic,video.publish,video.upload");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    const tokens = await auth.issue("lister", CLIENT.clientId);
    const listed = await accountLister("tiktok")!(t.app, tokens.access_token, new AbortController().signal);
    expect(listed).toEqual({
      kind: "accounts",
      accounts: [
        {
          key: tt.openIdOf("lister"),
          display_name: "Lister",
          handle: null,
          profile_url: null,
          settings: { open_id: tt.openIdOf("lister"), privacy: "SELF_ONLY", visibility: TIKTOK_VISIBILITY },
        },
      ],
    });
    await auth.revokeGrants("lister");
    const signal = new AbortController().signal;
    expect(
      (await adapter.connect!(t.app, { livemode: true, settings: {}, secrets: tokens, signal })).kind,
    ).toBe("rejected");
  });

  test("the channel and the preview say plainly that TikTok posts are private until the app is audited", async () => {
    const ch = await channel();
    const got = await t.request("GET", `/v1/channels/${ch.id}`, { key: a.liveKey });
    expect(got.body.settings.visibility).toBe(TIKTOK_VISIBILITY);
    const preview = await t.request("POST", "/v1/posts/preview", {
      key: a.liveKey,
      body: { brand: a.brandId, content: { body: "A clip" }, channels: [ch.id] },
    });
    expect(preview.status).toBe(200);
    const r = preview.body.renditions.find((x: { provider: string }) => x.provider === "tiktok");
    expect(r.notices).toEqual([
      expect.objectContaining({ code: "private_only", message: expect.stringContaining("private") }),
    ]);
  });

  test("a live video post through the worker: token renewed first (client_key in the form), one chunk from S3, SELF_ONLY, status asked until PUBLISH_COMPLETE", async () => {
    const ch = await channel(2 * 60_000);
    const video = await liveVideo(t, a, "A clip");
    tt.processingLooks = 2;
    const formsBefore = tokenProxy.forms.length;
    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        content: { body: "Behind the scenes #launch" },
        channels: [ch.id],
        media: [video.id],
      },
    });
    expect(r.status).toBe(201);
    await drain(t);
    tt.processingLooks = 1;
    const post = (await t.request("GET", `/v1/posts/${r.body.id}`, { key: a.liveKey })).body;
    expect(post.targets[0].status).toBe("published");
    const p = tt.posts.at(-1)!;
    expect([p.openId, p.title, p.privacy, p.chunks]).toEqual([
      tt.openIdOf(ch.account),
      "Behind the scenes #launch",
      "SELF_ONLY",
      1,
    ]);
    expect([p.received, p.sha256]).toEqual([video.bytes.byteLength, sha256(video.bytes)]);
    const statusLooks = tt.requests.filter(
      (q) =>
        q.path === "/v2/post/publish/status/fetch/" &&
        (q.body as { publish_id: string }).publish_id === p.publishId,
    );
    expect(statusLooks).toHaveLength(3);
    // The renewal's refresh request named the app by client_key, as TikTok reads it.
    const refresh = tokenProxy.forms.slice(formsBefore).find((f) => f.grant_type === "refresh_token")!;
    expect(refresh.client_key).toBe(CLIENT.clientId);
    const row = await t.app.db
      .selectFrom("channels")
      .selectAll()
      .where("id", "=", ch.id)
      .executeTakeFirstOrThrow();
    const secrets = await openSecrets(t.app, row);
    expect(secrets.refresh_token).not.toBe(ch.tokens.refresh_token);
  });

  test("a 25 MiB video goes in two chunks (10 MiB, then the rest) read from its stream; a chunk refused part-way is sent again from its first byte", async () => {
    const ch = await channel();
    const bytes = paddedVideo(25 * MiB + 7);
    const before = tt.requests.length;
    tt.stopAfter(3 * MiB);
    const r = await publishDirect(t, "tiktok", {
      settings: settingsOf(ch.account),
      secrets: ch.tokens,
      parts: ["Two chunks"],
      media: [videoMedia(bytes, { width: 160, height: 120, duration_ms: 4000 })],
    });
    expect(r.outcome).toEqual({ kind: "published", permalink: null });
    const p = tt.posts.at(-1)!;
    expect([p.chunks, p.chunkSize, p.received, p.sha256]).toEqual([
      2,
      10 * MiB,
      bytes.byteLength,
      sha256(bytes),
    ]);
    const init = tt.requests.slice(before).find((q) => q.path === "/v2/post/publish/video/init/")!;
    expect((init.body as { source_info: unknown }).source_info).toEqual({
      source: "FILE_UPLOAD",
      video_size: bytes.byteLength,
      chunk_size: 10 * MiB,
      total_chunk_count: 2,
    });
    const ranges = tt.requests
      .slice(before)
      .filter((q) => q.method === "PUT")
      .map((q) => q.headers["content-range"]);
    expect(ranges).toEqual([
      `bytes 0-${10 * MiB - 1}/${bytes.byteLength}`,
      `bytes 0-${10 * MiB - 1}/${bytes.byteLength}`,
      `bytes ${10 * MiB}-${bytes.byteLength - 1}/${bytes.byteLength}`,
    ]);
    expect(r.parts).toEqual([{ index: 0, remote_id: p.publishId, remote_url: null }]);
    // Asked again with the publish saved, it only asks the status: nothing is posted twice.
    const again = await publishDirect(t, "tiktok", {
      settings: settingsOf(ch.account),
      secrets: ch.tokens,
      parts: ["Two chunks"],
      media: [videoMedia(bytes, { width: 160, height: 120, duration_ms: 4000 })],
      done: r.parts,
    });
    expect(again.outcome.kind).toBe("published");
    expect(tt.posts.at(-1)).toBe(p);
  });

  test("documented failures: expired token, rate limit, too many posts, unaudited app and a public account, a file TikTok cannot process, a 5xx", async () => {
    const ch = await channel();
    const bytes = paddedVideo(512 * 1024);
    const media = [videoMedia(bytes, { width: 160, height: 120, duration_ms: 4000 })];
    const call = (secrets = ch.tokens, m = media) =>
      publishDirect(t, "tiktok", { settings: settingsOf(ch.account), secrets, parts: ["Clip"], media: m });

    const gone = await auth.issue(`gone${n}`, CLIENT.clientId);
    await auth.revokeGrants(`gone${n}`);
    expect((await call(gone)).outcome.kind).toBe("auth_revoked");

    tt.fail("rate_limited", 1, (q) => q.path === "/v2/post/publish/video/init/");
    expect((await call()).outcome).toMatchObject({ kind: "rate_limited", retryAfterMs: 60_000 });

    tt.refuseNext(403, "spam_risk_too_many_posts", "The daily post cap for this user has been reached.");
    expect((await call()).outcome).toMatchObject({ kind: "rate_limited", retryAfterMs: 24 * 3600_000 });

    tt.refuseNext(
      403,
      "unaudited_client_can_only_post_to_private_accounts",
      "Unaudited clients can only post to private accounts.",
    );
    const unaudited = await call();
    expect(unaudited.outcome).toMatchObject({ kind: "rejected", code: "unauthorized" });
    expect((unaudited.outcome as { message: string }).message).toContain("make the TikTok account private");

    tt.fail("server_error", 1, (q) => q.path === "/v2/post/publish/video/init/");
    expect((await call()).outcome.kind).toBe("transient");

    const notMp4 = new Uint8Array(512 * 1024).fill(9);
    const failed = await call(ch.tokens, [videoMedia(notMp4, { width: 1, height: 1, duration_ms: 1 })]);
    expect(failed.outcome).toMatchObject({ kind: "rejected", code: "video_rejected" });
    expect((failed.outcome as { message: string }).message).toContain("file_format_check_failed");
  });
});
