// Threads against a stateful stand-in that follows its documentation page by page (Threads publishes no machine-
// readable description): its own sign-in (the code, the long-lived exchange, renewal with th_refresh_token), text,
// a thread with a first comment as replies, an image and a video fetched from signed links, a carousel, the
// container status wait, engagement, deletion, each documented failure, and a stop during the container wait that
// posts nothing twice.
import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createApp as createDevApp } from "../../../src/domain/apps/create.ts";
import { openSecrets } from "../../../src/domain/channels/fields.ts";
import { finishSignIn } from "../../../src/domain/connect/callback.ts";
import { chooseAccounts, pendingSignIn } from "../../../src/domain/connect/choose.ts";
import { renewToken } from "../../../src/domain/connect/renew.ts";
import { startSignIn } from "../../../src/domain/connect/start.ts";
import type { PublishMedia } from "../../../src/platforms/adapter.ts";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import type { TestApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, upload } from "../../helpers/media.ts";
import { drain, networkApp, publishDirect, publishLive } from "../../helpers/networks.ts";
import { personActor } from "../../helpers/person.ts";
import { type LocalS3, localS3 } from "../../helpers/s3.ts";
import { makeVideo } from "../../helpers/video.ts";
import { expectClean } from "../../stand-ins/server.ts";
import { startThreads, type ThreadsStandIn } from "../../stand-ins/threads.ts";

setDefaultTimeout(30_000);

const BASE = "https://svc.example.org";
const CLIENT = { client_id: "threads-app-1", client_secret: "threads-secret" };

