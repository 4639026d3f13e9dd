// Never twice on the sign-in networks, with real processes, on both databases: a publish worker is killed (SIGKILL)
// - while X, LinkedIn and Pinterest have each taken the post but not yet answered (the X channel's token expiring
//   within 5 minutes, so the worker renewed it first against the real authorization server): after reclaim a new
//   worker finishes; X, which svc can look the post up on, is looked for and found, LinkedIn and Pinterest wait
//   for a person (worker_lost). Each network then holds exactly one post, and the X channel's stored refresh
//   token is the rotated one (it renews again);
// - while the token request of the renewal before publishing is held: nothing reached X and the refresh token was
//   not used; after reclaim the post goes out once and the token is renewed once.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Subprocess } from "bun";
import { createApp as createSvcApp } from "../../../src/app/context.ts";
import { silentLogger } from "../../../src/app/log.ts";
import { openDatabase } from "../../../src/db/index.ts";
import { createApp } from "../../../src/domain/apps/create.ts";
import { openSecrets } from "../../../src/domain/channels/fields.ts";
import { renewToken } from "../../../src/domain/connect/renew.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { reclaimExpired } from "../../../src/queue/tasks/publish-reclaim.ts";
import type { TestApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, upload } from "../../helpers/media.ts";
import { networkApp } from "../../helpers/networks.ts";
import { type OAuthServer, oauthServer } from "../../helpers/oauth-server.ts";
import { personActor } from "../../helpers/person.ts";
import { signedInChannel } from "../../helpers/signin.ts";
import { type LinkedInStandIn, startLinkedIn } from "../../stand-ins/linkedin.ts";
import { type PinterestStandIn, startPinterest } from "../../stand-ins/pinterest.ts";
import { expectClean } from "../../stand-ins/server.ts";
import { validationNote } from "../../stand-ins/spec.ts";
import { startX, type XStandIn } from "../../stand-ins/x.ts";

validationNote();
setDefaultTimeout(180_000);

const CLIENT = { clientId: "crash-client", clientSecret: "crash-secret" };
const DAY = 24 * 3600_000;

/** A proxy in front of a token endpoint that can hold requests unforwarded until the client hangs up. */
function holdingProxy(target: string) {
  const state = { hold: false, held: 0 };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      if (state.hold) {
        state.held++;
        await new Promise((r) => req.signal.addEventListener("abort", r));
        return new Response(null, { status: 499 });
      }
      const url = new URL(req.url);
      const headers = new Headers(req.headers);
      headers.delete("host");
      return fetch(`${target}${url.pathname}${url.search}`, {
        method: req.method,
        headers,
        body: req.method === "GET" ? undefined : await req.arrayBuffer(),
      });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, state, stop: () => server.stop(true) };
}

