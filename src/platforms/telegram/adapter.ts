// Telegram: a bot (token from @BotFather) posting to a chat or channel it administers. Text is sent without
// parse_mode, so Telegram applies no formatting and it arrives as written; a bot message cannot ping anyone by
// mention. Each part is one message, in order. Not idempotent: the Bot API has no idempotency key.
// Errors as the Bot API documents them ({ok: false, error_code, description, parameters}): 401 Unauthorized (the
// token was revoked), 403 Forbidden (the bot was removed from the chat or blocked), 400 Bad Request (for example
// "chat not found"), 429 with parameters.retry_after in seconds, 5xx.
import type { App } from "../../app/context.ts";
import { type StreamedFile, StreamedForm } from "../../lib/streamed-form.ts";
import type {
  Adapter,
  ConnectInput,
  ConnectOutcome,
  PublishInput,
  PublishMedia,
  PublishOutcome,
  PublishPart,
} from "../adapter.ts";
import {
  field,
  type NetworkResponse,
  NoAnswer,
  networkRequest,
  noAnswerOutcome,
  remainingParts,
  secondsToMs,
  str,
} from "../plumbing/http.ts";
import { providerOrigin } from "../plumbing/origins.ts";
import { streamedVideo } from "../plumbing/streamed-video.ts";
import { MP4 } from "../text/units.ts";

export const TELEGRAM_ORIGIN = "https://api.telegram.org";
const TOKEN = /^\d{3,20}:[A-Za-z0-9_-]{20,100}$/;

function call(
  app: App,
  token: string,
  method: string,
  body: Record<string, unknown> | FormData | StreamedForm | undefined,
  signal?: AbortSignal,
) {
  const origin = providerOrigin(app, "telegram", TELEGRAM_ORIGIN).replace(/\/+$/, "");
  const multipart = body instanceof FormData || body instanceof StreamedForm;
  return networkRequest(app, {
    method: "POST",
    url: `${origin}/bot${token}/${method}`,
    ...(multipart ? { multipart: body } : body ? { json: body } : {}),
    // Files take longer to send than text, and a video (up to 50 MB) longer still.
    timeoutMs: body instanceof StreamedForm ? 600_000 : multipart ? 120_000 : 30_000,
    ...(signal ? { signal } : {}),
  });
}

/**
 * The first part with its media, uploaded in the same request (Sending files: multipart/form-data): a video is
 * sendVideo, streamed from storage as it is sent (never held in memory), with its size and length when known and
 * supports_streaming so it plays while it loads; one image is sendPhoto; two to ten are one album
 * (sendMediaGroup), each photo attached as `attach://photoN`. The text is the caption (on an album's first item).
 * Telegram has no alt text: the alt text is not sent. A video is always alone in its post (video_alone).
 */
async function mediaRequest(
  chat: number | string,
  part: PublishPart,
): Promise<{ method: string; form: FormData | StreamedForm }> {
  const video = part.media.length === 1 ? streamedVideo(part.media[0]!, "video.mp4") : null;
  if (video) return { method: "sendVideo", form: videoForm(chat, part.text, part.media[0]!, video) };
  const form = new FormData();
  form.append("chat_id", String(chat));
  const file = async (m: PublishMedia) =>
    new Blob([(await m.read!()) as Uint8Array<ArrayBuffer>], { type: m.mime });
  if (part.media.length === 1) {
    form.append("photo", await file(part.media[0]!), "photo0.jpg");
    if (part.text) form.append("caption", part.text);
    return { method: "sendPhoto", form };
  }
  const media = part.media.map((_, i) => ({
    type: "photo",
    media: `attach://photo${i}`,
    ...(i === 0 && part.text ? { caption: part.text } : {}),
  }));
  form.append("media", JSON.stringify(media));
  for (const [i, m] of part.media.entries()) form.append(`photo${i}`, await file(m), `photo${i}.jpg`);
  return { method: "sendMediaGroup", form };
}

function videoForm(chat: number | string, text: string, m: PublishMedia, file: StreamedFile): StreamedForm {
  const form = new StreamedForm();
  form.append("chat_id", String(chat));
  if (text) form.append("caption", text);
  if (m.width) form.append("width", String(m.width));
  if (m.height) form.append("height", String(m.height));
  // Telegram takes whole seconds; a video shorter than half a second still lasts one.
  if (m.video?.duration_ms)
    form.append("duration", String(Math.max(1, Math.round(m.video.duration_ms / 1000))));
  form.append("supports_streaming", "true");
  form.append("video", file);
  return form;
}

function errorText(res: NetworkResponse): string {
  return str(field(res.json, "description")) ?? (res.text.slice(0, 300) || `HTTP ${res.status}`);
}

/** A chat ID as Telegram takes it: a number, or @username for a public channel. */
function chatId(raw: unknown): number | string {
  const s = String(raw ?? "").trim();
  return /^-?\d+$/.test(s) ? Number(s) : s.startsWith("@") ? s : `@${s}`;
}

