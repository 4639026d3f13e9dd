// Discord: a channel webhook. The tenant pastes its URL; svc keeps only the webhook's ID and token from it and
// always calls the Discord API origin (SVC_PROVIDER_ORIGINS `discord`), so the URL cannot send requests anywhere
// else. Each part is one message (Discord has no reply chain for webhooks); markdown is escaped and
// allowed_mentions is empty, so nobody is pinged. Not idempotent: Discord has no idempotency key for webhooks.
// Errors as Discord documents them: 401/404 with code 10015 "Unknown Webhook" (deleted: the channel must be
// connected again), 429 with retry_after and X-RateLimit-Reset-After, 400 with code 50035 and field errors.
import type { App } from "../../app/context.ts";
import { type StreamedFile, StreamedForm } from "../../lib/streamed-form.ts";
import type {
  Adapter,
  ConnectInput,
  ConnectOutcome,
  PublishInput,
  PublishMedia,
  PublishOutcome,
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
import { escapeDiscord } from "./escape.ts";

export const DISCORD_ORIGIN = "https://discord.com";
const MAX_CONTENT = 2000;
const HOSTS = new Set(["discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com"]);
const PATH = /^\/api(?:\/v\d+)?\/webhooks\/(\d{5,25})\/([A-Za-z0-9_-]{20,100})\/?$/;

interface Webhook {
  id: string;
  token: string;
}

/** The webhook's ID and token from a pasted URL, or null when it is not a Discord webhook URL. */
export function parseWebhookUrl(raw: string | undefined): Webhook | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" || !HOSTS.has(url.hostname) || url.port !== "") return null;
  const m = PATH.exec(url.pathname);
  return m ? { id: m[1]!, token: m[2]! } : null;
}

function webhookUrl(app: App, w: Webhook): string {
  return `${providerOrigin(app, "discord", DISCORD_ORIGIN).replace(/\/+$/, "")}/api/v10/webhooks/${w.id}/${w.token}`;
}

const BAD_URL =
  "The webhook URL is not a Discord webhook URL (https://discord.com/api/webhooks/<id>/<token>, from the channel's Integrations → Webhooks).";

function errorText(res: NetworkResponse): string {
  const message = str(field(res.json, "message"));
  const code = str(field(res.json, "code"));
  if (message) return code ? `${message} (code ${code})` : message;
  return res.text.slice(0, 300) || `HTTP ${res.status}`;
}

/** Deleted or wrong webhook: Discord answers 401, or 404 with code 10015 Unknown Webhook. */
const revoked = (res: NetworkResponse) => res.status === 401 || res.status === 404;

async function connect(app: App, input: ConnectInput): Promise<ConnectOutcome> {
  const w = parseWebhookUrl(input.secrets.webhook_url);
  if (!w) return { kind: "rejected", message: BAD_URL };
  let res: NetworkResponse;
  try {
    res = await networkRequest(app, { method: "GET", url: webhookUrl(app, w), timeoutMs: 15_000 });
  } catch (err) {
    return { kind: "unavailable", message: `Discord: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (revoked(res) || res.status === 403)
    return { kind: "rejected", message: `Discord does not know this webhook: ${errorText(res)}` };
  if (res.status !== 200)
    return { kind: "unavailable", message: `Discord answered ${res.status}: ${errorText(res)}` };
  const guild = str(field(res.json, "guild_id"));
  const channel = str(field(res.json, "channel_id"));
  return {
    kind: "connected",
    account: {
      display_name: str(field(res.json, "name")),
      handle: null,
      profile_url: guild && channel ? `https://discord.com/channels/${guild}/${channel}` : null,
    },
    settings: { ...input.settings, ...(guild ? { guild_id: guild } : {}) },
  };
}

function refusal(res: NetworkResponse, index: number): PublishOutcome {
  const message = `Discord answered ${res.status} to part ${index + 1}: ${errorText(res)}`;
  if (res.status === 429) {
    const wait =
      secondsToMs(field(res.json, "retry_after")) ??
      secondsToMs(res.headers.get("x-ratelimit-reset-after")) ??
      secondsToMs(res.headers.get("retry-after")) ??
      60_000;
    return { kind: "rate_limited", retryAfterMs: wait, message };
  }
  if (revoked(res)) return { kind: "auth_revoked", message };
  if (res.status >= 500) return { kind: "transient", message };
  if (res.status === 403) return { kind: "rejected", code: "unauthorized", message };
  return { kind: "rejected", code: "rejected", message };
}

/** A message with a video, the whole exchange: tens of megabytes at a modest uplink. */
const VIDEO_UPLOAD_MS = 600_000;

