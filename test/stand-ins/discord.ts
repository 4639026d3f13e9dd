// Discord's webhook API, from discord.com/developers/docs (resources/webhook: Get Webhook with Token, Execute
// Webhook; topics/rate-limits; topics/opcodes-and-status-codes): webhooks in guild channels, messages they post
// (with the mentions Discord would resolve under allowed_mentions), Unknown Webhook (10015) once deleted, and the
// documented failures. Mounted under /api/v10 as Discord is; every request and answer is checked against
// discord/discord-api-spec, whose paths start after that prefix.

import { type Answer, type StandIn, startStandIn, type UploadedFile } from "./server.ts";
import { loadSpec } from "./spec.ts";

export interface DiscordWebhook {
  id: string;
  token: string;
  name: string;
  guild_id: string;
  channel_id: string;
  deleted: boolean;
  /** The URL a person copies from Discord (the adapter keeps only its ID and token). */
  url: string;
}

export interface DiscordMessage {
  id: string;
  webhook_id: string;
  channel_id: string;
  /** The content as sent, markdown escapes included. */
  content: string;
  mention_everyone: boolean;
  mentions: string[];
  /** Files sent with the message (multipart `files[n]`), with the description given in `attachments`. */
  attachments: { id: string; filename: string; description: string | null; file: UploadedFile }[];
}

export interface DiscordStandIn extends StandIn {
  addWebhook(name: string): DiscordWebhook;
  messages: DiscordMessage[];
}

/** The text Discord shows for message content: a backslash before punctuation is dropped (simple-markdown). */
export function displayedText(content: string): string {
  return content.replace(/\\([^0-9A-Za-z\s])/g, "$1");
}

