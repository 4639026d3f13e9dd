// LinkedIn (member feed) and LinkedIn Pages against a stand-in that follows LinkedIn's documentation (it publishes
// no machine-readable description; test/stand-ins/linkedin.ts names the page of each endpoint), with tokens from a
// real authorization server: the member and the administered Pages a sign-in reaches, posts through the real
// publish worker in the little text format with the LinkedIn-Version header, a pasted member token, and each
// documented failure classified. Video goes up through the Videos API in parts read from its stream (from the
// bucket), is finalized with the parts' ETags and waited for until LinkedIn has processed it.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../../src/domain/apps/create.ts";
import type { Adapter } from "../../../src/platforms/adapter.ts";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import { littleText } from "../../../src/platforms/linkedin/little-text.ts";
import { linkedinMember, linkedinPagesAccounts } from "../../../src/platforms/linkedin/signin.ts";
import { startPublishWorker } from "../../../src/queue/publish/worker.ts";
import type { TestApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, upload } from "../../helpers/media.ts";
import { drain, networkApp, publishDirect, publishLive } from "../../helpers/networks.ts";
import { type OAuthServer, oauthServer } from "../../helpers/oauth-server.ts";
import { personActor } from "../../helpers/person.ts";
import { type LocalS3, localS3 } from "../../helpers/s3.ts";
import { signedInChannel } from "../../helpers/signin.ts";
import { makeVideo, paddedVideo, sha256, videoMedia } from "../../helpers/video.ts";
import { type LinkedInStandIn, startLinkedIn } from "../../stand-ins/linkedin.ts";

setDefaultTimeout(30_000);
const CLIENT = { clientId: "linkedin-client", clientSecret: "linkedin-secret" };

test("little text: reserved characters are escaped, hashtags stay hashtags, mentions are shown as written", () => {
  expect(littleText("Launch (v2) is *out* #launch @team [beta] <now> a_b ~ | {x} \\")).toBe(
    "Launch \\(v2\\) is \\*out\\* {hashtag|\\#|launch} \\@team \\[beta\\] \\<now\\> a\\_b \\~ \\| \\{x\\} \\\\",
  );
  expect(littleText("#first and issue#2")).toBe("{hashtag|\\#|first} and issue\\#2");
});

/** LinkedIn's sign-in (a local OAuth server with LinkedIn's paths and scopes; no PKCE, secret in the body). */
async function linkedinAuth(): Promise<OAuthServer> {
  const auth = await oauthServer({
    routes: { authorization: "/oauth/v2/authorization", token: "/oauth/v2/accessToken" },
    scopes: ["openid", "profile", "w_member_social", "r_organization_admin", "w_organization_social"],
    pkce: false,
    tokenEndpointAuthMethod: "client_secret_post",
    accessTokenTtl: 60 * 24 * 3600,
  });
  await auth.start({ ...CLIENT, redirectUri: "http://localhost:8080/connect/linkedin/callback" });
  return auth;
}

/** The org's developer apps for members and for Pages, registered by its owner. */
async function linkedinApps(t: TestApp, a: Tenant) {
  const actor = await personActor(t.app, a.userId, a.orgId, true);
  const app = async (provider: string) =>
    (
      await createApp(t.app, actor, {
        provider,
        name: provider,
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
      })
    ).id;
  return { memberApp: await app("linkedin"), pagesApp: await app("linkedin_pages") };
}