describeEachDialect("never twice on the sign-in networks", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let xAuth: OAuthServer;
  let liAuth: OAuthServer;
  let pinAuth: OAuthServer;
  let x: XStandIn;
  let li: LinkedInStandIn;
  let pins: PinterestStandIn;
  let xToken: ReturnType<typeof holdingProxy>;
  let env: Record<string, string>;
  const apps: Record<string, string> = {};

  beforeAll(async () => {
    xAuth = await oauthServer();
    liAuth = await oauthServer({
      routes: { authorization: "/oauth/v2/authorization", token: "/oauth/v2/accessToken" },
      scopes: ["openid", "profile", "w_member_social"],
      pkce: false,
      tokenEndpointAuthMethod: "client_secret_post",
      accessTokenTtl: 60 * 24 * 3600,
    });
    pinAuth = await oauthServer({
      routes: { authorization: "/oauth/", token: "/v5/oauth/token" },
      scopes: ["boards:read", "pins:read", "pins:write", "user_accounts:read"],
      pkce: false,
      accessTokenTtl: 30 * 24 * 3600,
    });
    await xAuth.start({ ...CLIENT, redirectUri: "http://localhost:8080/connect/x/callback" });
    await liAuth.start({ ...CLIENT, redirectUri: "http://localhost:8080/connect/linkedin/callback" });
    await pinAuth.start({ ...CLIENT, redirectUri: "http://localhost:8080/connect/pinterest/callback" });
    x = await startX(xAuth);
    li = startLinkedIn(liAuth);
    pins = await startPinterest(pinAuth);
    xToken = holdingProxy(xAuth.url);
    const origins = {
      x: x.url,
      "x.auth": xAuth.url,
      "x.token": xToken.url,
      linkedin: li.url,
      pinterest: pins.url,
      "pinterest.auth": pinAuth.url,
      "pinterest.token": pinAuth.url,
    };
    env = {
      SVC_ALLOW_PRIVATE_NETWORKS: "true",
      SVC_PROVIDER_ORIGINS: Object.entries(origins)
        .map(([k, v]) => `${k}=${v}`)
        .join(","),
    };
    t = await networkApp(dialect, origins);
    a = await tenant(t.app);
    const actor = await personActor(t.app, a.userId, a.orgId, true);
    for (const provider of ["x", "linkedin", "pinterest"])
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
    for (const s of [x, li, pins]) s.stop();
    xToken.stop();
    for (const s of [xAuth, liAuth, pinAuth]) await s.close();
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

  const xChannel = async (account: string, expiresInMs: number) => {
    const u = x.userOf(account);
    return signedInChannel(t, a, xAuth, {
      appId: apps.x!,
      clientId: CLIENT.clientId,
      account,
      expiresInMs,
      shown: { key: u.id, handle: `@${u.username}`, settings: { user_id: u.id, username: u.username } },
    });
  };
  const targets = (postId: string) =>
    t.app.db
      .selectFrom("post_targets")
      .select(["provider", "status", "error_code", "permalink"])
      .where("post_id", "=", postId)
      .execute();
  const secretsOf = async (id: string) =>
    openSecrets(
      t.app,
      await t.app.db.selectFrom("channels").selectAll().where("id", "=", id).executeTakeFirstOrThrow(),
    );

  /** Reclaims the dead worker's targets as if the 3-minute lease had passed, then makes any retry due now. */
  async function reclaim(postId: string, expected: number) {
    const later = createSvcApp(t.app.config, {
      database: openDatabase(t.dbUrl),
      log: silentLogger,
      clock: new FakeClock(Date.now() + 4 * 60_000),
    });
    expect(await reclaimExpired(later)).toBe(expected);
    await later.close();
    await t.app.db
      .updateTable("post_targets")
      .set({ next_attempt_at: Date.now() })
      .where("post_id", "=", postId)
      .where("status", "=", "queued")
      .execute();
  }

  async function finish(postId: string) {
    const w = await spawnWorker();
    for (let i = 0; i < 2400; i++) {
      if ((await targets(postId)).every((r) => r.status !== "queued" && r.status !== "publishing")) break;
      await Bun.sleep(25);
    }
    w.kill("SIGTERM");
    await w.exited;
  }

  test("SIGKILL while X (renewed first), LinkedIn and Pinterest hold their answers: one post each, the rotated refresh token kept", async () => {
    const xc = await xChannel("crashx", 3 * 60_000);
    const member = li.memberOf("crashli");
    const lic = await signedInChannel(t, a, liAuth, {
      provider: "linkedin",
      appId: apps.linkedin!,
      clientId: CLIENT.clientId,
      account: "crashli",
      expiresInMs: 60 * DAY,
      shown: { key: member, settings: { author: `urn:li:person:${member}`, api_version: "202506" } },
    });
    const [board] = pins.addBoards("crashpin", ["Crash"]);
    const pc = await signedInChannel(t, a, pinAuth, {
      provider: "pinterest",
      appId: apps.pinterest!,
      clientId: CLIENT.clientId,
      account: "crashpin",
      expiresInMs: 30 * DAY,
      shown: {
        key: board!.id,
        display_name: "Crash",
        settings: { board_id: board!.id, username: "crashpin" },
      },
    });
    const before = await secretsOf(xc.id);
    // A pin needs its image; the same image goes to X and LinkedIn.
    const m = await upload(t, a.liveKey, {
      brand: a.brandId,
      alt: "A crash test",
      file: { bytes: await jpeg(600, 400), name: "c.jpg", type: "image/jpeg" },
    });
    expect(m.status).toBe(201);
    // Each network stores what it is sent at once; the post's create holds its answer for a minute.
    const slow = { slowMs: 60_000 };
    x.fail(slow, 1, (req) => req.method === "POST" && req.path === "/2/tweets");
    li.fail(slow, 1, (req) => req.method === "POST" && req.path === "/rest/posts");
    pins.fail(slow, 1, (req) => req.method === "POST" && req.path === "/pins");
    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        content: { body: "Once only https://example.com/once" },
        channels: [xc.id, lic.id, pc.id],
        media: [m.body.id],
      },
    });
    expect(r.status).toBe(201);
    const counts = () => ({
      x: x.posts.filter((p) => p.author === x.userOf("crashx").id).length,
      linkedin: li.posts.filter((p) => p.author === `urn:li:person:${member}`).length,
      pinterest: pins.pins.filter((p) => p.board_id === board!.id).length,
    });
    const w = await spawnWorker();
    for (let i = 0; i < 2400 && Object.values(counts()).some((n) => n === 0); i++) await Bun.sleep(25);
    expect(counts()).toEqual({ x: 1, linkedin: 1, pinterest: 1 });
    w.kill("SIGKILL");
    await w.exited;
    // The renewal before publishing was stored before X was called.
    const renewed = await secretsOf(xc.id);
    expect(renewed.refresh_token).not.toBe(before.refresh_token);
    expect(await xAuth.accountOf(renewed.access_token!)).toBe("crashx");

    await reclaim(r.body.id, 3);
    const reclaimed = Object.fromEntries((await targets(r.body.id)).map((x) => [x.provider, x.status]));
    expect(reclaimed).toEqual({ x: "queued", linkedin: "needs_attention", pinterest: "needs_attention" });
    await finish(r.body.id);
    const done = Object.fromEntries((await targets(r.body.id)).map((x) => [x.provider, x]));
    const post = x.posts.find((p) => p.author === x.userOf("crashx").id)!;
    // X: looked for and found; the one post it holds is the target's.
    expect(done.x).toMatchObject({ status: "published" });
    expect(done.x!.permalink).toContain(post.id);
    for (const p of ["linkedin", "pinterest"])
      expect([p, done[p]!.status, done[p]!.error_code]).toEqual([p, "needs_attention", "worker_lost"]);
    expect(counts()).toEqual({ x: 1, linkedin: 1, pinterest: 1 });
    // The stored refresh token is the live one: it renews once more.
    expect((await renewToken(t.app, xc.id, 7 * DAY)).kind).toBe("renewed");
    for (const s of [x, li, pins]) expectClean(s);
  });

  test("SIGKILL while the renewal before publishing waits on the token endpoint: nothing reached X, then the post goes out once and the token is renewed once", async () => {
    const xc = await xChannel("crashrenew", 3 * 60_000);
    const before = await secretsOf(xc.id);
    const granted = xAuth.tokenAnswers.granted;
    xToken.state.hold = true;
    xToken.state.held = 0;
    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: { brand: a.brandId, content: { body: "Renewed, then once" }, channels: [xc.id] },
    });
    expect(r.status).toBe(201);
    const w = await spawnWorker();
    for (let i = 0; i < 2400 && xToken.state.held === 0; i++) await Bun.sleep(25);
    expect(xToken.state.held).toBe(1);
    w.kill("SIGKILL");
    await w.exited;
    xToken.state.hold = false;
    const mine = () => x.posts.filter((p) => p.author === x.userOf("crashrenew").id);
    expect(mine()).toHaveLength(0);
    expect(xAuth.tokenAnswers.granted).toBe(granted);
    expect(await secretsOf(xc.id)).toEqual(before);
    // The dead worker's claim on the renewal lapses with its lease (2 minutes), as the target's does (3).
    await t.app.db
      .updateTable("channel_grants")
      .set({ renew_claimed_until: Date.now() - 1 })
      .where("channel_id", "=", xc.id)
      .execute();
    await reclaim(r.body.id, 1);
    await finish(r.body.id);
    const [target] = await targets(r.body.id);
    expect([target!.status, target!.error_code]).toEqual(["published", null]);
    expect(mine()).toHaveLength(1);
    expect(xAuth.tokenAnswers.granted).toBe(granted + 1);
    const after = await secretsOf(xc.id);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(await xAuth.accountOf(after.access_token!)).toBe("crashrenew");
    expectClean(x);
  });
});