describeEachDialect("Threads", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let th: ThreadsStandIn;
  let s3: LocalS3;
  beforeAll(async () => {
    s3 = await localS3();
    th = startThreads({
      fetchMedia: async (url) => t.http.handle(new Request(url.replace(BASE, "http://localhost"))),
    });
    t = await networkApp(
      dialect,
      { threads: th.url, "threads.auth": th.url, "threads.token": th.url },
      { SVC_BASE_URL: BASE, ...s3.env },
    );
    a = await tenant(t.app);
    const actor = await personActor(t.app, a.userId, a.orgId, true);
    await createDevApp(t.app, actor, { provider: "threads", name: "Threads app", ...CLIENT });
    th.registerApp(CLIENT.client_id, CLIENT.client_secret, `${BASE}/connect/threads/callback`);
  });
  afterEach(() => expectClean(th));
  afterAll(async () => {
    await t.close();
    await s3.close();
    th.stop();
  });

  async function connect(username: string) {
    const actor = await personActor(t.app, a.userId, a.orgId, true);
    th.signInAs = username;
    const { url } = await startSignIn(t.app, actor, { provider: "threads", brand: a.brandId });
    const res = await fetch(url, { redirect: "manual" });
    expect(res.status).toBe(302);
    const { id } = await finishSignIn(t.app, a.userId, "threads", new URL(res.headers.get("location")!));
    const pending = await pendingSignIn(t.app, actor, id);
    const [channel] = await chooseAccounts(
      t.app,
      actor,
      id,
      pending.accounts.map((x) => x.key),
    );
    return channel!;
  }
  const secretsOf = async (id: string) =>
    openSecrets(
      t.app,
      await t.app.db.selectFrom("channels").selectAll().where("id", "=", id).executeTakeFirstOrThrow(),
    );
  const getPost = async (id: string) => (await t.request("GET", `/v1/posts/${id}`, { key: a.liveKey })).body;

  test("developer apps through the API: Facebook, Instagram and Threads each take one, with their redirect URI", async () => {
    for (const provider of ["facebook", "instagram", "threads"]) {
      const r = await t.request("POST", "/v1/developer_apps", {
        key: a.liveKey,
        body: { provider, name: `API ${provider}`, client_id: "123", client_secret: "s3cret" },
      });
      expect([r.status, r.body.provider, r.body.redirect_uri]).toEqual([
        201,
        provider,
        `${BASE}/connect/${provider}/callback`,
      ]);
      expect(JSON.stringify(r.body)).not.toContain("s3cret");
    }
    // Pasting credentials is not how these connect: POST /v1/channels is refused, pointing to signing in.
    const pasted = await t.request("POST", "/v1/channels", {
      key: a.liveKey,
      body: { brand: a.brandId, provider: "threads" },
    });
    expect([pasted.status, pasted.body.code]).toEqual([422, "connect_failed"]);
  });

  test("its own sign-in: the code, then a 60-day token; renewed with itself (th_refresh_token) before it ends", async () => {
    const ch = await connect("ana");
    expect([ch.provider, ch.handle, ch.profile_url]).toEqual([
      "threads",
      "@ana",
      "https://www.threads.net/@ana",
    ]);
    const first = await secretsOf(ch.id);
    expect(first.access_token).toBe(th.issued.at(-1)!);
    expect(first.refresh_token).toBeUndefined();
    const grant = await t.app.db
      .selectFrom("channel_grants")
      .selectAll()
      .where("channel_id", "=", ch.id)
      .executeTakeFirstOrThrow();
    expect(Number(grant.token_expires_at)).toBeGreaterThan(Date.now() + 59 * 24 * 3600_000);
    // Due (within a window that reaches its end): renewed with the token itself, the new one stored.
    const r = await renewToken(t.app, ch.id, 61 * 24 * 3600_000);
    expect(r.kind).toBe("renewed");
    const renewed = await secretsOf(ch.id);
    expect(renewed.access_token).toBe(th.issued.at(-1)!);
    expect(renewed.access_token).not.toBe(first.access_token);
    expect(
      th.requests.some(
        (q) => q.path === "/refresh_access_token" && q.query.grant_type === "th_refresh_token",
      ),
    ).toBe(true);
    // An ended token cannot renew: the channel asks for a new sign-in.
    th.invalidate("ana");
    expect((await renewToken(t.app, ch.id, 61 * 24 * 3600_000)).kind).toBe("refused");
    const after = await t.request("GET", `/v1/channels/${ch.id}`, { key: a.liveKey });
    expect(after.body.status).toBe("needs_reauth");
  });

  test("text, a thread of replies with a first comment, an image, a carousel and a video through the worker", async () => {
    const ch = await connect("ben");
    const text = await publishLive(t, a, ch.id, { body: "Hello Threads" });
    expect(text.status).toBe("published");
    const p0 = th.posts.at(-1)!;
    expect([p0.media_type, p0.text, p0.reply_to]).toEqual(["TEXT_POST", "Hello Threads", null]);
    expect(text.targets[0].permalink).toBe(`https://www.threads.net/@ben/post/${p0.id}`);

    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        channels: [ch.id],
        content: { parts: ["One", "Two"] },
        first_comment: "Links below",
      },
    });
    expect(r.status).toBe(201);
    await drain(t);
    const thread = await getPost(r.body.id);
    expect([thread.status, thread.targets[0].first_comment.status]).toEqual(["published", "published"]);
    const [one, two, comment] = th.posts.slice(-3);
    expect([one!.text, two!.text, comment!.text]).toEqual(["One", "Two", "Links below"]);
    expect([one!.reply_to, two!.reply_to, comment!.reply_to]).toEqual([null, one!.id, two!.id]);

    const img = await upload(t, a.liveKey, {
      brand: a.brandId,
      alt: "A cat",
      file: { bytes: await jpeg(400, 400), name: "c.jpg", type: "image/jpeg" },
    });
    const image = await publishLive(t, a, ch.id, { body: "A cat" }, [img.body.id]);
    expect(image.status).toBe("published");
    const ic = th.containers.find((c) => c.id === th.posts.at(-1)!.container)!;
    expect([ic.media_type, ic.fetched!.type]).toEqual(["IMAGE", "image/jpeg"]);

    const img2 = await upload(t, a.liveKey, {
      brand: a.brandId,
      file: { bytes: await jpeg(300, 200), name: "d.jpg", type: "image/jpeg" },
    });
    const carousel = await publishLive(t, a, ch.id, { body: "Two cats" }, [img.body.id, img2.body.id]);
    expect(carousel.status).toBe("published");
    expect(th.posts.at(-1)!.media_type).toBe("CAROUSEL_ALBUM");

    const bytes = makeVideo({ seconds: 2, width: 320, height: 240 });
    const v = await upload(t, a.liveKey, {
      brand: a.brandId,
      file: { bytes, name: "v.mp4", type: "video/mp4" },
    });
    expect(v.status).toBe(201);
    th.processingPolls = 2;
    const video = await publishLive(t, a, ch.id, { body: "A clip" }, [v.body.id]);
    expect(video.status).toBe("published");
    const vc = th.containers.find((c) => c.id === th.posts.at(-1)!.container)!;
    expect([vc.media_type, vc.fetched]).toEqual(["VIDEO", { type: "video/mp4", bytes: bytes.byteLength }]);

    const adapter = adapterFor("threads")!;
    const input = {
      targetId: thread.targets[0].id,
      livemode: true,
      signal: new AbortController().signal,
      channel: {
        id: ch.id,
        provider: "threads",
        emulates: null,
        settings: {},
        secrets: await secretsOf(ch.id),
      },
      parts: [one!, two!, comment!].map((p, index) => ({ index, remote_id: p.id, remote_url: null })),
    };
    one!.insights = { views: 120, likes: 9, replies: 2, reposts: 1, quotes: 1 };
    expect(await adapter.engagement!(t.app, input)).toEqual({
      kind: "counts",
      counts: { likes: 9, reposts: 1, replies: 2, quotes: 1, views: 120 },
    });
    expect(await adapter.deletePublished!(t.app, input)).toEqual({ kind: "deleted" });
    expect([one!.deleted, two!.deleted, comment!.deleted]).toEqual([true, true, true]);
    expect(await adapter.engagement!(t.app, input)).toEqual({ kind: "deleted" });
  });

  test("documented failures: processing failed, an ended token, the rate limit, an error at publish (uncertain)", async () => {
    const ch = await connect("cy");
    const secrets = await secretsOf(ch.id);
    const settings = { user_id: th.userId("cy") };
    const clip: PublishMedia[] = [
      {
        id: "media_v",
        mime: "video/mp4",
        alt: null,
        kind: "video",
        link: () => `${BASE}/v1/media/none/content`,
      },
    ];
    // A link Threads could not fetch is the medium's fault.
    expect(
      (await publishDirect(t, "threads", { settings, secrets, parts: ["x"], media: clip })).outcome,
    ).toMatchObject({
      kind: "rejected",
      code: "media_rejected",
    });
    const bytes = makeVideo({ seconds: 2, width: 160, height: 120 });
    const v = await upload(t, a.liveKey, {
      brand: a.brandId,
      file: { bytes, name: "f.mp4", type: "video/mp4" },
    });
    th.failNextVideo = "Video processing failed: unsupported codec";
    const failed = await publishLive(t, a, ch.id, { body: "Broken clip" }, [v.body.id]);
    expect(failed.targets[0].status).toBe("failed");
    expect(failed.targets[0].error).toMatchObject({ code: "media_rejected" });
    expect(JSON.stringify(failed.targets[0].error)).toContain("unsupported codec");

    th.fail("rate_limited");
    expect((await publishDirect(t, "threads", { settings, secrets, parts: ["Limited"] })).outcome.kind).toBe(
      "rate_limited",
    );
    const before = th.posts.length;
    th.fail("server_error", 1, (q) => q.path.endsWith("/threads_publish"));
    expect((await publishDirect(t, "threads", { settings, secrets, parts: ["Maybe"] })).outcome.kind).toBe(
      "uncertain",
    );
    th.fail("server_error", 1, (q) => q.path.endsWith("/threads"));
    expect((await publishDirect(t, "threads", { settings, secrets, parts: ["Not yet"] })).outcome.kind).toBe(
      "transient",
    );
    expect(th.posts.length).toBe(before);
    th.invalidate("cy");
    const expired = await publishLive(t, a, ch.id, { body: "After expiry" });
    expect(expired.targets[0].status).not.toBe("published");
    expect((await t.request("GET", `/v1/channels/${ch.id}`, { key: a.liveKey })).body.status).toBe(
      "needs_reauth",
    );
  });

  test("stopped during the container wait: nothing is posted, and the next attempt posts once", async () => {
    const ch = await connect("dee");
    const secrets = await secretsOf(ch.id);
    const settings = { user_id: th.userId("dee") };
    const bytes = makeVideo({ seconds: 2, width: 160, height: 120 });
    const v = await upload(t, a.liveKey, {
      brand: a.brandId,
      file: { bytes, name: "w.mp4", type: "video/mp4" },
    });
    const link = await (async () => {
      const { signedMediaUrl, prepareMediaLinks } = await import("../../../src/domain/media/link.ts");
      await prepareMediaLinks(t.app);
      return signedMediaUrl(t.app, v.body.id, "threads")!;
    })();
    const media: PublishMedia[] = [
      { id: v.body.id, mime: "video/mp4", alt: null, kind: "video", link: () => link },
    ];
    th.processingPolls = 1000;
    const stop = new AbortController();
    const polled = () => th.requests.filter((q) => q.query.fields === "id,status,error_message").length;
    const seen = polled();
    const running = (async () => {
      const { adapterFor: af } = await import("../../../src/platforms/adapter-registry.ts");
      return af("threads")!.publish(t.app, {
        targetId: "ptgt_wait",
        postId: "post_wait",
        livemode: true,
        attempt: 1,
        channel: { id: ch.id, provider: "threads", emulates: null, settings, secrets },
        parts: [{ index: 0, text: "Waited for", media }],
        done: [],
        metadata: {},
        signal: stop.signal,
        onPartPublished: async () => {},
      });
    })();
    while (polled() === seen) await Bun.sleep(10);
    // The publish's deadline passes (or its worker stops) while Threads is still processing.
    stop.abort();
    const outcome = await running;
    expect(outcome.kind).toBe("transient");
    const containers = th.containers.length;
    const posts = th.posts.length;
    th.processingPolls = 1;
    const again = await publishDirect(t, "threads", { settings, secrets, parts: ["Waited for"], media });
    expect(again.outcome.kind).toBe("published");
    // A new container, one post: the first container was never published.
    expect(th.containers.length).toBe(containers + 1);
    expect(th.posts.length).toBe(posts + 1);
    expect(th.posts.filter((p) => p.text === "Waited for")).toHaveLength(1);
  });
});