describeEachDialect("LinkedIn adapters", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let auth: OAuthServer;
  let li: LinkedInStandIn;
  let s3: LocalS3;
  let memberApp: string;
  let pagesApp: string;
  const signal = new AbortController().signal;
  beforeAll(async () => {
    auth = await linkedinAuth();
    li = startLinkedIn(auth);
    s3 = await localS3();
    t = await networkApp(dialect, { linkedin: li.url }, s3.env);
    a = await tenant(t.app);
    ({ memberApp, pagesApp } = await linkedinApps(t, a));
  });
  afterAll(async () => {
    await t.close();
    await auth.close();
    li.stop();
    await s3.close();
  });

  test("a member sign-in reaches the member; a Pages sign-in each administered Page, or none", async () => {
    const tokens = await auth.issue("dana", CLIENT.clientId);
    const member = await linkedinMember(t.app, tokens.access_token);
    expect(member).toEqual({
      kind: "accounts",
      accounts: [
        {
          key: li.memberOf("dana"),
          display_name: "Dana Member",
          handle: null,
          profile_url: null,
          settings: { author: `urn:li:person:${li.memberOf("dana")}`, api_version: "202506" },
        },
      ],
    });
    li.pages.set("dana", [
      { id: "1001", name: "Acme", vanity: "acme" },
      { id: "1002", name: "Acme Labs", vanity: "acme-labs" },
    ]);
    const pages = await linkedinPagesAccounts(t.app, tokens.access_token, signal);
    expect(
      pages.kind === "accounts" &&
        pages.accounts.map((p) => [p.key, p.display_name, p.profile_url, p.settings.author]),
    ).toEqual([
      ["1001", "Acme", "https://www.linkedin.com/company/acme/", "urn:li:organization:1001"],
      ["1002", "Acme Labs", "https://www.linkedin.com/company/acme-labs/", "urn:li:organization:1002"],
    ]);
    const none = await linkedinPagesAccounts(
      t.app,
      (await auth.issue("solo", CLIENT.clientId)).access_token,
      signal,
    );
    expect(none).toEqual({ kind: "accounts", accounts: [] });
    await auth.revokeGrants("dana");
    expect((await linkedinMember(t.app, tokens.access_token)).kind).toBe("rejected");
  });

  test("member and Page posts through the publish worker, in little text with the LinkedIn-Version header", async () => {
    const id = li.memberOf("erin");
    const member = await signedInChannel(t, a, auth, {
      provider: "linkedin",
      appId: memberApp,
      clientId: CLIENT.clientId,
      account: "erin",
      expiresInMs: 60 * 24 * 3600_000,
      shown: { key: id, settings: { author: `urn:li:person:${id}`, api_version: "202506" } },
    });
    const post = await publishLive(t, a, member.id, { body: "We shipped (v2) #launch" });
    expect(post.status).toBe("published");
    const sent = li.posts.at(-1)!;
    expect([sent.author, sent.commentary, sent.version]).toEqual([
      `urn:li:person:${id}`,
      "We shipped \\(v2\\) {hashtag|\\#|launch}",
      "202506",
    ]);
    expect(sent.body.visibility).toBe("PUBLIC");
    expect(post.targets[0].permalink).toBe(`https://www.linkedin.com/feed/update/${sent.urn}/`);

    li.pages.set("erin", [{ id: "2001", name: "Erin Co", vanity: "erin-co" }]);
    const page = await signedInChannel(t, a, auth, {
      provider: "linkedin_pages",
      appId: pagesApp,
      clientId: CLIENT.clientId,
      account: "erin",
      expiresInMs: 60 * 24 * 3600_000,
      shown: { key: "2001", settings: { author: "urn:li:organization:2001", api_version: "202506" } },
    });
    const pagePost = await publishLive(t, a, page.id, { body: "From the Page" });
    expect(pagePost.status).toBe("published");
    expect(li.posts.at(-1)!.author).toBe("urn:li:organization:2001");
  });

  test("a pasted member token is checked and takes the member as author; Pages connect only by signing in", async () => {
    const tokens = await auth.issue("fran", CLIENT.clientId);
    const r = await t.request("POST", "/v1/channels", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        provider: "linkedin",
        fields: { access_token: tokens.access_token, api_version: "202501" },
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.settings).toEqual({
      api_version: "202501",
      author: `urn:li:person:${li.memberOf("fran")}`,
    });
    expect(r.body.display_name).toBe("Fran Member");
    const post = await publishLive(t, a, r.body.id, { body: "Pasted token post" });
    expect(post.status).toBe("published");
    expect(li.posts.at(-1)!.version).toBe("202501");
    const pages = await t.request("POST", "/v1/channels", {
      key: a.liveKey,
      body: { brand: a.brandId, provider: "linkedin_pages" },
    });
    expect([pages.status, pages.body.code]).toEqual([422, "connect_failed"]);
  });

  test("failures: 429 with Retry-After, 401, 5xx or a reset after sending, a duplicate, a video LinkedIn cannot process, an image upload's 5xx", async () => {
    const tokens = await auth.issue("gail", CLIENT.clientId);
    const settings = { author: `urn:li:person:${li.memberOf("gail")}`, api_version: "202506" };
    const go = (text: string) => publishDirect(t, "linkedin", { settings, secrets: tokens, parts: [text] });
    li.fail("rate_limited");
    expect((await go("Limited")).outcome).toMatchObject({ kind: "rate_limited", retryAfterMs: 120_000 });
    li.fail("revoked");
    expect((await go("Revoked")).outcome.kind).toBe("auth_revoked");
    li.fail("server_error");
    expect((await go("Broken")).outcome.kind).toBe("uncertain");
    // The connection is cut after LinkedIn read the create: the post exists, the answer is lost.
    const postsBefore = li.posts.length;
    li.fail("reset_after_read");
    expect((await go("Cut off")).outcome.kind).toBe("uncertain");
    expect(li.posts.length).toBe(postsBefore + 1);
    expect((await go("Only once")).outcome.kind).toBe("published");
    expect((await go("Only once")).outcome).toMatchObject({ kind: "rejected", code: "duplicate" });
    // A video LinkedIn fails to process (no MP4 inside): refused once its status says so, and no post is made.
    const posts = li.posts.length;
    const junk = new Uint8Array(64 * 1024).fill(7);
    const withVideo = await publishDirect(t, "linkedin", {
      settings,
      secrets: tokens,
      parts: ["Clip"],
      media: [videoMedia(junk, { width: 320, height: 240, duration_ms: 4000 })],
    });
    expect(withVideo.outcome).toMatchObject({ kind: "rejected", code: "media_rejected" });
    expect(li.posts.length).toBe(posts);
    // An image upload that meets a server error: the post was not sent, so it is worth another attempt.
    const image = [
      { id: "media_i", mime: "image/jpeg", alt: null, kind: "image" as const, read: () => jpeg(40, 30) },
    ];
    li.fail("server_error");
    const failed = await publishDirect(t, "linkedin", {
      settings,
      secrets: tokens,
      parts: ["Pic"],
      media: image,
    });
    expect(failed.outcome.kind).toBe("transient");
    expect(li.posts.length).toBe(posts);
  });

  test("images are uploaded first (initializeUpload, then the bytes PUT) and named in the post: one as media, several as multiImage, each with its alt text", async () => {
    const id = li.memberOf("hana");
    const member = await signedInChannel(t, a, auth, {
      provider: "linkedin",
      appId: memberApp,
      clientId: CLIENT.clientId,
      account: "hana",
      expiresInMs: 60 * 24 * 3600_000,
      shown: { key: id, settings: { author: `urn:li:person:${id}`, api_version: "202506" } },
    });
    const up = async (alt: string, w: number) =>
      (
        await upload(t, a.liveKey, {
          brand: a.brandId,
          alt,
          file: { bytes: await jpeg(w, 300), name: `${alt}.jpg`, type: "image/jpeg" },
        })
      ).body.id as string;
    const one = await up("A harbour", 400);
    const single = await publishLive(t, a, member.id, { body: "One picture" }, [one]);
    expect(single.status).toBe("published");
    const sent = li.posts.at(-1)!;
    const content = sent.body.content as { media: { id: string; altText: string } };
    expect(content.media.altText).toBe("A harbour");
    const image = li.images.get(content.media.id)!;
    expect([image.owner, image.type, image.bytes!.slice(0, 2)]).toEqual([
      `urn:li:person:${id}`,
      "image/jpeg",
      new Uint8Array([0xff, 0xd8]),
    ]);
    const two = [await up("First", 500), await up("Second", 600)];
    const multi = await publishLive(t, a, member.id, { body: "Two pictures" }, two);
    expect(multi.status).toBe("published");
    const images = (
      li.posts.at(-1)!.body.content as { multiImage: { images: { id: string; altText: string }[] } }
    ).multiImage.images;
    expect(images.map((i) => i.altText)).toEqual(["First", "Second"]);
    for (const i of images) expect(li.images.get(i.id)!.bytes!.length).toBeGreaterThan(100);
  });

  test("engagement from the Social Actions summary (likes, comments); a deleted post is reported deleted", async () => {
    const tokens = await auth.issue("ivan", CLIENT.clientId);
    const settings = { author: `urn:li:person:${li.memberOf("ivan")}`, api_version: "202506" };
    const sent = await publishDirect(t, "linkedin", { settings, secrets: tokens, parts: ["Count me"] });
    expect(sent.outcome.kind).toBe("published");
    const post = li.posts.at(-1)!;
    post.likes = 21;
    post.comments = 4;
    const input = {
      targetId: "ptgt_li",
      livemode: true,
      signal,
      channel: { id: "chan_li", provider: "linkedin", emulates: null, settings, secrets: tokens },
      parts: sent.parts,
    };
    const adapter = adapterFor("linkedin")!;
    expect(await adapter.engagement!(t.app, input)).toEqual({
      kind: "counts",
      counts: { likes: 21, reposts: 0, replies: 4, quotes: 0, views: null },
    });
    expect(li.requests.at(-1)!.headers["linkedin-version"]).toBe("202506");
    post.deleted = true;
    expect(await adapter.engagement!(t.app, input)).toEqual({ kind: "deleted" });
  });

  test("a video goes up in 4 MiB parts read from its stream, is finalized with the ETags in order, waited for until AVAILABLE, then named in the post", async () => {
    const tokens = await auth.issue("vera", CLIENT.clientId);
    const author = `urn:li:person:${li.memberOf("vera")}`;
    const settings = { author, api_version: "202506" };
    // Over two parts: three PUTs of 4 MiB, 4 MiB and the rest.
    const bytes = paddedVideo(9 * 1024 * 1024);
    let reads = 0;
    const media = [
      videoMedia(bytes, { width: 320, height: 240, duration_ms: 4000 }, () => {
        reads++;
        return new Blob([bytes]).stream();
      }),
    ];
    const before = li.requests.length;
    const r = await publishDirect(t, "linkedin", { settings, secrets: tokens, parts: ["A clip"], media });
    expect(r.outcome.kind).toBe("published");
    expect(reads).toBe(1);
    const seen = li.requests.slice(before);
    const init = seen.find((q) => q.path === "/rest/videos" && q.query.action === "initializeUpload")!;
    expect(init.body).toEqual({
      initializeUploadRequest: {
        owner: author,
        fileSizeBytes: bytes.byteLength,
        uploadCaptions: false,
        uploadThumbnail: false,
      },
    });
    expect(init.headers["linkedin-version"]).toBe("202506");
    const puts = seen.filter((q) => q.method === "PUT");
    expect(puts.map((q) => (q.body as { bytes: Uint8Array }).bytes.byteLength)).toEqual([
      4 * 1024 * 1024,
      4 * 1024 * 1024,
      1024 * 1024,
    ]);
    const polls = seen.filter((q) => q.method === "GET" && q.path.startsWith("/rest/videos/"));
    expect(polls.length).toBe(3);
    const post = li.posts.at(-1)!;
    const id = (post.body.content as { media: { id: string } }).media.id;
    const video = li.videos.get(id)!;
    expect([video.owner, video.status[0]]).toEqual([author, "AVAILABLE"]);
    expect(sha256(video.bytes!)).toBe(sha256(bytes));
    // The post was created only after the last status read said AVAILABLE.
    const create = seen.findIndex((q) => q.path === "/rest/posts");
    expect(create).toBeGreaterThan(seen.lastIndexOf(polls.at(-1)!));
    expect(r.parts[0]!.remote_id).toBe(post.urn);
  });

  test("a member's and a Page's video from the bucket through the publish worker; a part's upload meeting a 5xx posts nothing", async () => {
    const id = li.memberOf("wren");
    li.pages.set("wren", [{ id: "3001", name: "Wren Co", vanity: "wren-co" }]);
    const member = await signedInChannel(t, a, auth, {
      provider: "linkedin",
      appId: memberApp,
      clientId: CLIENT.clientId,
      account: "wren",
      expiresInMs: 60 * 24 * 3600_000,
      shown: { key: id, settings: { author: `urn:li:person:${id}`, api_version: "202506" } },
    });
    const page = await signedInChannel(t, a, auth, {
      provider: "linkedin_pages",
      appId: pagesApp,
      clientId: CLIENT.clientId,
      account: "wren",
      expiresInMs: 60 * 24 * 3600_000,
      shown: { key: "3001", settings: { author: "urn:li:organization:3001", api_version: "202506" } },
    });
    // LinkedIn takes videos of 3 seconds or more.
    const clipBytes = makeVideo({ seconds: 4, width: 320, height: 240 });
    const uploaded = await upload(t, a.liveKey, {
      brand: a.brandId,
      alt: "Our launch",
      file: { bytes: clipBytes, name: "launch.mp4", type: "video/mp4" },
    });
    expect(uploaded.status).toBe(201);
    const clip = { id: uploaded.body.id as string, bytes: clipBytes };
    for (const [channel, author, text] of [
      [member.id, `urn:li:person:${id}`, "The member's clip"],
      [page.id, "urn:li:organization:3001", "The Page's clip"],
    ] as const) {
      const post = await publishLive(t, a, channel, { body: text }, [clip.id]);
      expect(post.status).toBe("published");
      const sent = li.posts.at(-1)!;
      expect([sent.author, sent.commentary]).toEqual([author, text]);
      const video = li.videos.get((sent.body.content as { media: { id: string } }).media.id)!;
      expect(video.owner).toBe(author);
      expect(sha256(video.bytes!)).toBe(sha256(clip.bytes));
    }
    const tokens = await auth.issue("wren", CLIENT.clientId);
    const posts = li.posts.length;
    const media = [videoMedia(paddedVideo(5 * 1024 * 1024), { width: 320, height: 240, duration_ms: 4000 })];
    // The first part's PUT meets a server error.
    const before = li.requests.length;
    li.fail("server_error", 1, (q) => q.method === "PUT");
    const broken = await publishDirect(t, "linkedin", {
      settings: { author: `urn:li:person:${id}`, api_version: "202506" },
      secrets: tokens,
      parts: ["Broken upload"],
      media,
    });
    expect(broken.outcome.kind).toBe("transient");
    expect(li.requests.slice(before).some((q) => q.method === "PUT")).toBe(true);
    expect(li.posts.length).toBe(posts);
  });
});

