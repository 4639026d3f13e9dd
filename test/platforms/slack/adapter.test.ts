// Slack against a local stand-in (Web API checked against Slack's API description; incoming webhooks have none):
// connecting with a webhook URL (shape only) or a bot token and channel (auth.test + conversations.info), live
// posts through the real publish worker both ways, text escaped so it shows as written and pings nobody, parts
// as consecutive messages, and each documented failure classified. With a bot token, images and a video go by
// Slack's external upload and reach the channel with the text, once; a webhook channel refuses media in the preview.
import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import type { TestApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, upload } from "../../helpers/media.ts";
import { connectLive, liveVideo, networkApp, publishDirect, publishLive } from "../../helpers/networks.ts";
import { type LocalS3, localS3 } from "../../helpers/s3.ts";
import { sha256 } from "../../helpers/video.ts";
import { expectClean } from "../../stand-ins/server.ts";
import {
  displayedText,
  pings,
  type SlackBot,
  type SlackChannel,
  type SlackHook,
  type SlackStandIn,
  startSlack,
} from "../../stand-ins/slack.ts";
import { validationNote } from "../../stand-ins/spec.ts";

validationNote();
// A stand-in compiles its description's validators on first use: seconds on a busy machine.
setDefaultTimeout(30_000);

const TRICKY =
  "<!channel> <!here|here> <@U0SVC99999> @channel *not bold* _no_ ~no~ `no` a < b > c & d https://example.com/?a=1&b=2";

