// Slack, from api.slack.com: the Web API (auth.test, conversations.info, chat.postMessage, chat.getPermalink,
// files.getUploadURLExternal, the upload to the URL it gives, files.completeUploadExternal;
// errors as HTTP 200 with ok: false; 429 with Retry-After) and incoming webhooks (/services/T…/B…/…, answering
// "ok" or a plain-text error such as no_service or channel_is_archived). Workspaces, bot tokens, channels with
// members, messages with what Slack would show and whom it would ping.
//
// Web API requests and answers are checked against slackapi/slack-api-specs (Swagger 2.0, converted to
// OpenAPI 3 in memory with swagger2openapi). Its known defect: the token is modelled as a `token` header or query
// parameter while clients send `Authorization: Bearer`; for validation only, the bearer token is copied where
// the description expects it. Incoming webhooks have no published description: they are served unchecked.
// The description predates Slack's external upload (its README's known defects): files.getUploadURLExternal and
// files.completeUploadExternal are checked here against their documentation pages instead (uploadRequestProblems,
// completeRequestProblems, and the answers' shapes beside them), and the upload URL, which Slack documents only as
// "a POST of the file's bytes, raw or multipart", is checked for exactly the announced length.
// @ts-expect-error swagger2openapi ships no types
import converter from "swagger2openapi";
import { type Answer, type StandIn, startStandIn } from "./server.ts";
import { loadSpec, type SpecRequest } from "./spec.ts";

export interface SlackChannel {
  id: string;
  name: string;
  archived: boolean;
  /** Bot user IDs invited to the channel. */
  members: Set<string>;
}

export interface SlackBot {
  token: string;
  user_id: string;
  bot_id: string;
}

export interface SlackHook {
  path: string;
  channel: SlackChannel;
  removed: boolean;
  /** The URL a person copies from Slack. */
  url: string;
}

export interface SlackMessage {
  channel: string;
  ts: string;
  /** The text as sent (Slack's escapes included). */
  text: string;
  via: "webhook" | "api";
  mrkdwn: boolean;
  /** Files shared with the message (files.completeUploadExternal). */
  files?: SlackFile[];
}

/** A file of the external upload: announced, then its bytes received, then shared into a channel once. */
export interface SlackFile {
  id: string;
  filename: string;
  length: number;
  alt_txt: string | null;
  title: string | null;
  /** The bytes received at the upload URL (null until then). */
  bytes: Uint8Array | null;
  type: string | null;
  shared: boolean;
}

export interface SlackStandIn extends StandIn {
  team: { id: string; name: string; url: string };
  addChannel(name: string): SlackChannel;
  addBot(channels: SlackChannel[]): SlackBot;
  addHook(channel: SlackChannel): SlackHook;
  revoke(bot: SlackBot): void;
  messages: SlackMessage[];
  files: SlackFile[];
  /** The workspace's admins turned file uploads off (Slack answers file_uploads_disabled). */
  uploadsDisabled: boolean;
}

// files.getUploadURLExternal, from https://docs.slack.dev/reference/methods/files.getUploadURLExternal/:
// arguments `filename` (string, required), `length` (integer, required: the file's size in bytes), `alt_txt` and
// `snippet_type` (optional strings); the answer is { ok: true, upload_url, file_id }.
function uploadRequestProblems(p: Record<string, string>): string[] {
  const out: string[] = [];
  for (const k of Object.keys(p))
    if (!["filename", "length", "alt_txt", "snippet_type", "token"].includes(k))
      out.push(`unknown argument ${k}`);
  if (!p.filename) out.push("filename is required");
  if (!/^\d+$/.test(p.length ?? "")) out.push("length is required, an integer");
  if (p.alt_txt !== undefined && p.alt_txt.length > 1000) out.push("alt_txt is longer than 1000 characters");
  return out;
}

