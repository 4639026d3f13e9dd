// Telegram against a local stand-in of the Bot API, every request and answer checked against its OpenAPI
// description: connecting checks the bot (getMe) and its chat (getChat), a live post goes out through the real
// publish worker with no parse_mode (the text arrives as written), parts go as consecutive messages, and each
// documented failure is classified.
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { adapterFor } from "../../../src/platforms/adapters.ts";
import type { TestApp } from "../../helpers/app.ts";
import { dialects } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, upload } from "../../helpers/media.ts";
import { connectLive, drain, networkApp, publishDirect, publishLive } from "../../helpers/networks.ts";
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

for (const dialect of dialects) {
  describe(`telegram adapter (${dialect})`, () => {
    let t: TestApp;
    let a: Tenant;
    let tg: TelegramStandIn;
    let bot: TelegramBot;
    let channel: TelegramChat;
    let hidden: TelegramChat;
    const adapter = adapterFor("telegram")!;
    const inChannel = () => tg.messages.filter((m) => m.chat_id === channel.id);

    beforeAll(async () => {
      tg = await startTelegram();
      bot = tg.addBot("svc_release_bot");
      channel = tg.addChat({ type: "channel", title: "Release notes", username: "releasenotes" }, [bot]);
      hidden = tg.addChat({ type: "supergroup", title: "Team room", username: null }, []);
      t = await networkApp(dialect, { telegram: tg.url });
      a = await tenant(t.app);
    });
    afterEach(() => expectClean(tg));
    afterAll(async () => {
      await t.close();
      tg.stop();
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
      const text =
        "*not bold* _not italic_ <b>not html</b> [x](https://evil.example) https://example.com/a_b";
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
}