/** Files per message (reference/uploading-files). */
const MAX_FILES = 10;

/**
 * A message with files, as Discord takes it: multipart with the JSON in `payload_json` and each file as
 * `files[n]`, described by `attachments[n]` (its filename and its alt text as `description`). The message and its
 * files are one request, so a post is never sent without its images. A video is streamed from storage into the
 * request as it is sent, never held in memory; images are read whole.
 */
async function withFiles(
  payload: Record<string, unknown>,
  media: PublishMedia[],
): Promise<FormData | StreamedForm> {
  const names = media.map((m, i) => `${i + 1}.${m.mime.split("/")[1]?.replace(/[^a-z0-9]/g, "") || "bin"}`);
  const attachments = media.map((m, i) => ({
    id: String(i),
    filename: names[i],
    ...(m.alt ? { description: m.alt.slice(0, 1024) } : {}),
  }));
  const json = JSON.stringify({ ...payload, attachments });
  const videos = media.map((m, i) => streamedVideo(m, names[i]!));
  if (videos.some((v) => v !== null)) {
    const form = new StreamedForm();
    form.append("payload_json", json);
    for (const [i, m] of media.entries())
      form.append(`files[${i}]`, videos[i] ?? (await inMemory(m, names[i]!)));
    return form;
  }
  const form = new FormData();
  form.append("payload_json", json);
  for (const [i, m] of media.entries())
    form.append(
      `files[${i}]`,
      new Blob([(await m.read!()) as Uint8Array<ArrayBuffer>], { type: m.mime }),
      names[i],
    );
  return form;
}

/** An image beside a video in one streamed body: small, so read whole. */
async function inMemory(m: PublishMedia, filename: string): Promise<StreamedFile> {
  const bytes = (await m.read!()) as Uint8Array<ArrayBuffer>;
  return { filename, type: m.mime, size: bytes.byteLength, open: async () => new Blob([bytes]).stream() };
}

async function publish(app: App, input: PublishInput): Promise<PublishOutcome> {
  const w = parseWebhookUrl(input.channel.secrets.webhook_url);
  if (!w) return { kind: "auth_revoked", message: BAD_URL };
  const guild = str(input.channel.settings.guild_id);
  let permalink: string | null = input.done.find((d) => d.index === 0)?.remote_url ?? null;
  for (const part of input.parts)
    if (part.media.length > MAX_FILES || part.media.some((m) => !m.read && !streamedVideo(m, "")))
      return {
        kind: "rejected",
        code: "media_rejected",
        message: `Discord takes at most ${MAX_FILES} files per message, each with its bytes; nothing was posted.`,
      };
  for (const part of remainingParts(input.parts, input.done)) {
    if (input.signal.aborted)
      return { kind: "transient", message: `Stopped before part ${part.index + 1} was sent.` };
    const content = escapeDiscord(part.text);
    // The escapes count toward Discord's limit: say so plainly instead of sending what Discord would refuse.
    const length = [...content].length;
    if (length > MAX_CONTENT)
      return {
        kind: "rejected",
        code: "rejected",
        message: `Part ${part.index + 1} is ${length} characters once Discord's formatting characters are escaped; Discord takes ${MAX_CONTENT}. Shorten it or use fewer of * _ ~ \` | [ ] < >.`,
      };
    const payload = { content, allowed_mentions: { parse: [] } };
    let res: NetworkResponse;
    try {
      const files = part.media.length ? await withFiles(payload, part.media) : null;
      res = await networkRequest(app, {
        method: "POST",
        // wait=true: Discord answers with the message, so svc learns its ID.
        url: `${webhookUrl(app, w)}?wait=true`,
        ...(files ? { multipart: files } : { json: payload }),
        // A video takes longer to send than a message.
        ...(files instanceof StreamedForm ? { timeoutMs: VIDEO_UPLOAD_MS } : {}),
        signal: input.signal,
      });
    } catch (err) {
      if (!(err instanceof NoAnswer)) throw err;
      return noAnswerOutcome("Discord", err, part.index);
    }
    if (res.status !== 200) return refusal(res, part.index);
    const id = str(field(res.json, "id"));
    const channel = str(field(res.json, "channel_id"));
    if (!id)
      return { kind: "uncertain", message: `Discord took part ${part.index + 1} but sent no message ID.` };
    const url = guild && channel ? `https://discord.com/channels/${guild}/${channel}/${id}` : null;
    await input.onPartPublished({ index: part.index, remote_id: id, remote_url: url });
    if (part.index === 0) permalink = url;
  }
  return { kind: "published", permalink };
}

export const discordAdapter: Adapter = { provider: "discord", idempotent: false, publish, connect };