/** A message's public link: t.me/<username>/<id>, or t.me/c/<internal id>/<id> in a private supergroup. */
function messageLink(chat: unknown, messageId: string): string | null {
  const username = str(field(chat, "username"));
  if (username) return `https://t.me/${username}/${messageId}`;
  const id = str(field(chat, "id"));
  const type = str(field(chat, "type"));
  if (id?.startsWith("-100") && (type === "supergroup" || type === "channel"))
    return `https://t.me/c/${id.slice(4)}/${messageId}`;
  return null;
}

async function connect(app: App, input: ConnectInput): Promise<ConnectOutcome> {
  const token = input.secrets.bot_token ?? "";
  if (!TOKEN.test(token))
    return {
      kind: "rejected",
      message: "The bot token does not look like one from @BotFather (123456:ABC…).",
    };
  try {
    const me = await call(app, token, "getMe", undefined);
    if (me.status === 401 || me.status === 404)
      return { kind: "rejected", message: `Telegram refused the bot token: ${errorText(me)}` };
    if (me.status !== 200)
      return { kind: "unavailable", message: `Telegram answered ${me.status}: ${errorText(me)}` };
    const chat = await call(app, token, "getChat", { chat_id: chatId(input.settings.chat_id) });
    if (chat.status === 400 || chat.status === 403)
      return {
        kind: "rejected",
        message: `Telegram: the bot cannot reach chat ${input.settings.chat_id}: ${errorText(chat)}`,
      };
    if (chat.status !== 200)
      return { kind: "unavailable", message: `Telegram answered ${chat.status}: ${errorText(chat)}` };
    const c = field(chat.json, "result");
    const username = str(field(c, "username"));
    const title = str(field(c, "title")) ?? str(field(c, "first_name"));
    return {
      kind: "connected",
      account: {
        display_name: title ?? str(field(field(me.json, "result"), "first_name")),
        handle: username ? `@${username}` : null,
        profile_url: username ? `https://t.me/${username}` : null,
      },
    };
  } catch (err) {
    return { kind: "unavailable", message: `Telegram: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function refusal(res: NetworkResponse, index: number): PublishOutcome {
  const message = `Telegram answered ${res.status} to part ${index + 1}: ${errorText(res)}`;
  if (res.status === 429) {
    const wait = secondsToMs(field(field(res.json, "parameters"), "retry_after")) ?? 60_000;
    return { kind: "rate_limited", retryAfterMs: wait, message };
  }
  // 401: the token was revoked; 404: no bot has this token; 403: the bot was removed from the chat.
  if (res.status === 401 || res.status === 404 || res.status === 403)
    return { kind: "auth_revoked", message };
  if (res.status >= 500) return { kind: "transient", message };
  return { kind: "rejected", code: "rejected", message };
}

/** A medium svc can send: an image with its bytes, or an MP4 video with its stream and size. */
const sendable = (m: PublishMedia) =>
  m.kind === "video"
    ? m.mime === MP4 && streamedVideo(m, "") !== null
    : m.mime.startsWith("image/") && m.read !== undefined;

async function publish(app: App, input: PublishInput): Promise<PublishOutcome> {
  const token = input.channel.secrets.bot_token ?? "";
  let permalink: string | null = input.done.find((d) => d.index === 0)?.remote_url ?? null;
  for (const part of input.parts)
    if (!part.media.every(sendable) || (part.media.length > 1 && part.media.some((m) => m.kind === "video")))
      return {
        kind: "rejected",
        code: "media_rejected",
        message:
          "svc sends Telegram images (one, or an album of up to ten) or one MP4 video alone, each with its bytes; nothing was posted.",
      };
  for (const part of remainingParts(input.parts, input.done)) {
    if (input.signal.aborted)
      return { kind: "transient", message: `Stopped before part ${part.index + 1} was sent.` };
    let res: NetworkResponse;
    try {
      // No parse_mode: Telegram shows the text exactly as written.
      const chat = chatId(input.channel.settings.chat_id);
      if (part.media.length) {
        const { method, form } = await mediaRequest(chat, part);
        res = await call(app, token, method, form, input.signal);
      } else res = await call(app, token, "sendMessage", { chat_id: chat, text: part.text }, input.signal);
    } catch (err) {
      if (!(err instanceof NoAnswer)) throw err;
      return noAnswerOutcome("Telegram", err, part.index);
    }
    if (res.status !== 200 || field(res.json, "ok") !== true) return refusal(res, part.index);
    // An album answers with its messages: the first is the post's.
    const result = field(res.json, "result");
    const message = Array.isArray(result) ? result[0] : result;
    const id = str(field(message, "message_id"));
    if (!id)
      return { kind: "uncertain", message: `Telegram took part ${part.index + 1} but sent no message ID.` };
    const url = messageLink(field(message, "chat"), id);
    await input.onPartPublished({ index: part.index, remote_id: id, remote_url: url });
    if (part.index === 0) permalink = url;
  }
  return { kind: "published", permalink };
}

export const telegramAdapter: Adapter = { provider: "telegram", idempotent: false, publish, connect };
