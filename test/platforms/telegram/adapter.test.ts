// Telegram against a local stand-in of the Bot API, every request and answer checked against its OpenAPI
// description: connecting checks the bot (getMe) and its chat (getChat), a live post goes out through the real
// publish worker with no parse_mode (the text arrives as written), images go as a photo or an album, a video goes
// whole by sendVideo (streamed from the bucket), parts go as consecutive messages, and each documented failure is
// classified.
import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import type { TestApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, upload } from "../../helpers/media.ts";
import {
  connectLive,
  drain,
  liveVideo,
  networkApp,
  publishDirect,
  publishLive,
} from "../../helpers/networks.ts";
import { type LocalS3, localS3 } from "../../helpers/s3.ts";
import { makeVideo, sha256, videoMedia } from "../../helpers/video.ts";
import { expectClean } from "../../stand-ins/server.ts";
import { validationNote } from "../../stand-ins/spec.ts";
import {
  startTelegram,
  type TelegramBot,
  type TelegramChat,
  type TelegramStandIn,
} from "../../stand-ins/telegram.ts";

validationNote();
// A stand-in compiles its description's validators on first use: seconds on a busy machine.
setDefaultTimeout(30_000);

describeEachDialect("telegram adapter", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let tg: TelegramStandIn;
  let bot: TelegramBot;
  let channel: TelegramChat;
  let hidden: TelegramChat;
  let s3: LocalS3;
  const adapter = adapterFor("telegram")!;
  const inChannel = () => tg.messages.filter((m) => m.chat_id === channel.id);

  beforeAll(async () => {
    tg = await startTelegram();
    bot = tg.addBot("svc_release_bot");
    channel = tg.addChat({ type: "channel", title: "Release notes", username: "releasenotes" }, [bot]);
    hidden = tg.addChat({ type: "supergroup", title: "Team room", username: null }, []);
    // Video lives in a bucket.
    s3 = await localS3();
    t = await networkApp(dialect, { telegram: tg.url }, s3.env);
    a = await tenant(t.app);
  });
  afterEach(() => expectClean(tg));
  afterAll(async () => {
    await t.close();
    tg.stop();
    await s3.close();
  });

  const connect = (bot_token: string, chat_id: string) =>
    adapter.connect!(t.app, {
      livemode: true,
      settings: { chat_id },
      secrets: { bot_token },
      signal: new AbortController().signal,
    });

  test("connect checks the bot and the chat and reads the chat's name", async () => {
    expect(await connect(bot.token, "@releasenotes")).toEqual({
      kind: "connected",
      account: {
        display_name: "Release notes",
        handle: "@releasenotes",
        profile_url: "https://t.me/releasenotes",
      },
    });
    expect(await connect(bot.token, String(channel.id))).toMatchObject({ kind: "connected" });
    expect(await connect(bot.token, String(hidden.id))).toEqual({
      kind: "rejected",
      message: `Telegram: the bot cannot reach chat ${hidden.id}: Forbidden: bot is not a member of the channel chat`,
    });
    expect(await connect(bot.token, "@nosuchchat")).toMatchObject({ kind: "rejected" });
    const other = tg.addBot("revoked_bot");
    tg.revoke(other);
    expect(await connect(other.token, "@releasenotes")).toEqual({
      kind: "rejected",
      message: "Telegram refused the bot token: Unauthorized",
    });
  });

  test("a live post goes out through the publish worker, as written", async () => {
    const ch = await connectLive(t, a, "telegram", { bot_token: bot.token, chat_id: "@releasenotes" });
    const text = "*not bold* _not italic_ <b>not html</b> [x](https://evil.example) https://example.com/a_b";
    const p = await publishLive(t, a, ch.id, { body: text });
    expect(p.targets[0].status).toBe("published");
    const m = inChannel().at(-1)!;
    expect([m.text, m.parse_mode]).toEqual([text, null]);
    expect(p.targets[0].permalink).toBe(`https://t.me/releasenotes/${m.message_id}`);
  });

  test("images go with the text as caption: one is sendPhoto, several are one album", async () => {
    const ch = await connectLive(t, a, "telegram", { bot_token: bot.token, chat_id: "@releasenotes" });
    const media = async (w: number, h: number) =>
      (
        await upload(t, a.liveKey, {
          brand: a.brandId,
          alt: "Chart",
          file: { bytes: await jpeg(w, h), name: "c.jpg", type: "image/jpeg" },
        })
      ).body.id as string;
    const publishWith = async (body: string, ids: string[]) => {
      const r = await t.request("POST", "/v1/posts", {
        key: a.liveKey,
        body: { brand: a.brandId, channels: [ch.id], content: { body }, media: ids },
      });
      expect(r.status).toBe(201);
      await drain(t);
      return (await t.request("GET", `/v1/posts/${r.body.id}`, { key: a.liveKey })).body.targets[0];
    };
    const one = await publishWith("One chart", [await media(300, 200)]);
    expect(one.status).toBe("published");
    const photo = inChannel().at(-1)!;
    expect([photo.text, photo.photo!.width, photo.photo!.height]).toEqual(["One chart", 300, 200]);
    expect(one.permalink).toBe(`https://t.me/releasenotes/${photo.message_id}`);

    const album = await publishWith("Two charts", [await media(120, 80), await media(80, 120)]);
    expect(album.status).toBe("published");
    const [first, second] = inChannel().slice(-2);
    expect(first!.media_group_id).toBeDefined();
    expect(second!.media_group_id).toBe(first!.media_group_id);
    expect([first!.text, second!.text]).toEqual(["Two charts", ""]);
    expect([first!.photo!.width, second!.photo!.width]).toEqual([120, 80]);
    expect(album.permalink).toBe(`https://t.me/releasenotes/${first!.message_id}`);
  });

  test("a video goes whole by sendVideo, with its caption, size, length and streaming flag", async () => {
    const ch = await connectLive(t, a, "telegram", { bot_token: bot.token, chat_id: "@releasenotes" });
    const { id: clip, bytes } = await liveVideo(t, a, "Launch clip");
    const target = (await publishLive(t, a, ch.id, { body: "We launched" }, [clip])).targets[0];
    expect(target.status).toBe("published");
    const m = inChannel().at(-1)!;
    expect(m.text).toBe("We launched");
    expect(m.video).toMatchObject({
      size: bytes.length,
      width: 320,
      height: 240,
      duration: 2,
      supports_streaming: true,
    });
    expect(sha256(m.video!.file.bytes)).toBe(sha256(bytes));
    expect(m.video!.file.type).toBe("video/mp4");
    expect(target.permalink).toBe(`https://t.me/releasenotes/${m.message_id}`);
    const row = await t.app.db
      .selectFrom("post_targets")
      .select("remote_parts")
      .where("id", "=", target.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.remote_parts)).toEqual([
      { index: 0, remote_id: String(m.message_id), remote_url: target.permalink },
    ]);
    // Sent with its length announced, not chunked: the Bot API's servers take it as any client's upload.
    const sent = tg.requests.filter((x) => x.path === "/sendVideo").at(-1)!;
    expect(sent.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(sent.headers["content-length"])).toBeGreaterThan(bytes.length);
  });

  test("a video's failures are classified; a source that fails mid-upload posts nothing", async () => {
    const bytes = makeVideo({ seconds: 1, width: 160, height: 120 });
    const facts = { width: 160, height: 120, duration_ms: 1000 };
    const opts = {
      settings: { chat_id: "@releasenotes" },
      secrets: { bot_token: bot.token },
      parts: ["Clip"],
      media: [videoMedia(bytes, facts)],
    };
    tg.fail("rate_limited");
    expect((await publishDirect(t, "telegram", opts)).outcome).toEqual({
      kind: "rate_limited",
      retryAfterMs: 35_000,
      message: "Telegram answered 429 to part 1: Too Many Requests: retry after 35",
    });
    tg.fail("server_error");
    expect((await publishDirect(t, "telegram", opts)).outcome.kind).toBe("transient");
    const before = inChannel().length;
    tg.fail("reset_after_read");
    expect((await publishDirect(t, "telegram", opts)).outcome.kind).toBe("uncertain");
    expect(inChannel().length).toBe(before + 1);
    expect(sha256(inChannel().at(-1)!.video!.file.bytes)).toBe(sha256(bytes));

    // The bucket fails after the first bytes: the request is cut before it is whole, so nothing can be posted.
    const broken = videoMedia(bytes, facts, () => {
      let sent = false;
      return new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent) c.error(new Error("the bucket stopped answering"));
          else {
            sent = true;
            c.enqueue(bytes.subarray(0, 4096));
          }
        },
      });
    });
    const cut = await publishDirect(t, "telegram", { ...opts, media: [broken] });
    expect(cut.outcome.kind).toBe("transient");
    expect(cut.outcome.kind === "transient" && cut.outcome.message).toContain("the bucket stopped answering");
    expect(cut.parts).toEqual([]);
    expect(inChannel().length).toBe(before + 1);
  });

  test("parts go as consecutive messages", async () => {
    const before = inChannel().length;
    const r = await publishDirect(t, "telegram", {
      settings: { chat_id: "@releasenotes" },
      secrets: { bot_token: bot.token },
      parts: ["One", "Two"],
    });
    expect(r.outcome.kind).toBe("published");
    expect(
      inChannel()
        .slice(before)
        .map((m) => m.text),
    ).toEqual(["One", "Two"]);
    expect(r.parts.map((p) => p.remote_url)).toEqual(
      inChannel()
        .slice(before)
        .map((m) => `https://t.me/releasenotes/${m.message_id}`),
    );
  });

  test("documented failures are classified", async () => {
    const opts = {
      settings: { chat_id: "@releasenotes" },
      secrets: { bot_token: bot.token },
      parts: ["x"],
    };
    tg.fail("rate_limited");
    expect((await publishDirect(t, "telegram", opts)).outcome).toEqual({
      kind: "rate_limited",
      retryAfterMs: 35_000,
      message: "Telegram answered 429 to part 1: Too Many Requests: retry after 35",
    });
    tg.fail("revoked");
    expect((await publishDirect(t, "telegram", opts)).outcome).toEqual({
      kind: "auth_revoked",
      message: "Telegram answered 401 to part 1: Unauthorized",
    });
    tg.fail("server_error");
    expect((await publishDirect(t, "telegram", opts)).outcome.kind).toBe("transient");
    const before = inChannel().length;
    tg.fail("reset_after_read");
    expect((await publishDirect(t, "telegram", opts)).outcome.kind).toBe("uncertain");
    expect(inChannel().length).toBe(before + 1);
    // The bot was removed from the chat: reconnecting (after adding it back) is the fix.
    expect(
      (await publishDirect(t, "telegram", { ...opts, settings: { chat_id: String(hidden.id) } })).outcome,
    ).toMatchObject({ kind: "auth_revoked" });
    expect(
      (await publishDirect(t, "telegram", { ...opts, settings: { chat_id: "@nosuchchat" } })).outcome,
    ).toEqual({
      kind: "rejected",
      code: "rejected",
      message: "Telegram answered 400 to part 1: Bad Request: chat not found",
    });
  });

  test("a revoked bot token makes the channel need reauth", async () => {
    const other = tg.addBot(`soon_revoked_${dialect}`);
    channel.members.add(other.id);
    const ch = await connectLive(t, a, "telegram", { bot_token: other.token, chat_id: "@releasenotes" });
    tg.revoke(other);
    const p = await publishLive(t, a, ch.id, { body: "Will not go" });
    expect(p.targets[0].status).toBe("queued");
    expect((await t.request("GET", `/v1/channels/${ch.id}`, { key: a.liveKey })).body.status).toBe(
      "needs_reauth",
    );
  });
});
