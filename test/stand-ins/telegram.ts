// The Telegram Bot API, from core.telegram.org/bots/api (Making requests, getMe, getChat, sendMessage,
// ResponseParameters): bots with tokens, chats the bots are members of, messages they send, and the documented
// failures ({ok: false, error_code, description, parameters.retry_after}); sendPhoto, sendMediaGroup and sendVideo
// with files uploaded as multipart/form-data (Sending files, attach://<name>; a bot uploads at most 50 MB; a
// video's width, height and duration are as the sender defines them, 0 when not sent). Requests go to /bot<token>/<method>;
// every request and answer is checked against ark0f/tg-bot-api's OpenAPI description, whose server URL carries
// the /bot<token> prefix.

import sharp, { type Metadata } from "sharp";
import { type Answer, type StandIn, startStandIn, type UploadedFile } from "./server.ts";
import { loadSpec } from "./spec.ts";

export interface TelegramBot {
  id: number;
  token: string;
  username: string;
  first_name: string;
}

export interface TelegramChat {
  id: number;
  type: "channel" | "supergroup" | "group";
  title: string;
  username: string | null;
  /** Bot IDs that may post here. */
  members: Set<number>;
}

export interface TelegramMessage {
  chat_id: number;
  message_id: number;
  text: string;
  from: number;
  /** What the request asked for: a parse_mode would make Telegram format the text. */
  parse_mode: string | null;
  /** The photo of a sendPhoto or album message, with its size; `text` is then its caption. */
  photo?: { file: UploadedFile; width: number; height: number };
  /** The video of a sendVideo message, as received; `text` is then its caption. */
  video?: {
    file: UploadedFile;
    size: number;
    width: number;
    height: number;
    duration: number;
    supports_streaming: boolean;
  };
  /** Messages of one album share it. */
  media_group_id?: string;
}

export interface TelegramStandIn extends StandIn {
  addBot(username: string): TelegramBot;
  addChat(chat: Omit<TelegramChat, "id" | "members">, bots: TelegramBot[]): TelegramChat;
  revoke(bot: TelegramBot): void;
  messages: TelegramMessage[];
}

const error = (code: number, description: string, retryAfter?: number): Answer => ({
  status: code,
  body: {
    ok: false,
    error_code: code,
    description,
    ...(retryAfter ? { parameters: { retry_after: retryAfter } } : {}),
  },
});

