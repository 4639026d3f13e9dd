// Facebook Pages and Instagram professional accounts against a stateful stand-in of Meta's Graph API whose every
// request and answer is checked against Meta's node descriptions: the whole sign-in (the Login dialog, the code with
// PKCE, the long-lived exchange, the Pages with their own tokens, sealed per channel), posts of each kind through
// the real publish worker, Instagram's containers fetched from signed links (a PNG converted to JPEG), the status
// wait, engagement, deletion, and each documented failure with its classification.
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApp as createDevApp } from "../../../src/domain/apps/create.ts";
import { openSecrets } from "../../../src/domain/channels/fields.ts";
import { finishSignIn } from "../../../src/domain/connect/callback.ts";
import { chooseAccounts, pendingSignIn } from "../../../src/domain/connect/choose.ts";
import { startSignIn } from "../../../src/domain/connect/start.ts";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import type { TestApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, png, upload } from "../../helpers/media.ts";
import { drain, networkApp, publishDirect, publishLive } from "../../helpers/networks.ts";
import { personActor } from "../../helpers/person.ts";
import { type LocalS3, localS3 } from "../../helpers/s3.ts";
import { makeVideo } from "../../helpers/video.ts";
import { type MetaStandIn, startMeta } from "../../stand-ins/meta.ts";
import { expectClean } from "../../stand-ins/server.ts";
import { validationNote } from "../../stand-ins/spec.ts";

validationNote();
setDefaultTimeout(30_000);

const BASE = "https://svc.example.org";
const CLIENT = { client_id: "1234567890", client_secret: "meta-app-secret" };