describeEachDialect("slack adapter", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let s: SlackStandIn;
  let general: SlackChannel;
  let bot: SlackBot;
  let hook: SlackHook;
  let s3: LocalS3;
  const adapter = adapterFor("slack")!;
  const inGeneral = () => s.messages.filter((m) => m.channel === general.id);

  beforeAll(async () => {
    s = await startSlack();
    general = s.addChannel("general");
    bot = s.addBot([general]);
    hook = s.addHook(general);
    // Video lives in a bucket.
    s3 = await localS3();
    t = await networkApp(dialect, { slack: s.url, "slack.hooks": s.url }, s3.env);
    a = await tenant(t.app);
  });
  afterEach(() => expectClean(s));
  afterAll(async () => {
    await t.close();
    s.stop();
    await s3.close();
  });

  const connect = (settings: Record<string, string>, secrets: Record<string, string>) =>
    adapter.connect!(t.app, { livemode: true, settings, secrets, signal: new AbortController().signal });

  test("connect: a bot token is checked with the channel; a webhook URL only by its shape", async () => {
    expect(await connect({ channel: general.id }, { bot_token: bot.token })).toEqual({
      kind: "connected",
      account: {
        display_name: "#general (Svc Workspace)",
        handle: "#general",
        profile_url: `${s.url}/archives/${general.id}`,
      },
      // Which way it connects is recorded: a webhook channel cannot carry files.
      settings: { channel: general.id, via: "bot" },
    });
    expect(await connect({ channel: "C0NOPE" }, { bot_token: bot.token })).toEqual({
      kind: "rejected",
      message: "Slack: the bot cannot see channel C0NOPE: channel_not_found",
    });
    const gone = s.addBot([]);
    s.revoke(gone);
    expect(await connect({ channel: general.id }, { bot_token: gone.token })).toEqual({
      kind: "rejected",
      message: "Slack refused the bot token: invalid_auth",
    });
    expect(await connect({}, { webhook_url: hook.url })).toEqual({
      kind: "connected",
      account: { display_name: "Slack incoming webhook", handle: null, profile_url: null },
      settings: { via: "webhook" },
    });
    // Nothing is sent to a webhook to check it: anything sent would be posted.
    expect(s.requests.filter((r) => r.rawPath.startsWith("/services/"))).toHaveLength(0);
    for (const [settings, secrets] of [
      [{}, {}],
      [{}, { webhook_url: "https://example.com/services/T1/B1/abc" }],
      [{}, { bot_token: bot.token }],
      [{ channel: general.id }, { bot_token: bot.token, webhook_url: hook.url }],
    ] as const)
      expect((await connect(settings, secrets)).kind).toBe("rejected");
  });

  test("live posts go out through the publish worker, by webhook and by bot, as written and pinging nobody", async () => {
    const viaHook = await connectLive(t, a, "slack", { webhook_url: hook.url });
    const one = await publishLive(t, a, viaHook.id, { body: TRICKY });
    expect(one.targets[0].status).toBe("published");
    let m = inGeneral().at(-1)!;
    expect([m.via, displayedText(m.text), pings(m.text), m.mrkdwn]).toEqual(["webhook", TRICKY, [], false]);

    const viaBot = await connectLive(t, a, "slack", { bot_token: bot.token, channel: general.id });
    const two = await publishLive(t, a, viaBot.id, { body: TRICKY });
    expect(two.targets[0].status).toBe("published");
    m = inGeneral().at(-1)!;
    expect([m.via, displayedText(m.text), pings(m.text), m.mrkdwn]).toEqual(["api", TRICKY, [], false]);
    expect(two.targets[0].permalink).toBe(`${s.url}/archives/${general.id}/p${m.ts.replace(".", "")}`);
  });

  test("parts go as consecutive messages", async () => {
    const before = inGeneral().length;
    const r = await publishDirect(t, "slack", {
      settings: { channel: general.id },
      secrets: { bot_token: bot.token },
      parts: ["One", "Two"],
    });
    expect(r.outcome.kind).toBe("published");
    expect(
      inGeneral()
        .slice(before)
        .map((m) => m.text),
    ).toEqual(["One", "Two"]);
  });

  for (const way of ["webhook", "bot"] as const) {
    test(`documented failures are classified (${way})`, async () => {
      const opts: { settings?: Record<string, string>; secrets: Record<string, string>; parts: string[] } =
        way === "webhook"
          ? { secrets: { webhook_url: hook.url }, parts: ["x"] }
          : { settings: { channel: general.id }, secrets: { bot_token: bot.token }, parts: ["x"] };
      s.fail("rate_limited");
      expect((await publishDirect(t, "slack", opts)).outcome).toMatchObject({
        kind: "rate_limited",
        retryAfterMs: 30_000,
      });
      s.fail("revoked");
      expect((await publishDirect(t, "slack", opts)).outcome.kind).toBe("auth_revoked");
      s.fail("server_error");
      expect((await publishDirect(t, "slack", opts)).outcome.kind).toBe("transient");
      const before = inGeneral().length;
      s.fail("reset_after_read");
      expect((await publishDirect(t, "slack", opts)).outcome.kind).toBe("uncertain");
      expect(inGeneral().length).toBe(before + 1);
      general.archived = true;
      const archived = await publishDirect(t, "slack", opts);
      general.archived = false;
      expect(archived.outcome).toMatchObject({ kind: "rejected", code: "rejected" });
      expect(archived.outcome.kind === "rejected" && archived.outcome.message).toMatch(/archived/);
    });
  }

  test("a removed webhook and a revoked token make the channel need reauth", async () => {
    const h = s.addHook(general);
    const b = s.addBot([general]);
    const byHook = await connectLive(t, a, "slack", { webhook_url: h.url });
    const byBot = await connectLive(t, a, "slack", { bot_token: b.token, channel: general.id });
    h.removed = true;
    s.revoke(b);
    for (const ch of [byHook, byBot]) {
      const p = await publishLive(t, a, ch.id, { body: "Will not go" });
      expect(p.targets[0].status).toBe("queued");
      expect((await t.request("GET", `/v1/channels/${ch.id}`, { key: a.liveKey })).body.status).toBe(
        "needs_reauth",
      );
    }
  });

  test("a bot-token channel takes images: uploaded by Slack's external upload, shared once with the text", async () => {
    const viaBot = await connectLive(t, a, "slack", { bot_token: bot.token, channel: general.id });
    const chart = await upload(t, a.liveKey, {
      brand: a.brandId,
      alt: "Orange bar chart of Q3",
      file: { bytes: await jpeg(400, 300), name: "chart.jpg", type: "image/jpeg" },
    });
    const plain = await upload(t, a.liveKey, {
      brand: a.brandId,
      file: { bytes: await jpeg(200, 200), name: "plain.jpg", type: "image/jpeg" },
    });
    expect([chart.status, plain.status]).toEqual([201, 201]);
    const preview = await t.request("POST", "/v1/posts/preview", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        content: { body: TRICKY },
        channels: [viaBot.id],
        media: [chart.body.id, plain.body.id],
      },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.valid).toBe(true);
    const post = await publishLive(t, a, viaBot.id, { body: TRICKY }, [chart.body.id, plain.body.id]);
    expect(post.targets[0].status).toBe("published");
    const m = inGeneral().at(-1)!;
    // One message, with the text as written (pinging nobody) and both files, in order, with the alt text.
    expect([m.via, displayedText(m.text), pings(m.text)]).toEqual(["api", TRICKY, []]);
    expect(m.files!.map((f) => [f.filename, f.type, f.alt_txt])).toEqual([
      ["1.jpg", "image/jpeg", "Orange bar chart of Q3"],
      ["2.jpg", "image/jpeg", null],
    ]);
    const { default: sharp } = await import("sharp");
    const widths = await Promise.all(m.files!.map(async (f) => (await sharp(f.bytes!).metadata()).width));
    expect(widths).toEqual([400, 200]);
    expect(post.targets[0].permalink).toBe(`${s.url}/files/${bot.user_id}/${m.files![0]!.id}/1.jpg`);
    // Shared once: every file uploaded was completed exactly once, and no other message carries them.
    expect(inGeneral().filter((x) => x.files?.some((f) => m.files!.includes(f)))).toHaveLength(1);
  });

  test("a bot-token channel takes a video, streamed from the bucket into its upload", async () => {
    const viaBot = await connectLive(t, a, "slack", { bot_token: bot.token, channel: general.id });
    const { id: clip, bytes } = await liveVideo(t, a, "Launch clip");
    const post = await publishLive(t, a, viaBot.id, { body: "We launched" }, [clip]);
    expect(post.targets[0].status).toBe("published");
    const m = inGeneral().at(-1)!;
    expect(m.text).toBe("We launched");
    const f = m.files![0]!;
    expect([m.files!.length, f.filename, f.type, f.alt_txt, f.bytes!.length]).toEqual([
      1,
      "1.mp4",
      "video/mp4",
      "Launch clip",
      bytes.length,
    ]);
    expect(sha256(f.bytes!)).toBe(sha256(bytes));
    // Sent with its length announced, not chunked.
    const sent = s.requests.filter((x) => x.rawPath === `/upload/v1/${f.id}`).at(-1)!;
    expect(sent.headers["transfer-encoding"]).toBeUndefined();
  });

  test("a workspace that refuses uploads: media_rejected, nothing in the channel", async () => {
    const before = inGeneral().length;
    s.uploadsDisabled = true;
    try {
      const r = await publishDirect(t, "slack", {
        settings: { channel: general.id, via: "bot" },
        secrets: { bot_token: bot.token },
        parts: ["With a picture"],
        media: [
          {
            id: "media_0000000000000000000000000a",
            mime: "image/png",
            alt: null,
            read: async () => new Uint8Array(await jpeg(10, 10)),
          },
        ],
      });
      expect(r.outcome).toMatchObject({ kind: "rejected", code: "media_rejected" });
      expect(r.outcome.kind === "rejected" && r.outcome.message).toContain("file_uploads_disabled");
      expect(r.parts).toEqual([]);
    } finally {
      s.uploadsDisabled = false;
    }
    expect(inGeneral().length).toBe(before);
  });

  test("a webhook channel, which cannot carry files, refuses media in the preview and on create", async () => {
    const viaHook = await connectLive(t, a, "slack", { webhook_url: hook.url });
    const viaBot = await connectLive(t, a, "slack", { bot_token: bot.token, channel: general.id });
    const img = await upload(t, a.liveKey, {
      brand: a.brandId,
      file: { bytes: await jpeg(100, 100), name: "a.jpg", type: "image/jpeg" },
    });
    const { id: clip } = await liveVideo(t, a, "Clip");
    for (const [media, code] of [
      [[img.body.id], "too_much_media"],
      [[clip], "video_unsupported"],
    ] as const) {
      const body = { brand: a.brandId, content: { body: "Look" }, channels: [viaHook.id, viaBot.id], media };
      const preview = await t.request("POST", "/v1/posts/preview", { key: a.liveKey, body });
      expect(preview.status).toBe(200);
      expect(preview.body.valid).toBe(false);
      // biome-ignore lint/suspicious/noExplicitAny: the API's JSON
      const of = (id: string) => preview.body.renditions.find((r: any) => r.channel === id);
      expect(of(viaHook.id).violations.map((v: { code: string }) => v.code)).toEqual([code]);
      expect(of(viaHook.id).violations[0].message).toContain("incoming webhook");
      expect(of(viaBot.id).violations).toEqual([]);
      const created = await t.request("POST", "/v1/posts", { key: a.liveKey, body });
      expect(created.status).toBe(422);
      expect(created.body.errors.map((e: { code: string }) => e.code)).toContain(code);
    }
    // Without media the webhook channel is fine.
    const text = await t.request("POST", "/v1/posts/preview", {
      key: a.liveKey,
      body: { brand: a.brandId, content: { body: "Look" }, channels: [viaHook.id] },
    });
    expect(text.body.valid).toBe(true);
  });
});
