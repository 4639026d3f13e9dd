// Never twice while a network processes a video, with real processes, on both databases: a publish worker uploads
// one live video post to YouTube and TikTok (streamed from the local S3 server), and while both networks are still
// processing it (the worker polling their status, renewing its lease) a text post due meanwhile still goes out
// from the same worker; then the worker is killed (SIGKILL). After reclaim a new worker finishes: each network
// holds exactly one upload, the one saved as the target's part before the wait, and nothing was uploaded again.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Subprocess } from "bun";
import { createApp as createSvcApp } from "../../../src/app/context.ts";
import { silentLogger } from "../../../src/app/log.ts";
import { openDatabase } from "../../../src/db/index.ts";
import { createApp } from "../../../src/domain/apps/create.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { signInSpec } from "../../../src/platforms/signin/specs.ts";
import { reclaimExpired } from "../../../src/queue/tasks/publish-reclaim.ts";
import type { TestApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { liveVideo, networkApp } from "../../helpers/networks.ts";
import { type OAuthServer, oauthServer } from "../../helpers/oauth-server.ts";
import { personActor } from "../../helpers/person.ts";
import { type LocalS3, localS3 } from "../../helpers/s3.ts";
import { signedInChannel } from "../../helpers/signin.ts";
import { sha256 } from "../../helpers/video.ts";
import { expectClean } from "../../stand-ins/server.ts";
import { validationNote } from "../../stand-ins/spec.ts";
import { startTikTok, type TikTokStandIn } from "../../stand-ins/tiktok.ts";
import { startYouTube, type YouTubeStandIn } from "../../stand-ins/youtube.ts";

validationNote();
setDefaultTimeout(180_000);

const CLIENT = { clientId: "video-crash-client", clientSecret: "video-crash-secret" };

describeEachDialect("never twice during a video's processing wait", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let ytAuth: OAuthServer;
  let ttAuth: OAuthServer;
  let yt: YouTubeStandIn;
  let tt: TikTokStandIn;
  let s3: LocalS3;
  let env: Record<string, string>;
  const apps: Record<string, string> = {};

  beforeAll(async () => {
    ytAuth = await oauthServer({
      routes: { authorization: "/o/oauth2/v2/auth", token: "/token" },
      // What the YouTube sign-in asks for: the stand-in checks each call's scopes as Google does.
      scopes: signInSpec("youtube")!.scopes,
      tokenEndpointAuthMethod: "client_secret_post",
      accessTokenTtl: 3600,
    });
    ttAuth = await oauthServer({
      routes: { authorization: "/v2/auth/authorize/", token: "/v2/oauth/token/" },
      scopes: ["user.info.basic", "video.publish", "video.upload"],
      tokenEndpointAuthMethod: "client_secret_post",
      accessTokenTtl: 24 * 3600,
    });
    await ytAuth.start({ ...CLIENT, redirectUri: "http://localhost:8080/connect/youtube/callback" });
    await ttAuth.start({ ...CLIENT, redirectUri: "http://localhost:8080/connect/tiktok/callback" });
    yt = await startYouTube(ytAuth);
    tt = await startTikTok(ttAuth);
    s3 = await localS3();
    const origins = {
      youtube: yt.url,
      "youtube.token": ytAuth.url,
      tiktok: tt.url,
      "tiktok.token": ttAuth.url,
    };
    env = {
      ...s3.env,
      SVC_ALLOW_PRIVATE_NETWORKS: "true",
      SVC_PROVIDER_ORIGINS: Object.entries(origins)
        .map(([k, v]) => `${k}=${v}`)
        .join(","),
    };
    t = await networkApp(dialect, origins, s3.env);
    a = await tenant(t.app);
    const actor = await personActor(t.app, a.userId, a.orgId, true);
    for (const provider of ["youtube", "tiktok"])
      apps[provider] = (
        await createApp(t.app, actor, {
          provider,
          name: provider,
          client_id: CLIENT.clientId,
          client_secret: CLIENT.clientSecret,
        })
      ).id;
  });
  afterAll(async () => {
    await t.close();
    yt.stop();
    tt.stop();
    await ytAuth.close();
    await ttAuth.close();
    await s3.close();
  });

  async function spawnWorker(): Promise<Subprocess<"ignore", "pipe", "inherit">> {
    const proc = Bun.spawn(["bun", "test/e2e/network-worker.ts"], {
      env: {
        ...process.env,
        ...env,
        SVC_DATABASE_URL: t.dbUrl,
        SVC_MASTER_KEYS: t.masterKeys,
        SVC_BASE_URL: "http://localhost:8080",
        SVC_LOG_LEVEL: "error",
      },
      stdout: "pipe",
      stderr: "inherit",
    });
    const reader = proc.stdout.getReader();
    const { value } = await reader.read();
    reader.releaseLock();
    if (!new TextDecoder().decode(value).includes("ready")) throw new Error("worker did not start");
    return proc;
  }

  const targets = (postId: string) =>
    t.app.db
      .selectFrom("post_targets")
      .select(["provider", "status", "error_code", "permalink", "remote_parts"])
      .where("post_id", "=", postId)
      .execute();

  test("SIGKILL while YouTube and TikTok process the video: a text post still went out meanwhile; after reclaim each network holds one upload", async () => {
    const ytc = await signedInChannel(t, a, ytAuth, {
      provider: "youtube",
      appId: apps.youtube!,
      clientId: CLIENT.clientId,
      account: "crashyt",
      expiresInMs: 3600_000,
      shown: {
        key: yt.channelOf("crashyt"),
        settings: { channel_id: yt.channelOf("crashyt"), privacy: "private" },
      },
    });
    const ttc = await signedInChannel(t, a, ttAuth, {
      provider: "tiktok",
      appId: apps.tiktok!,
      clientId: CLIENT.clientId,
      account: "crashtt",
      expiresInMs: 24 * 3600_000,
      shown: {
        key: tt.openIdOf("crashtt"),
        settings: { open_id: tt.openIdOf("crashtt"), privacy: "SELF_ONLY" },
      },
    });
    const sandbox = await t.request("POST", "/v1/channels", {
      key: a.testKey,
      body: { brand: a.brandId, provider: "sandbox" },
    });
    expect(sandbox.status).toBe(201);
    const video = await liveVideo(t, a, "Processed slowly");
    // Both networks keep the video processing until the test lets them finish.
    yt.processingLooks = 10_000;
    tt.processingLooks = 10_000;
    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        content: { body: "Slow to process\nA video both networks take their time with." },
        channels: [ytc.id, ttc.id],
        media: [video.id],
      },
    });
    expect(r.status).toBe(201);
    const w = await spawnWorker();
    // Wait until both uploads are whole and saved as the targets' parts: the worker is in the processing wait.
    const saved = async () =>
      (await targets(r.body.id)).filter((x) => x.status === "publishing" && x.remote_parts !== "[]").length;
    for (let i = 0; i < 2400 && (await saved()) < 2; i++) await Bun.sleep(25);
    expect(await saved()).toBe(2);
    expect([yt.videos.length, tt.posts.filter((p) => p.sha256 !== null).length]).toEqual([1, 1]);
    // Meanwhile a text post is due: the worker publishes it while both videos wait.
    const text = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: {
        brand: a.brandId,
        content: { body: "Goes out while the videos process" },
        channels: [sandbox.body.id],
      },
    });
    expect(text.status).toBe(201);
    let textStatus = "";
    for (let i = 0; i < 400 && textStatus !== "published"; i++) {
      await Bun.sleep(25);
      textStatus = (await t.request("GET", `/v1/posts/${text.body.id}`, { key: a.testKey })).body.status;
    }
    expect(textStatus).toBe("published");
    // Still waiting on both networks: their status was asked, the targets are still publishing.
    expect((await targets(r.body.id)).map((x) => x.status)).toEqual(["publishing", "publishing"]);
    w.kill("SIGKILL");
    await w.exited;

    // The lease lapses: the reclaimer queues both again (each network can be looked at for the saved upload).
    const later = createSvcApp(t.app.config, {
      database: openDatabase(t.dbUrl),
      log: silentLogger,
      clock: new FakeClock(Date.now() + 4 * 60_000),
    });
    expect(await reclaimExpired(later)).toBe(2);
    await later.close();
    await t.app.db
      .updateTable("post_targets")
      .set({ next_attempt_at: Date.now() })
      .where("post_id", "=", r.body.id)
      .where("status", "=", "queued")
      .execute();
    // The networks finish processing.
    yt.videos[0]!.states = ["processed"];
    for (const p of tt.posts) p.states = ["PUBLISH_COMPLETE"];
    const w2 = await spawnWorker();
    for (let i = 0; i < 2400; i++) {
      if ((await targets(r.body.id)).every((x) => x.status !== "queued" && x.status !== "publishing")) break;
      await Bun.sleep(25);
    }
    w2.kill("SIGTERM");
    await w2.exited;
    const done = Object.fromEntries((await targets(r.body.id)).map((x) => [x.provider, x]));
    expect(done.youtube).toMatchObject({
      status: "published",
      permalink: `https://www.youtube.com/watch?v=${yt.videos[0]!.id}`,
    });
    expect(done.tiktok!.status).toBe("published");
    expect(JSON.parse(done.tiktok!.remote_parts)[0].remote_id).toBe(tt.posts[0]!.publishId);
    // One upload each, whole: nothing was sent again.
    expect([yt.videos.length, yt.sessions.size, tt.posts.length]).toEqual([1, 1, 1]);
    expect([yt.videos[0]!.sha256, tt.posts[0]!.sha256]).toEqual([sha256(video.bytes), sha256(video.bytes)]);
    for (const s of [yt, tt]) expectClean(s);
  });
});