export async function startDiscord(): Promise<DiscordStandIn> {
  const spec = await loadSpec({ file: "discord/openapi.json" });
  const webhooks: DiscordWebhook[] = [];
  const messages: DiscordMessage[] = [];
  let next = 1_200_000_000_000_000_000n;
  const snowflake = () => String(++next);

  const unknownWebhook: Answer = { status: 404, body: { message: "Unknown Webhook", code: 10015 } };
  const find = (id: string, token: string) =>
    webhooks.find((w) => w.id === id && w.token === token && !w.deleted);
  const webhookJson = (w: DiscordWebhook) => ({
    application_id: null,
    avatar: null,
    channel_id: w.channel_id,
    guild_id: w.guild_id,
    id: w.id,
    name: w.name,
    type: 1,
    token: w.token,
  });
  const messageJson = (m: DiscordMessage, w: DiscordWebhook) => ({
    id: m.id,
    type: 0,
    content: m.content,
    channel_id: m.channel_id,
    author: {
      id: w.id,
      username: w.name,
      avatar: null,
      discriminator: "0000",
      public_flags: 0,
      flags: 0,
      global_name: null,
      primary_guild: null,
    },
    attachments: m.attachments.map((x) => ({
      id: x.id,
      filename: x.filename,
      size: x.file.bytes.length,
      url: `https://cdn.discordapp.com/attachments/${m.channel_id}/${x.id}/${x.filename}`,
      proxy_url: `https://media.discordapp.net/attachments/${m.channel_id}/${x.id}/${x.filename}`,
      content_type: x.file.type,
      ...(x.description ? { description: x.description } : {}),
    })),
    embeds: [],
    mentions: [],
    mention_roles: [],
    pinned: false,
    mention_everyone: m.mention_everyone,
    tts: false,
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    flags: 0,
    components: [],
    webhook_id: w.id,
  });

  const s = startStandIn({
    spec,
    route(path) {
      const m = /^\/api\/v10(\/webhooks\/([^/]+)\/([^/]+))$/.exec(path);
      return m ? { path: m[1]!, params: { id: m[2]!, token: m[3]! } } : null;
    },
    invalid: () => ({ status: 400, body: { message: "Invalid Form Body", code: 50035 } }),
    // A multipart message (reference/uploading-files) carries its JSON in `payload_json`, which is what the
    // description's body schema describes; the `files[n]` parts are checked by the handler.
    adapt(req) {
      const payload = (req.body as { payload_json?: unknown } | undefined)?.payload_json;
      return typeof payload === "string" ? { ...req, body: JSON.parse(payload) } : req;
    },
    failsOn: (req) => req.method === "POST",
    // Discord's 5xx come from its edge as plain pages, outside the description.
    documentedElsewhere: { 502: "topics/opcodes-and-status-codes: 502 Gateway Unavailable" },
    failure(kind) {
      if (kind === "rate_limited")
        return {
          status: 429,
          body: { message: "You are being rate limited.", retry_after: 12.5, global: false, code: 0 },
          headers: {
            "retry-after": "13",
            "x-ratelimit-limit": "5",
            "x-ratelimit-remaining": "0",
            "x-ratelimit-reset-after": "12.5",
            "x-ratelimit-scope": "shared",
          },
        };
      if (kind === "revoked") return unknownWebhook;
      return { status: 502, text: "502 Bad Gateway" };
    },
    handle(req, params) {
      const w = find(params.id!, params.token!);
      if (!w) return unknownWebhook;
      if (req.method === "GET") return { status: 200, body: webhookJson(w) };
      const raw = req.body as Record<string, unknown>;
      const body = (typeof raw?.payload_json === "string" ? JSON.parse(raw.payload_json) : raw) as {
        content?: string;
        allowed_mentions?: { parse?: string[] };
        attachments?: { id: string; filename?: string; description?: string }[];
      };
      const content = body.content ?? "";
      // Each attachment names a `files[<id>]` part; a file without its attachment entry is shown as is.
      const attachments: DiscordMessage["attachments"] = [];
      for (const [k, v] of Object.entries(raw ?? {})) {
        const n = /^files\[(\d+)\]$/.exec(k)?.[1];
        if (n === undefined || typeof v !== "object" || v === null) continue;
        const file = v as UploadedFile;
        const meta = body.attachments?.find((x) => x.id === n);
        attachments.push({
          id: snowflake(),
          filename: meta?.filename ?? file.name,
          description: meta?.description ?? null,
          file,
        });
      }
      if ((body.attachments ?? []).some((x) => !(`files[${x.id}]` in (raw ?? {}))))
        return { status: 400, body: { message: "Invalid Form Body", code: 50035 } };
      if (attachments.length > 10)
        return { status: 400, body: { message: "Invalid Form Body", code: 50035 } };
      if (content.trim() === "" && attachments.length === 0)
        return { status: 400, body: { message: "Cannot send an empty message", code: 50006 } };
      // What Discord would ping: with allowed_mentions absent, everything written; with parse: [] nothing.
      const parse = body.allowed_mentions?.parse ?? ["everyone", "users", "roles"];
      const m: DiscordMessage = {
        id: snowflake(),
        webhook_id: w.id,
        channel_id: w.channel_id,
        content,
        mention_everyone: parse.includes("everyone") && /(^|[^\\])@(everyone|here)/.test(content),
        mentions: parse.includes("users") ? [...content.matchAll(/<@!?(\d+)>/g)].map((x) => x[1]!) : [],
        attachments,
      };
      messages.push(m);
      // Without wait=true Discord answers 204 and no message.
      return req.query.wait === "true" ? { status: 200, body: messageJson(m, w) } : { status: 204 };
    },
  });
  return {
    ...s,
    messages,
    addWebhook(name) {
      const w: DiscordWebhook = {
        id: snowflake(),
        token: `tok_${crypto.randomUUID().replaceAll("-", "")}`,
        name,
        guild_id: snowflake(),
        channel_id: snowflake(),
        deleted: false,
        url: "",
      };
      w.url = `https://discord.com/api/webhooks/${w.id}/${w.token}`;
      webhooks.push(w);
      return w;
    },
  };
}