describeEachDialect("LinkedIn first comments and deleting", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let auth: OAuthServer;
  let li: LinkedInStandIn;
  let memberApp: string;
  let pagesApp: string;
  beforeAll(async () => {
    auth = await linkedinAuth();
    li = startLinkedIn(auth);
    t = await networkApp(dialect, { linkedin: li.url });
    a = await tenant(t.app);
    ({ memberApp, pagesApp } = await linkedinApps(t, a));
  });
  afterAll(async () => {
    await t.close();
    await auth.close();
    li.stop();
  });

  const pageChannel = (account: string, id: string) => {
    li.pages.set(account, [{ id, name: `${account} Co`, vanity: `${account}-co` }]);
    return signedInChannel(t, a, auth, {
      provider: "linkedin_pages",
      appId: pagesApp,
      clientId: CLIENT.clientId,
      account,
      expiresInMs: 60 * 24 * 3600_000,
      shown: { key: id, settings: { author: `urn:li:organization:${id}`, api_version: "202506" } },
    });
  };
  const create = (channel: string, body: string, first_comment?: string) =>
    t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        channels: [channel],
        content: { body },
        ...(first_comment ? { first_comment } : {}),
      },
    });
  const getPost = async (id: string) => (await t.request("GET", `/v1/posts/${id}`, { key: a.liveKey })).body;

  test("a Page's first comment is the Page's own comment on its post; a member channel refuses one in the preview; LinkedIn's 1,250 characters", async () => {
    const page = await pageChannel("kai", "4001");
    const r = await create(page.id, "Hiring (3 roles)", "Apply: https://example.com/jobs");
    expect(r.status).toBe(201);
    await drain(t);
    const target = (await getPost(r.body.id)).targets[0];
    expect([target.status, target.first_comment.status]).toEqual(["published", "published"]);
    const post = li.posts.at(-1)!;
    expect([post.author, post.commentary]).toEqual(["urn:li:organization:4001", "Hiring \\(3 roles\\)"]);
    const comment = li.postComments.at(-1)!;
    // Comments take plain text, not little text; the Page comments as itself, on the post it made.
    expect([comment.actor, comment.post, comment.text, comment.version]).toEqual([
      "urn:li:organization:4001",
      post.urn,
      "Apply: https://example.com/jobs",
      "202506",
    ]);
    expect(comment.body).toEqual({
      actor: "urn:li:organization:4001",
      object: post.urn,
      message: { text: "Apply: https://example.com/jobs" },
    });
    expect(target.first_comment.permalink).toBe(
      `https://www.linkedin.com/feed/update/${post.urn}/?commentUrn=${encodeURIComponent(comment.urn)}`,
    );
    // Made after the post, once each.
    const made = li.requests.filter(
      (q) => q.method === "POST" && /^\/rest\/(posts|socialActions)/.test(q.path),
    );
    expect(made.slice(-2).map((q) => q.path.split("/")[2])).toEqual(["posts", "socialActions"]);

    const id = li.memberOf("kai");
    const member = await signedInChannel(t, a, auth, {
      provider: "linkedin",
      appId: memberApp,
      clientId: CLIENT.clientId,
      account: "kai",
      expiresInMs: 60 * 24 * 3600_000,
      shown: { key: id, settings: { author: `urn:li:person:${id}`, api_version: "202506" } },
    });
    const preview = await t.request("POST", "/v1/posts/preview", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        channels: [member.id, page.id],
        content: { body: "Both" },
        first_comment: "x".repeat(1251),
      },
    });
    expect(preview.status).toBe(200);
    const codesOf = (ch: string) =>
      preview.body.renditions
        .find((x: { channel: string }) => x.channel === ch)
        .violations.map((v: { code: string; limit: number | null }) => `${v.code}:${v.limit}`);
    expect(codesOf(member.id)).toEqual(["first_comment_unsupported:null"]);
    expect(codesOf(page.id)).toEqual(["too_long:1250"]);
    const refused = await create(member.id, "Member post", "A comment");
    expect([refused.status, refused.body.errors.map((e: { code: string }) => e.code)]).toEqual([
      422,
      ["first_comment_unsupported"],
    ]);
  });

  test("a worker killed between the post and its comment: the retry posts the comment alone, never the post twice", async () => {
    const page = await pageChannel("lena", "4002");
    const r = await create(page.id, "Posted once", "Commented once");
    const linkedin = adapterFor("linkedin_pages")!;
    const killed: Adapter = {
      ...linkedin,
      publish: (app, input) =>
        linkedin.publish(app, {
          ...input,
          onPartPublished: async (part) => {
            await input.onPartPublished(part);
            if (input.attempt === 1 && part.index === 0) throw new Error("worker killed");
          },
        }),
    };
    const w = startPublishWorker(t.app, {
      adapterFor: (p) => (p === "linkedin_pages" ? killed : adapterFor(p)),
      pollMs: 20,
    });
    for (let i = 0; i < 100; i++) {
      await Bun.sleep(20);
      await w.idle();
      const s = (await getPost(r.body.id)).targets[0].status;
      if (s !== "queued" && s !== "publishing") break;
    }
    await w.stop();
    const mid = (await getPost(r.body.id)).targets[0];
    // LinkedIn makes no idempotency promise: what the worker cannot tell goes to a person, never sent again alone.
    expect(mid.status).toBe("needs_attention");
    expect(mid.first_comment.status).not.toBe("published");
    const mine = () => li.posts.filter((p) => p.author === "urn:li:organization:4002");
    const comments = () => li.postComments.filter((c) => c.actor === "urn:li:organization:4002");
    expect([mine().length, comments().length]).toEqual([1, 0]);
    const retry = await t.request("POST", `/v1/post_targets/${mid.id}/retry`, { key: a.liveKey });
    expect(retry.status).toBe(200);
    await drain(t);
    const done = (await getPost(r.body.id)).targets[0];
    expect([done.status, done.first_comment.status]).toEqual(["published", "published"]);
    expect(mine().map((p) => p.commentary)).toEqual(["Posted once"]);
    expect(comments().map((c) => [c.post, c.text])).toEqual([[mine()[0]!.urn, "Commented once"]]);
  });

  test("a comment LinkedIn refuses fails the target with the post up; a retry sends only the comment", async () => {
    const page = await pageChannel("mira", "4003");
    const r = await create(page.id, "Post stays", "Comment later");
    li.fail("server_error", 1, (q) => q.method === "POST" && q.path.includes("/comments"));
    await drain(t);
    const mid = (await getPost(r.body.id)).targets[0];
    expect(mid.status).toBe("needs_attention");
    expect(mid.first_comment.status).toBe("needs_attention");
    expect(li.posts.filter((p) => p.author === "urn:li:organization:4003")).toHaveLength(1);
    expect(li.postComments.filter((c) => c.actor === "urn:li:organization:4003")).toHaveLength(0);
  });

  test("delete_published removes the Page's comment, then its post, and a member's post; asking again deletes nothing twice", async () => {
    const page = await pageChannel("nell", "4004");
    const r = await create(page.id, "Short-lived", "Its comment");
    await drain(t);
    const post = li.posts.at(-1)!;
    const comment = li.postComments.at(-1)!;
    expect([post.deleted, comment.deleted, post.comments]).toEqual([false, false, 1]);
    const before = li.requests.length;
    const del = await t.request("POST", `/v1/posts/${r.body.id}/delete_published`, { key: a.liveKey });
    expect(del.status).toBe(200);
    expect(del.body.results.map((x: { provider: string; result: string }) => [x.provider, x.result])).toEqual(
      [["linkedin_pages", "deleted"]],
    );
    expect([post.deleted, comment.deleted]).toEqual([true, true]);
    const calls = li.requests
      .slice(before)
      .map((q) => [q.method, decodeURIComponent(q.path), q.query.actor ?? null]);
    expect(calls).toEqual([
      ["DELETE", `/rest/socialActions/${post.urn}/comments/${comment.id}`, "urn:li:organization:4004"],
      ["DELETE", `/rest/posts/${post.urn}`, null],
    ]);
    const again = await t.request("POST", `/v1/posts/${r.body.id}/delete_published`, { key: a.liveKey });
    expect(again.body.results[0].result).toBe("deleted");
    expect(li.requests.length).toBe(before + 2);
    const target = (await getPost(r.body.id)).targets[0];
    expect(target.deleted_at).not.toBeNull();

    // The adapter itself: asking a network that already deleted both counts them deleted.
    const adapter = adapterFor("linkedin_pages")!;
    const remote = {
      targetId: target.id,
      livemode: true,
      signal: new AbortController().signal,
      channel: {
        id: page.id,
        provider: "linkedin_pages",
        emulates: null,
        settings: { author: "urn:li:organization:4004", api_version: "202506" },
        secrets: await auth.issue("nell", CLIENT.clientId),
      },
      parts: [
        { index: 0, remote_id: post.urn, remote_url: null },
        { index: 1, remote_id: comment.urn, remote_url: null },
      ],
    };
    expect(await adapter.deletePublished!(t.app, remote)).toEqual({ kind: "deleted" });
    // A refusal is the network's words.
    const other = {
      ...remote,
      channel: { ...remote.channel, secrets: await auth.issue("stranger", CLIENT.clientId) },
    };
    const mine = await create(page.id, "Not yours to delete");
    await drain(t);
    const stranger = await adapter.deletePublished!(t.app, {
      ...other,
      parts: [{ index: 0, remote_id: li.posts.at(-1)!.urn, remote_url: null }],
    });
    expect(stranger).toMatchObject({
      kind: "failed",
      message: expect.stringContaining("LinkedIn answered 403"),
    });
    expect((await getPost(mine.body.id)).status).toBe("published");

    const id = li.memberOf("nell");
    const member = await signedInChannel(t, a, auth, {
      provider: "linkedin",
      appId: memberApp,
      clientId: CLIENT.clientId,
      account: "nell",
      expiresInMs: 60 * 24 * 3600_000,
      shown: { key: id, settings: { author: `urn:li:person:${id}`, api_version: "202506" } },
    });
    const m = await publishLive(t, a, member.id, { body: "A member's post" });
    const memberPost = li.posts.at(-1)!;
    const gone = await t.request("POST", `/v1/posts/${m.id}/delete_published`, { key: a.liveKey });
    expect(gone.body.results[0]).toMatchObject({ provider: "linkedin", result: "deleted" });
    expect(memberPost.deleted).toBe(true);
    const events = await t.app.db
      .selectFrom("events")
      .select("type")
      .where("type", "=", "post_target.deleted")
      .where("org_id", "=", a.orgId)
      .execute();
    expect(events.length).toBe(2);
  });
});