// files.completeUploadExternal, from https://docs.slack.dev/reference/methods/files.completeUploadExternal/:
// arguments `files` (required: a JSON array of { id, title? }), `channel_id`, `channels`, `thread_ts`,
// `initial_comment`, `blocks` (optional); the answer is { ok: true, files: [{ id, title, ... }] }.
function completeRequestProblems(p: Record<string, string>): string[] {
  const out: string[] = [];
  for (const k of Object.keys(p))
    if (!["files", "channel_id", "channels", "thread_ts", "initial_comment", "blocks", "token"].includes(k))
      out.push(`unknown argument ${k}`);
  let files: unknown;
  try {
    files = JSON.parse(p.files ?? "");
  } catch {
    out.push("files is required, a JSON array");
    return out;
  }
  if (!Array.isArray(files) || files.length === 0) out.push("files is required, a non-empty array");
  else
    for (const f of files)
      if (
        typeof f !== "object" ||
        f === null ||
        typeof (f as { id?: unknown }).id !== "string" ||
        !["string", "undefined"].includes(typeof (f as { title?: unknown }).title)
      )
        out.push("each of files is { id: string, title?: string }");
  return out;
}

/** What Slack shows for message text: its three escapes undone. */
export function displayedText(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** Whom Slack would notify: <!channel>, <!here>, <!everyone> and <@U…> written as control sequences. */
export function pings(text: string): string[] {
  return [...text.matchAll(/<(!channel|!here|!everyone|@[UW][A-Z0-9]+)(\|[^>]*)?>/g)].map((m) => m[1]!);
}

/**
 * Swagger 2.0 to OpenAPI 3, in memory. The conversion marks some untyped schemas `nullable`, which ajv refuses
 * ("nullable cannot be used without type"); a schema without a type already admits null, so the flag is dropped.
 */
async function toOpenApi(doc: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { openapi } = await converter.convertObj(doc, { patch: true, warnOnly: true });
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (typeof node !== "object" || node === null) return;
    const o = node as Record<string, unknown>;
    if (o.nullable === true && o.type === undefined) delete o.nullable;
    for (const v of Object.values(o)) visit(v);
  };
  visit(openapi);
  return openapi;
}