describeEachDialect("Facebook Pages and Instagram", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let meta: MetaStandIn;
  let s3: LocalS3;
  beforeAll(async () => {
    s3 = await localS3();
    meta = startMeta({
      // Instagram fetches svc's signed links: they lead to this install's own server, in process.
      fetchMedia: async (url) => t.http.handle(new Request(url.replace(BASE, "http://localhost"))),
    });
    const origins: Record<string, string> = {};
    for (const p of ["facebook", "instagram"])
      Object.assign(origins, { [p]: meta.url, [`${p}.auth`]: meta.url, [`${p}.token`]: meta.url });
    t = await networkApp(dialect, origins, { SVC_BASE_URL: BASE, ...s3.env });
    a = await tenant(t.app);
    const actor = await personActor(t.app, a.userId, a.orgId, true);
    // The org's one Meta app, registered for each of the two networks it signs in to.
    for (const provider of ["facebook", "instagram"]) {
      await createDevApp(t.app, actor, { provider, name: `Our Meta app (${provider})`, ...CLIENT });
      meta.registerApp(CLIENT.client_id, CLIENT.client_secret, `${BASE}/connect/${provider}/callback`);
    }
  });
  afterEach(() => expectClean(meta));
  afterAll(async () => {
    await t.close();
    await s3.close();
    meta.stop();
  });

  /** The whole sign-in as the browser makes it: svc's link, Meta's dialog, the callback. */
  async function signIn(provider: string, person: string | null, on = { t, a }) {
    const actor = await personActor(on.t.app, on.a.userId, on.a.orgId, true);
    meta.signInAs = person;
    const { url } = await startSignIn(on.t.app, actor, { provider, brand: on.a.brandId });
    const res = await fetch(url, { redirect: "manual" });
    expect(res.status).toBe(302);
    return finishSignIn(on.t.app, on.a.userId, provider, new URL(res.headers.get("location")!));
  }
  async function connect(provider: string, person: string, pick: (name: string) => boolean, on = { t, a }) {
    const { id } = await signIn(provider, person, on);
    const actor = await personActor(on.t.app, on.a.userId, on.a.orgId, true);
    const pending = await pendingSignIn(on.t.app, actor, id);
    const keys = pending.accounts.filter((x) => pick(x.display_name ?? "")).map((x) => x.key);
    return { pending, channels: await chooseAccounts(on.t.app, actor, id, keys) };
  }
  const secretsOf = async (channelId: string) => {
    const row = await t.app.db
      .selectFrom("channels")
      .selectAll()
      .where("id", "=", channelId)
      .executeTakeFirstOrThrow();
    return openSecrets(t.app, row);
  };

  test("signing in through the Meta app: PKCE, the long-lived exchange, each Page one may post to offered, each channel keeps its own Page token", async () => {
    const bakery = meta.addPage("alice", "Alice's Bakery");
    const cafe = meta.addPage("alice", "Alice's Café");
    meta.addPage("alice", "Moderated only", undefined, ["MODERATE"]);
    const { pending, channels } = await connect("facebook", "alice", (n) => n.startsWith("Alice"));
    expect(pending.accounts.map((x) => x.display_name).sort()).toEqual(["Alice's Bakery", "Alice's Café"]);
    // Page tokens never appear in what the person is shown.
    expect(JSON.stringify(pending)).not.toContain(bakery.token);
    expect(channels.map((c) => c.provider)).toEqual(["facebook", "facebook"]);
    const byName = Object.fromEntries(channels.map((c) => [c.display_name, c.id]));
    expect((await secretsOf(byName["Alice's Bakery"]!)).access_token).toBe(bakery.token);
    expect((await secretsOf(byName["Alice's Café"]!)).access_token).toBe(cafe.token);
    const row = await t.app.db
      .selectFrom("channels")
      .select("secrets")
      .where("id", "=", byName["Alice's Bakery"]!)
      .executeTakeFirstOrThrow();
    expect(row.secrets).not.toContain(bakery.token);
    // A Page token does not expire: nothing is ever renewed for these channels.
    const grant = await t.app.db
      .selectFrom("channel_grants")
      .selectAll()
      .where("channel_id", "=", byName["Alice's Bakery"]!)
      .executeTakeFirstOrThrow();
    expect(grant.token_expires_at).toBeNull();
    // The exchange sent the PKCE verifier, then swapped the short-lived token for a long-lived one.
    const exchanges = meta.requests.filter((r) => r.path === "/oauth/access_token");
    expect((exchanges.at(-2)!.body as Record<string, string>).code_verifier).toBeString();
    expect(exchanges.at(-1)!.query.grant_type).toBe("fb_exchange_token");
    // A code Facebook does not know (used already, or forged) is connect_failed.
    meta.signInAs = "alice";
    const { url } = await startSignIn(t.app, await personActor(t.app, a.userId, a.orgId, true), {
      provider: "facebook",
      brand: a.brandId,
    });
    const forged = new URL(`${BASE}/connect/facebook/callback`);
    forged.searchParams.set("code", "not-a-code");
    forged.searchParams.set("state", new URL(url).searchParams.get("state")!);
    await expect(finishSignIn(t.app, a.userId, "facebook", forged)).rejects.toMatchObject({
      code: "connect_failed",
    });
    // Declining on Facebook is connect_failed.
    await expect(signIn("facebook", null)).rejects.toMatchObject({ code: "connect_failed" });
  });

  test("Facebook posts through the worker: text with its link, one photo, several photos as one post; engagement; deletion", async () => {
    meta.addPage("bob", "Bob's Books");
    const { channels } = await connect("facebook", "bob", () => true);
    const ch = channels[0]!.id;
    const text = await publishLive(t, a, ch, { body: "New arrivals: https://example.com/new" });
    expect(text.status).toBe("published");
    const post = meta.posts.at(-1)!;
    expect([post.message, post.link]).toEqual([
      "New arrivals: https://example.com/new",
      "https://example.com/new",
    ]);
    const [page, id] = post.id.split("_");
    expect(text.targets[0].permalink).toBe(`https://www.facebook.com/${page}/posts/${id}`);

    const one = await upload(t, a.liveKey, {
      brand: a.brandId,
      alt: "A shelf",
      file: { bytes: await jpeg(400, 300), name: "s.jpg", type: "image/jpeg" },
    });
    const photo = await publishLive(t, a, ch, { body: "Our shelf" }, [one.body.id]);
    expect(photo.status).toBe("published");
    const p1 = meta.posts.at(-1)!;
    expect([p1.message, p1.photos.length]).toEqual(["Our shelf", 1]);
    expect(meta.photos.find((x) => x.id === p1.photos[0])!.alt).toBe("A shelf");

    const two = await upload(t, a.liveKey, {
      brand: a.brandId,
      file: { bytes: await jpeg(300, 300), name: "t.jpg", type: "image/jpeg" },
    });
    const album = await publishLive(t, a, ch, { body: "Two views" }, [one.body.id, two.body.id]);
    expect(album.status).toBe("published");
    const p2 = meta.posts.at(-1)!;
    expect([p2.message, p2.photos.length]).toEqual(["Two views", 2]);
    expect(p2.photos.every((pid) => meta.photos.find((x) => x.id === pid)!.published === false)).toBe(true);

    // A first comment is the Page's comment on its own post, right after it.
    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        channels: [ch],
        content: { body: "Sale today" },
        first_comment: "Details: https://example.com/sale",
      },
    });
    expect(r.status).toBe(201);
    await drain(t);
    const commented = (await t.request("GET", `/v1/posts/${r.body.id}`, { key: a.liveKey })).body;
    expect([commented.status, commented.targets[0].first_comment.status]).toEqual(["published", "published"]);
    const sale = meta.posts.at(-1)!;
    expect(meta.comments.at(-1)).toMatchObject({ on: sale.id, message: "Details: https://example.com/sale" });
    expect(commented.targets[0].first_comment.permalink).toStartWith(
      `${commented.targets[0].permalink}?comment_id=`,
    );

    // A video goes to the Page's videos, streamed from storage, with the text as its description.
    const clip = makeVideo({ seconds: 2, width: 320, height: 240 });
    const v = await upload(t, a.liveKey, {
      brand: a.brandId,
      file: { bytes: clip, name: "v.mp4", type: "video/mp4" },
    });
    const video = await publishLive(t, a, ch, { body: "Opening day" }, [v.body.id]);
    expect(video.status).toBe("published");
    const pv = meta.posts.at(-1)!;
    expect(pv.video).toEqual({ bytes: clip.byteLength, description: "Opening day" });
    expect(video.targets[0].permalink).toBe(`https://www.facebook.com/${pv.page}/videos/${pv.id}`);

    const adapter = adapterFor("facebook")!;
    const input = {
      targetId: album.targets[0].id,
      livemode: true,
      signal: new AbortController().signal,
      channel: {
        id: ch,
        provider: "facebook",
        emulates: null,
        settings: { page_id: p2.page },
        secrets: await secretsOf(ch),
      },
      parts: [{ index: 0, remote_id: p2.id, remote_url: album.targets[0].permalink }],
    };
    Object.assign(p2, { reactions: 14, comments: 3, shares: 2 });
    expect(await adapter.engagement!(t.app, input)).toEqual({
      kind: "counts",
      counts: { likes: 14, reposts: 2, replies: 3, quotes: 0, views: null },
    });
    expect(await adapter.deletePublished!(t.app, input)).toEqual({ kind: "deleted" });
    expect(p2.deleted).toBe(true);
    // Asking again is harmless, and a deleted post reads as deleted.
    expect(await adapter.deletePublished!(t.app, input)).toEqual({ kind: "deleted" });
    expect(await adapter.engagement!(t.app, input)).toEqual({ kind: "deleted" });
    const checked = await adapter.connect!(t.app, {
      livemode: true,
      settings: { page_id: p2.page },
      secrets: input.channel.secrets,
      signal: input.signal,
    });
    expect(checked).toMatchObject({ kind: "connected", account: { display_name: "Bob's Books" } });
  });

  test("Facebook's documented failures: an invalidated token, the Page's rate limit, a missing permission, a transient error, a lost answer", async () => {
    const page = meta.addPage("carol", "Carol's Cakes");
    const settings = { page_id: page.id };
    const secrets = { access_token: page.token };
    const go = (text: string) => publishDirect(t, "facebook", { settings, secrets, parts: [text] });
    meta.fail("rate_limited");
    // The business use case header says when access comes back (17 minutes).
    expect((await go("Limited")).outcome).toMatchObject({ kind: "rate_limited", retryAfterMs: 17 * 60_000 });
    meta.answerWith(403, {
      message: "(#200) The user hasn't authorized the application to perform this action",
      code: 200,
    });
    expect((await go("No right")).outcome).toMatchObject({ kind: "rejected", code: "unauthorized" });
    meta.fail("server_error");
    // The feed post itself may have been made: a person decides.
    expect((await go("Broken")).outcome.kind).toBe("uncertain");
    const before = meta.posts.length;
    meta.fail("reset_after_read");
    expect((await go("Cut off")).outcome.kind).toBe("uncertain");
    expect(meta.posts.length).toBe(before + 1);
    // An unpublished photo that fails posts nothing: trying again is safe.
    const bytes = await jpeg(200, 200);
    const media = [1, 2].map((i) => ({
      id: `media_${i}`,
      mime: "image/jpeg",
      alt: null,
      kind: "image" as const,
      read: async () => bytes,
    }));
    meta.fail("server_error", 1, (r) => r.path.endsWith("/photos"));
    expect(
      (await publishDirect(t, "facebook", { settings, secrets, parts: ["Album"], media })).outcome.kind,
    ).toBe("transient");
    meta.invalidate("carol");
    expect((await go("Expired")).outcome.kind).toBe("auth_revoked");
    // The stand-in refuses what Meta's Page node does not describe, as the Graph API would.
    const odd = await fetch(`${meta.url}/v25.0/${page.id}/feed`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "x", colour: "blue", published: "maybe" }),
    });
    expect(odd.status).toBe(400);
    expect(meta.problems.splice(0)).toEqual([
      expect.stringContaining("colour: Page POST feed takes no such param"),
      expect.stringContaining("published: expected a bool"),
    ]);
  });

  test("an expired Page token through the worker: the channel needs a new sign-in", async () => {
    meta.addPage("dave", "Dave's Deli");
    const { channels } = await connect("facebook", "dave", () => true);
    meta.invalidate("dave");
    const post = await publishLive(t, a, channels[0]!.id, { body: "After the password change" });
    expect(post.targets[0].status).not.toBe("published");
    const ch = await t.request("GET", `/v1/channels/${channels[0]!.id}`, { key: a.liveKey });
    expect(ch.body.status).toBe("needs_reauth");
  });

  describe("Instagram", () => {
    test("the sign-in offers the professional accounts linked to the person's Pages, each with its Page's token", async () => {
      const linked = meta.addPage("erin", "Erin's Studio", "erinstudio");
      meta.addPage("erin", "No Instagram here");
      const { pending, channels } = await connect("instagram", "erin", () => true);
      expect(pending.accounts.map((x) => [x.handle, x.settings])).toEqual([
        ["@erinstudio", { ig_user_id: linked.instagram!.id, page_id: linked.id, username: "erinstudio" }],
      ]);
      expect(channels[0]!.provider).toBe("instagram");
      expect((await secretsOf(channels[0]!.id)).access_token).toBe(linked.token);
    });

    test("one image, a PNG converted to JPEG when Instagram fetches it, a carousel, a reel after its processing; engagement and deletion", async () => {
      meta.addPage("finn", "Finn's Photos", "finnphotos");
      const { channels } = await connect("instagram", "finn", () => true);
      const ch = channels[0]!.id;
      const a1 = await upload(t, a.liveKey, {
        brand: a.brandId,
        alt: "Sunrise",
        file: { bytes: await jpeg(800, 800), name: "a.jpg", type: "image/jpeg" },
      });
      const single = await publishLive(t, a, ch, { body: "Sunrise #nofilter" }, [a1.body.id]);
      expect(single.status).toBe("published");
      const m1 = meta.media.at(-1)!;
      expect([m1.media_type, m1.caption]).toEqual(["IMAGE", "Sunrise #nofilter"]);
      expect(single.targets[0].permalink).toBe(`https://www.instagram.com/p/${m1.shortcode}/`);

      const pngUp = await upload(t, a.liveKey, {
        brand: a.brandId,
        file: { bytes: await png(600, 600), name: "p.png", type: "image/png" },
      });
      const converted = await publishLive(t, a, ch, { body: "From a PNG" }, [pngUp.body.id]);
      expect(converted.status).toBe("published");
      const c1 = meta.containers.find((c) => c.id === meta.media.at(-1)!.container)!;
      expect(c1.fetched!.type).toBe("image/jpeg");

      // A first comment is the account's comment on its own media.
      const r = await t.request("POST", "/v1/posts", {
        key: a.liveKey,
        body: {
          brand: a.brandId,
          channels: [ch],
          content: { body: "Caption" },
          media: [a1.body.id],
          first_comment: "#sunrise #morning",
        },
      });
      expect(r.status).toBe(201);
      await drain(t);
      const commented = (await t.request("GET", `/v1/posts/${r.body.id}`, { key: a.liveKey })).body;
      expect([commented.status, commented.targets[0].first_comment.status]).toEqual([
        "published",
        "published",
      ]);
      expect(meta.comments.at(-1)).toMatchObject({ on: meta.media.at(-1)!.id, message: "#sunrise #morning" });

      const carousel = await publishLive(t, a, ch, { body: "Three at once" }, [a1.body.id, pngUp.body.id]);
      expect(carousel.status).toBe("published");
      const m3 = meta.media.at(-1)!;
      expect([m3.media_type, m3.children]).toEqual(["CAROUSEL_ALBUM", 2]);

      const adapter = adapterFor("instagram")!;
      const input = {
        targetId: carousel.targets[0].id,
        livemode: true,
        signal: new AbortController().signal,
        channel: {
          id: ch,
          provider: "instagram",
          emulates: null,
          settings: {},
          secrets: await secretsOf(ch),
        },
        parts: [{ index: 0, remote_id: m3.id, remote_url: carousel.targets[0].permalink }],
      };
      Object.assign(m3, { like_count: 40, comments_count: 5 });
      expect(await adapter.engagement!(t.app, input)).toEqual({
        kind: "counts",
        counts: { likes: 40, reposts: 0, replies: 5, quotes: 0, views: null },
      });
      expect(await adapter.deletePublished!(t.app, input)).toEqual({ kind: "deleted" });
      expect(await adapter.engagement!(t.app, input)).toEqual({ kind: "deleted" });
    });

    test("a reel waits while Instagram processes it, polling the container; a failed processing fails the medium", async () => {
      meta.addPage("gus", "Gus Films", "gusfilms");
      const { channels } = await connect("instagram", "gus", () => true);
      const ch = channels[0]!.id;
      // Instagram takes reels of 3 seconds or more.
      const bytes = makeVideo({ seconds: 4, width: 320, height: 240 });
      const up = await upload(t, a.liveKey, {
        brand: a.brandId,
        file: { bytes, name: "reel.mp4", type: "video/mp4" },
      });
      expect(up.status).toBe(201);
      const clip = { id: up.body.id as string, bytes };
      meta.processingPolls = 2;
      const polls = () =>
        meta.requests.filter((r) => r.method === "GET" && r.query.fields?.includes("status_code")).length;
      const before = polls();
      const reel = await publishLive(t, a, ch, { body: "Behind the scenes" }, [clip.id]);
      expect(reel.status).toBe("published");
      const m = meta.media.at(-1)!;
      expect([m.media_type, m.caption]).toEqual(["VIDEO", "Behind the scenes"]);
      const c = meta.containers.find((x) => x.id === m.container)!;
      // Instagram fetched the whole video from the signed link, and was asked until it had processed it.
      expect([c.media_type, c.fetched]).toEqual([
        "REELS",
        { type: "video/mp4", bytes: clip.bytes.byteLength },
      ]);
      expect(polls() - before).toBeGreaterThanOrEqual(2);

      meta.failNextVideo = "ERROR: Video processing failed (2207076)";
      const failed = await publishLive(t, a, ch, { body: "This one fails" }, [clip.id]);
      expect(failed.targets[0].status).toBe("failed");
      expect(failed.targets[0].error).toMatchObject({ code: "media_rejected" });
      expect(JSON.stringify(failed.targets[0].error)).toContain("Video processing failed");
    });

    test("a link Instagram could not fetch is the medium's fault: media_rejected, nothing posted", async () => {
      const page = meta.addPage("kim", "Kim Knits", "kimknits");
      const media = [
        {
          id: "media_k",
          mime: "image/jpeg",
          alt: null,
          kind: "image" as const,
          link: () => `${BASE}/v1/media/media_gone/content?expires=1&for=instagram&signature=x`,
        },
      ];
      const published = meta.media.length;
      const out = await publishDirect(t, "instagram", {
        settings: { ig_user_id: page.instagram!.id },
        secrets: { access_token: page.token },
        parts: ["Gone"],
        media,
      });
      expect(out.outcome).toMatchObject({ kind: "rejected", code: "media_rejected" });
      expect(out.outcome.kind === "rejected" && out.outcome.message).toContain("could not be fetched");
      expect(meta.media.length).toBe(published);
    });

    test("Instagram's documented failures: media required, the publishing limit, an invalidated token", async () => {
      const page = meta.addPage("hana", "Hana Home", "hanahome");
      const settings = { ig_user_id: page.instagram!.id };
      const secrets = { access_token: page.token };
      expect(
        (await publishDirect(t, "instagram", { settings, secrets, parts: ["Text only"] })).outcome,
      ).toMatchObject({
        kind: "rejected",
        code: "media_required",
      });
      const up = await upload(t, a.liveKey, {
        brand: a.brandId,
        file: { bytes: await jpeg(500, 500), name: "h.jpg", type: "image/jpeg" },
      });
      const { channels } = await connect("instagram", "hana", () => true);
      meta.answerWith(
        400,
        {
          message: "Application request limit reached",
          code: 9,
          error_subcode: 2207042,
          error_user_msg: "You have reached the maximum number of posts that is allowed for the API.",
        },
        (r) => r.path.endsWith("/media_publish"),
      );
      const limited = await publishLive(t, a, channels[0]!.id, { body: "Over the limit" }, [up.body.id]);
      // Held, not failed: the limit counts the last 24 hours, so the channel is tried again in an hour.
      expect(limited.targets[0].status).toBe("queued");
      expect(JSON.stringify(limited.targets[0])).toContain("rate_limited");
      const held = await t.app.db
        .selectFrom("channels")
        .select("rate_limited_until")
        .where("id", "=", channels[0]!.id)
        .executeTakeFirstOrThrow();
      expect(Number(held.rate_limited_until)).toBeGreaterThan(Date.now() + 50 * 60_000);
      meta.invalidate("hana");
      const link = `${BASE}/v1/media/x/content`;
      const media = [
        { id: "media_h", mime: "image/jpeg", alt: null, kind: "image" as const, link: () => link },
      ];
      expect(
        (await publishDirect(t, "instagram", { settings, secrets, parts: ["Expired"], media })).outcome.kind,
      ).toBe("auth_revoked");
    });

    test("a publish whose answer was lost is looked for among the account's media: found, or not there", async () => {
      const page = meta.addPage("lou", "Lou Lamps", "loulamps");
      const settings = { ig_user_id: page.instagram!.id };
      const secrets = { access_token: page.token };
      const since = Date.now();
      const link = `${BASE}/v1/media/x/content`;
      const bytes = await jpeg(300, 300);
      const up = await upload(t, a.liveKey, {
        brand: a.brandId,
        file: { bytes, name: "l.jpg", type: "image/jpeg" },
      });
      const { prepareMediaLinks, signedMediaUrl } = await import("../../../src/domain/media/link.ts");
      await prepareMediaLinks(t.app);
      const media = [
        {
          id: up.body.id,
          mime: "image/jpeg",
          alt: null,
          kind: "image" as const,
          link: () => signedMediaUrl(t.app, up.body.id, "instagram") ?? link,
        },
      ];
      meta.fail("reset_after_read", 1, (r) => r.path.endsWith("/media_publish"));
      const lost = await publishDirect(t, "instagram", {
        settings,
        secrets,
        parts: ["Lamp of the week"],
        media,
      });
      expect(lost.outcome.kind).toBe("uncertain");
      const adapter = adapterFor("instagram")!;
      const remote = {
        targetId: "ptgt_lost",
        livemode: true,
        signal: new AbortController().signal,
        channel: { id: "chan_lou", provider: "instagram", emulates: null, settings, secrets },
      };
      const found = await adapter.find!(t.app, {
        ...remote,
        parts: [{ index: 0, text: "Lamp of the week", media: [] }],
        done: [],
        since,
      });
      const m = meta.media.at(-1)!;
      expect(found).toEqual({
        kind: "found",
        permalink: `https://www.instagram.com/p/${m.shortcode}/`,
        parts: [{ index: 0, remote_id: m.id, remote_url: `https://www.instagram.com/p/${m.shortcode}/` }],
      });
      const missing = await adapter.find!(t.app, {
        ...remote,
        parts: [{ index: 0, text: "Never posted", media: [] }],
        done: [],
        since,
      });
      expect(missing).toEqual({ kind: "not_found" });
    });

    test("without a public /v1 the target fails with media_link_missing before any container is made", async () => {
      const local = await networkApp(dialect, {
        instagram: meta.url,
        "instagram.auth": meta.url,
        "instagram.token": meta.url,
      });
      try {
        const b = await tenant(local.app);
        const actor = await personActor(local.app, b.userId, b.orgId, true);
        await createDevApp(local.app, actor, { provider: "instagram", name: "Meta", ...CLIENT });
        meta.registerApp(
          CLIENT.client_id,
          CLIENT.client_secret,
          "http://localhost:8080/connect/instagram/callback",
        );
        meta.addPage("ivy", "Ivy Ink", "ivyink");
        const { channels } = await connect("instagram", "ivy", () => true, { t: local, a: b });
        const made = meta.containers.length;
        const m = await upload(local, b.liveKey, {
          brand: b.brandId,
          file: { bytes: await jpeg(300, 300), name: "i.jpg", type: "image/jpeg" },
        });
        const post = await publishLive(local, b, channels[0]!.id, { body: "Not reachable" }, [m.body.id]);
        expect(post.targets[0].status).toBe("failed");
        expect(post.targets[0].error.code).toBe("media_link_missing");
        expect(post.targets[0].error.message).toContain("not reachable from the internet");
        expect(meta.containers.length).toBe(made);
      } finally {
        await local.close();
      }
    });
  });
});