export async function startTelegram(): Promise<TelegramStandIn> {
  // Multipart fields are strings (sendVideo's width "320", supports_streaming "true"): read as the API reads them.
  const spec = await loadSpec({ file: "telegram/tg-bot-api-openapi.json", coerce: true });
  const bots: TelegramBot[] = [];
  const revoked = new Set<string>();
  const chats: TelegramChat[] = [];
  const messages: TelegramMessage[] = [];
  let nextBot = 7_000_000_000;
  let nextChat = 1_000_000_000_000;

  const findChat = (raw: unknown) =>
    chats.find((c) =>
      typeof raw === "string" && raw.startsWith("@")
        ? `@${c.username}` === raw
        : String(c.id) === String(raw),
    );
  const chatJson = (c: TelegramChat) => ({
    id: c.id,
    type: c.type,
    title: c.title,
    ...(c.username ? { username: c.username } : {}),
  });
  /** What every sent Message starts with; a channel's posts have no sender. */
  const messageJson = (bot: TelegramBot, c: TelegramChat, m: TelegramMessage) => ({
    message_id: m.message_id,
    date: Math.floor(Date.now() / 1000),
    chat: chatJson(c),
    ...(c.type === "channel" ? {} : { from: { id: bot.id, is_bot: true, first_name: bot.first_name } }),
  });

  const s = startStandIn({
    spec,
    route(path) {
      const m = /^\/bot([^/]+)(\/[A-Za-z]+)$/.exec(path);
      return m ? { path: m[2]!, params: { token: m[1]! } } : null;
    },
    invalid: (problems) => error(400, `Bad Request: ${problems[0]}`),
    failsOn: (req) => req.path.startsWith("/send"),
    // sendMediaGroup's `media` is a JSON-serialized array in the form: checked as the array it describes.
    adapt(req) {
      const media = (req.body as { media?: unknown } | undefined)?.media;
      return typeof media === "string" && media.startsWith("[")
        ? { ...req, body: { ...(req.body as object), media: JSON.parse(media) } }
        : req;
    },
    failure(kind) {
      if (kind === "rate_limited") return error(429, "Too Many Requests: retry after 35", 35);
      if (kind === "revoked") return error(401, "Unauthorized");
      return error(502, "Bad Gateway");
    },
    async handle(req, params) {
      const bot = bots.find((b) => b.token === params.token && !revoked.has(b.token));
      // An unknown or revoked token: Telegram answers 401 Unauthorized.
      if (!bot) return error(401, "Unauthorized");
      const body = (req.body ?? {}) as {
        chat_id?: unknown;
        text?: string;
        parse_mode?: string;
        photo?: UploadedFile | string;
        video?: UploadedFile | string;
        caption?: string;
        media?: string;
      } & Record<string, unknown>;
      switch (req.path) {
        case "/getMe":
          return {
            status: 200,
            body: {
              ok: true,
              result: {
                id: bot.id,
                is_bot: true,
                first_name: bot.first_name,
                username: bot.username,
                can_join_groups: true,
              },
            },
          };
        case "/getChat": {
          const c = findChat(body.chat_id);
          if (!c) return error(400, "Bad Request: chat not found");
          if (!c.members.has(bot.id)) return error(403, "Forbidden: bot is not a member of the channel chat");
          return {
            status: 200,
            body: { ok: true, result: { ...chatJson(c), accent_color_id: 0, max_reaction_count: 11 } },
          };
        }
        case "/sendMessage": {
          const c = findChat(body.chat_id);
          if (!c) return error(400, "Bad Request: chat not found");
          if (!c.members.has(bot.id)) return error(403, "Forbidden: bot was kicked from the channel chat");
          const text = body.text ?? "";
          if (text.trim() === "") return error(400, "Bad Request: message text is empty");
          const m: TelegramMessage = {
            chat_id: c.id,
            message_id: messages.filter((x) => x.chat_id === c.id).length + 1,
            text,
            from: bot.id,
            parse_mode: body.parse_mode ?? null,
          };
          messages.push(m);
          return {
            status: 200,
            body: {
              ok: true,
              result: {
                ...messageJson(bot, c, m),
                text,
              },
            },
          };
        }
        case "/sendVideo": {
          const c = findChat(body.chat_id);
          if (!c) return error(400, "Bad Request: chat not found");
          if (!c.members.has(bot.id)) return error(403, "Forbidden: bot was kicked from the channel chat");
          if (typeof body.video !== "object" || body.video === null)
            return error(400, "Bad Request: wrong file identifier/HTTP URL specified");
          if ((body.caption?.length ?? 0) > 1024)
            return error(400, "Bad Request: message caption is too long");
          const file = body.video;
          // Uploads past a bot's 50 MB are refused before anything is posted.
          if (file.bytes.length > 50_000_000) return error(413, "Request Entity Too Large");
          const int = (v: unknown) => (v === undefined ? 0 : Number(v));
          const m: TelegramMessage = {
            chat_id: c.id,
            message_id: messages.filter((x) => x.chat_id === c.id).length + 1,
            text: body.caption ?? "",
            from: bot.id,
            parse_mode: body.parse_mode ?? null,
            video: {
              file,
              size: file.bytes.length,
              width: int(body.width),
              height: int(body.height),
              duration: int(body.duration),
              supports_streaming: String(body.supports_streaming) === "true",
            },
          };
          messages.push(m);
          return {
            status: 200,
            body: {
              ok: true,
              result: {
                ...messageJson(bot, c, m),
                video: {
                  file_id: `video-${c.id}-${m.message_id}`,
                  file_unique_id: `v${c.id}${m.message_id}`,
                  width: m.video!.width,
                  height: m.video!.height,
                  duration: m.video!.duration,
                  file_name: file.name,
                  mime_type: file.type,
                  file_size: m.video!.size,
                },
                ...(m.text ? { caption: m.text } : {}),
              },
            },
          };
        }
        case "/sendPhoto":
        case "/sendMediaGroup": {
          const c = findChat(body.chat_id);
          if (!c) return error(400, "Bad Request: chat not found");
          if (!c.members.has(bot.id)) return error(403, "Forbidden: bot was kicked from the channel chat");
          const items: { file: unknown; caption?: string }[] =
            req.path === "/sendPhoto"
              ? [{ file: body.photo, caption: body.caption }]
              : (JSON.parse(String(body.media ?? "[]")) as { media: string; caption?: string }[]).map(
                  (x) => ({
                    file: x.media.startsWith("attach://") ? body[x.media.slice(9)] : undefined,
                    caption: x.caption,
                  }),
                );
          if (req.path === "/sendMediaGroup" && (items.length < 2 || items.length > 10))
            return error(400, "Bad Request: wrong number of media specified");
          const group = items.length > 1 ? String(Date.now()) : undefined;
          const sent: TelegramMessage[] = [];
          for (const it of items) {
            if (typeof it.file !== "object" || it.file === null)
              return error(400, "Bad Request: wrong file identifier/HTTP URL specified");
            if ((it.caption?.length ?? 0) > 1024)
              return error(400, "Bad Request: message caption is too long");
            const file = it.file as UploadedFile;
            let meta: Metadata;
            try {
              meta = await sharp(file.bytes).metadata();
            } catch {
              return error(400, "Bad Request: IMAGE_PROCESS_FAILED");
            }
            sent.push({
              chat_id: c.id,
              message_id: 0,
              text: it.caption ?? "",
              from: bot.id,
              parse_mode: body.parse_mode ?? null,
              photo: { file, width: meta.width ?? 0, height: meta.height ?? 0 },
              ...(group ? { media_group_id: group } : {}),
            });
          }
          for (const m of sent) {
            m.message_id = messages.filter((x) => x.chat_id === c.id).length + 1;
            messages.push(m);
          }
          const json = sent.map((m, i) => ({
            ...messageJson(bot, c, m),
            ...(m.media_group_id ? { media_group_id: m.media_group_id } : {}),
            photo: [
              {
                file_id: `photo-${c.id}-${m.message_id}`,
                file_unique_id: `u${c.id}${m.message_id}${i}`,
                width: m.photo!.width,
                height: m.photo!.height,
                file_size: m.photo!.file.bytes.length,
              },
            ],
            ...(m.text ? { caption: m.text } : {}),
          }));
          return { status: 200, body: { ok: true, result: req.path === "/sendPhoto" ? json[0] : json } };
        }
      }
      return error(404, "Not Found");
    },
  });
  return {
    ...s,
    messages,
    addBot(username) {
      const id = ++nextBot;
      const b = {
        id,
        username,
        first_name: username,
        token: `${id}:AA${crypto.randomUUID().replaceAll("-", "")}`,
      };
      bots.push(b);
      return b;
    },
    addChat(chat, members) {
      const c = { ...chat, id: -++nextChat, members: new Set(members.map((b) => b.id)) };
      chats.push(c);
      return c;
    },
    revoke: (bot) => revoked.add(bot.token),
  };
}