export async function startSlack(): Promise<SlackStandIn> {
  const spec = await loadSpec({ file: "slack/slack_web_openapi_v2.json", convert: toOpenApi, coerce: true });
  const team = { id: "T0SVC0001", name: "Svc Workspace", url: "" };
  const channels: SlackChannel[] = [];
  const bots: SlackBot[] = [];
  const revoked = new Set<string>();
  const hooks: SlackHook[] = [];
  const messages: SlackMessage[] = [];
  const files: SlackFile[] = [];
  const flags = { uploadsDisabled: false };
  let n = 0;
  const id = (prefix: string) => `${prefix}0SVC${String(++n).padStart(5, "0")}`;
  let clock = 1_700_000_000;
  const nextTs = () => `${++clock}.000100`;

  const fail = (error: string, status = 200, headers?: Record<string, string>): Answer => ({
    status,
    body: { ok: false, error },
    ...(headers ? { headers } : {}),
  });
  const botOf = (headers: Record<string, string>) => {
    const token = /^Bearer (.+)$/.exec(headers.authorization ?? "")?.[1];
    return token && !revoked.has(token) ? bots.find((b) => b.token === token) : undefined;
  };

  const s = startStandIn({
    spec,
    route(path) {
      if (path.startsWith("/services/"))
        return { path, unchecked: "Slack publishes no description of incoming webhooks" };
      if (path.startsWith("/upload/v1/"))
        return { path, unchecked: "Slack documents its upload URLs only as where the file's bytes go" };
      if (path === "/api/files.getUploadURLExternal" || path === "/api/files.completeUploadExternal")
        return {
          path: path.slice(4),
          unchecked: "not in the published description: checked against Slack's documentation below",
        };
      const m = /^\/api(\/[a-z.A-Z]+)$/.exec(path);
      return m ? { path: m[1]! } : null;
    },
    // Known defect: the description wants the token as a parameter; clients send it as a bearer header.
    adapt(req: SpecRequest): SpecRequest {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const where = spec?.parameterIn(req.method, req.path, "token");
      if (!token || !where) return req;
      return where === "header"
        ? { ...req, headers: { ...req.headers, token } }
        : { ...req, query: { ...req.query, token } };
    },
    invalid: () => fail("invalid_arg_name"),
    failsOn: (req) =>
      req.path === "/chat.postMessage" ||
      req.path === "/files.completeUploadExternal" ||
      req.path.startsWith("/services/"),
    failure(kind, req) {
      const hook = req.path.startsWith("/services/");
      if (kind === "rate_limited")
        return hook
          ? { status: 429, text: "rate_limited", headers: { "retry-after": "30" } }
          : fail("rate_limited", 429, { "retry-after": "30" });
      if (kind === "revoked") return hook ? { status: 404, text: "no_service" } : fail("invalid_auth");
      return hook ? { status: 500, text: "internal_error" } : { status: 503, text: "service_unavailable" };
    },
    // The Web API reports errors with HTTP 200 and ok: false; the description lists their shape as `default`.
    validateAs: (a) =>
      a.status === 200 && (a.body as { ok?: boolean } | undefined)?.ok === false ? "default" : a.status,
    documentedElsewhere: { 503: "api.slack.com/apis/web-api: 5xx while Slack is degraded" },
    handle(req) {
      if (req.path.startsWith("/services/")) {
        const hook = hooks.find((h) => h.path === req.path && !h.removed);
        if (!hook) return { status: 404, text: "no_service" };
        if (req.method !== "POST") return { status: 405, text: "invalid_method" };
        const body = req.body as { text?: unknown; mrkdwn?: unknown } | undefined;
        if (typeof body?.text !== "string" || body.text === "") return { status: 400, text: "no_text" };
        if (hook.channel.archived) return { status: 410, text: "channel_is_archived" };
        messages.push({
          channel: hook.channel.id,
          ts: nextTs(),
          text: body.text,
          via: "webhook",
          mrkdwn: body.mrkdwn !== false,
        });
        return { status: 200, text: "ok" };
      }
      if (req.path.startsWith("/upload/v1/")) {
        const f = files.find((x) => `/upload/v1/${x.id}` === req.path);
        if (!f || f.bytes !== null || req.method !== "POST") return { status: 404, text: "not_found" };
        const sent = (req.body as Record<string, { bytes?: Uint8Array; type?: string } | string> | undefined)
          ?.filename;
        if (typeof sent !== "object" || !sent.bytes) {
          s.problems.push("upload: no file in the multipart field `filename`");
          return { status: 400, text: "invalid_upload" };
        }
        if (sent.bytes.byteLength !== f.length) {
          s.problems.push(`upload: ${sent.bytes.byteLength} bytes where ${f.length} were announced`);
          return { status: 400, text: "length_mismatch" };
        }
        f.bytes = sent.bytes;
        f.type = sent.type ?? null;
        return { status: 200, text: `OK - ${f.length}` };
      }
      const bot = botOf(req.headers);
      const params = { ...req.query, ...((req.body as Record<string, string>) ?? {}) };
      if (!req.headers.authorization) return fail("not_authed");
      if (!bot) return fail("invalid_auth");
      switch (req.path) {
        case "/auth.test":
          return {
            status: 200,
            body: {
              ok: true,
              url: team.url,
              team: team.name,
              user: "svcbot",
              team_id: team.id,
              user_id: bot.user_id,
              bot_id: bot.bot_id,
            },
          };
        case "/conversations.info": {
          const c = channels.find((x) => x.id === params.channel);
          if (!c) return fail("channel_not_found");
          return {
            status: 200,
            body: {
              ok: true,
              channel: {
                id: c.id,
                name: c.name,
                is_channel: true,
                is_archived: c.archived,
                is_member: c.members.has(bot.user_id),
              },
            },
          };
        }
        case "/chat.postMessage": {
          const c = channels.find((x) => x.id === params.channel);
          if (!c) return fail("channel_not_found");
          if (!c.members.has(bot.user_id)) return fail("not_in_channel");
          if (c.archived) return fail("is_archived");
          if (!params.text) return fail("no_text");
          const ts = nextTs();
          messages.push({
            channel: c.id,
            ts,
            text: params.text,
            via: "api",
            mrkdwn: params.mrkdwn !== "false",
          });
          return {
            status: 200,
            body: {
              ok: true,
              channel: c.id,
              ts,
              message: {
                type: "message",
                subtype: "bot_message",
                text: params.text,
                ts,
                bot_id: bot.bot_id,
                user: bot.user_id,
              },
            },
          };
        }
        case "/files.getUploadURLExternal": {
          const found = uploadRequestProblems(params);
          if (found.length) {
            s.problems.push(...found.map((p) => `request files.getUploadURLExternal: ${p}`));
            return fail("invalid_arguments");
          }
          if (flags.uploadsDisabled) return fail("file_uploads_disabled");
          const f: SlackFile = {
            id: id("F"),
            filename: params.filename!,
            length: Number(params.length),
            alt_txt: params.alt_txt ?? null,
            title: null,
            bytes: null,
            type: null,
            shared: false,
          };
          files.push(f);
          return { status: 200, body: { ok: true, upload_url: `${s.url}/upload/v1/${f.id}`, file_id: f.id } };
        }
        case "/files.completeUploadExternal": {
          const found = completeRequestProblems(params);
          if (found.length) {
            s.problems.push(...found.map((p) => `request files.completeUploadExternal: ${p}`));
            return fail("invalid_arguments");
          }
          const listed = JSON.parse(params.files!) as { id: string; title?: string }[];
          const mine = listed.map((x) => files.find((f) => f.id === x.id));
          if (mine.some((f) => !f || f.bytes === null)) return fail("file_not_found");
          if (mine.some((f) => f!.shared)) return fail("file_already_completed");
          let ts: string | null = null;
          if (params.channel_id) {
            const c = channels.find((x) => x.id === params.channel_id);
            if (!c) return fail("channel_not_found");
            if (!c.members.has(bot.user_id)) return fail("not_in_channel");
            if (c.archived) return fail("is_archived");
            ts = nextTs();
            messages.push({
              channel: c.id,
              ts,
              text: params.initial_comment ?? "",
              via: "api",
              mrkdwn: true,
              files: mine as SlackFile[],
            });
          }
          mine.forEach((f, i) => {
            f!.shared = true;
            f!.title = listed[i]!.title ?? f!.filename;
          });
          return {
            status: 200,
            body: {
              ok: true,
              files: mine.map((f) => ({
                id: f!.id,
                title: f!.title,
                name: f!.filename,
                mimetype: f!.type,
                size: f!.length,
                permalink: `${team.url}files/${bot.user_id}/${f!.id}/${f!.filename}`,
              })),
            },
          };
        }
        case "/chat.getPermalink": {
          const m = messages.find((x) => x.channel === params.channel && x.ts === params.message_ts);
          if (!m) return fail("message_not_found");
          return {
            status: 200,
            body: {
              ok: true,
              channel: m.channel,
              permalink: `${team.url}archives/${m.channel}/p${m.ts.replace(".", "")}`,
            },
          };
        }
      }
      return fail("unknown_method");
    },
  });
  team.url = `${s.url}/`;
  return {
    ...s,
    team,
    messages,
    files,
    get uploadsDisabled() {
      return flags.uploadsDisabled;
    },
    set uploadsDisabled(v: boolean) {
      flags.uploadsDisabled = v;
    },
    addChannel(name) {
      const c = { id: id("C"), name, archived: false, members: new Set<string>() };
      channels.push(c);
      return c;
    },
    addBot(inChannels) {
      const b = {
        token: `xoxb-${Date.now()}-${crypto.randomUUID().replaceAll("-", "")}`,
        user_id: id("U"),
        bot_id: id("B"),
      };
      bots.push(b);
      for (const c of inChannels) c.members.add(b.user_id);
      return b;
    },
    addHook(channel) {
      const path = `/services/${team.id}/${id("B")}/${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
      const h = { path, channel, removed: false, url: `https://hooks.slack.com${path}` };
      hooks.push(h);
      return h;
    },
    revoke: (bot) => revoked.add(bot.token),
  };
}
