// A Mastodon server, from docs.joinmastodon.org (methods/accounts, methods/statuses, api/rate-limits,
// api/guidelines idempotency): accounts with access tokens, statuses with reply chains, the account's timeline,
// media uploads (methods/media: 200, or 202 then 206 while processing) attached by media_ids, Idempotency-Key
// honoured for an hour, character limit, and the documented failures. With `gab: true` it is Gab
// (the same API on one server, a 3000-character limit, and no idempotency promise: the key is ignored).
// Every request and answer is checked against the Mastodon OpenAPI description (abraham/mastodon-openapi).
import { randomBytes } from "node:crypto";
import { type Answer, type Incoming, type StandIn, startStandIn, type UploadedFile } from "./server.ts";
import { loadSpec } from "./spec.ts";

export interface MastodonAccount {
  id: string;
  username: string;
  display_name: string;
  token: string;
}

export interface StoredStatus {
  id: string;
  account_id: string;
  /** The text as it was sent. */
  text: string;
  in_reply_to_id: string | null;
  created_at: string;
  favourites_count: number;
  reblogs_count: number;
  replies_count: number;
  deleted: boolean;
  media_ids: string[];
}

/** An upload (POST /api/v2/media): attached to at most one status. */
export interface StoredMedia {
  id: string;
  account_id: string;
  file: UploadedFile;
  description: string | null;
  /** GET /api/v1/media/:id answers 206 this many more times before 200. */
  processing: number;
  status_id: string | null;
}

export interface MastodonStandIn extends StandIn {
  addAccount(username: string, display_name?: string): MastodonAccount;
  revoke(token: string): void;
  /** Statuses ever created, deleted ones included, oldest first. */
  statuses: StoredStatus[];
  /** Uploads, oldest first. */
  media: StoredMedia[];
  host: string;
}

const IDEMPOTENCY_MS = 60 * 60_000;

const escapeHtml = (s: string) =>
  s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

/** Renders text as Mastodon does: escaped, paragraphs and line breaks, links with hidden scheme spans. */
export function renderContent(text: string): string {
  const linkify = (line: string) =>
    escapeHtml(line).replace(/https?:\/\/[^\s<]+/g, (url) => {
      const m = /^(https?:\/\/)(.*)$/.exec(url)!;
      return `<a href="${url}" target="_blank" rel="nofollow noopener"><span class="invisible">${m[1]}</span><span class="">${m[2]}</span></a>`;
    });
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${p.split("\n").map(linkify).join("<br />")}</p>`)
    .join("");
}

/** Mastodon's count: code points, every link 23. */
function length(text: string): number {
  return [...text.replace(/https?:\/\/\S+/g, "x".repeat(23))].length;
}

/**
 * Known defect (1) of the description (api-specs/README.md): the Idempotency-Key header is typed as an object.
 * It is a string; the copy read into memory is corrected before validating.
 */
function idempotencyKeyIsAString(doc: Record<string, unknown>): Record<string, unknown> {
  const paths = doc.paths as Record<
    string,
    Record<string, { parameters?: { name: string; schema?: unknown }[] }>
  >;
  for (const item of Object.values(paths))
    for (const op of Object.values(item))
      for (const p of op?.parameters ?? [])
        if (p.name.toLowerCase() === "idempotency-key") p.schema = { type: "string" };
  return doc;
}

/**
 * `asyncMedia`: every upload is answered 202 and read as 206 (processing) this many times before 200, as Mastodon
 * does for large files; else images are answered 200 (processed at once) and video 202 once.
 */
/**
 * A defect of the description not in api-specs/README.md: POST /api/v1/statuses takes `oneOf` TextStatus,
 * MediaStatus, PollStatus, but a status with text AND media_ids (which Mastodon documents: "If media_ids is
 * provided, status becomes optional") matches both TextStatus and MediaStatus, so `oneOf` refuses it. The copy
 * read into memory takes `anyOf` there.
 */
function statusBodyIsAnyOf(doc: Record<string, unknown>): Record<string, unknown> {
  const paths = doc.paths as Record<
    string,
    Record<string, { requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> } }>
  >;
  const schema = paths["/api/v1/statuses"]?.post?.requestBody?.content?.["application/json"]?.schema;
  if (schema?.oneOf) {
    schema.anyOf = schema.oneOf;
    delete schema.oneOf;
  }
  return doc;
}

export async function startMastodon(
  opts: { gab?: boolean; asyncMedia?: number } = {},
): Promise<MastodonStandIn> {
  const spec = await loadSpec({
    file: "mastodon/schema.json",
    convert: (d) => statusBodyIsAnyOf(idempotencyKeyIsAString(d)),
  });
  const maxChars = opts.gab ? 3000 : 500;
  const accounts: MastodonAccount[] = [];
  const revoked = new Set<string>();
  const statuses: StoredStatus[] = [];
  const media: StoredMedia[] = [];
  const keys = new Map<string, { statusId: string; at: number }>();
  let nextId = 110_000_000_000_000_000n;
  let origin = "";
  const host = () => new URL(origin).host;

  const error = (status: number, message: string, headers?: Record<string, string>): Answer => ({
    status,
    body: { error: message },
    ...(headers ? { headers } : {}),
  });
  const accountOf = (req: Incoming) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!token || revoked.has(token)) return null;
    return accounts.find((a) => a.token === token) ?? null;
  };
  const created = "2024-01-01T00:00:00.000Z";
  const accountJson = (a: MastodonAccount) => ({
    id: a.id,
    username: a.username,
    acct: a.username,
    display_name: a.display_name,
    locked: false,
    bot: false,
    group: false,
    indexable: true,
    discoverable: true,
    created_at: created,
    note: "",
    url: `${origin}/@${a.username}`,
    uri: `${origin}/users/${a.username}`,
    avatar: `${origin}/avatars/original/missing.png`,
    avatar_static: `${origin}/avatars/original/missing.png`,
    header: `${origin}/headers/original/missing.png`,
    header_static: `${origin}/headers/original/missing.png`,
    followers_count: 0,
    following_count: 0,
    statuses_count: statuses.filter((s) => s.account_id === a.id && !s.deleted).length,
    last_status_at: null,
    emojis: [],
    fields: [],
  });
  const credentialJson = (a: MastodonAccount) => ({
    ...accountJson(a),
    source: {
      privacy: "public",
      sensitive: false,
      language: null,
      note: "",
      fields: [],
      follow_requests_count: 0,
      indexable: true,
    },
    role: { id: "-99", name: "", permissions: "0", color: "", highlighted: false },
  });
  const statusJson = (s: StoredStatus) => {
    const a = accounts.find((x) => x.id === s.account_id)!;
    return {
      id: s.id,
      created_at: s.created_at,
      in_reply_to_id: s.in_reply_to_id,
      in_reply_to_account_id: s.in_reply_to_id ? a.id : null,
      sensitive: false,
      spoiler_text: "",
      visibility: "public",
      language: null,
      uri: `${origin}/users/${a.username}/statuses/${s.id}`,
      url: `${origin}/@${a.username}/${s.id}`,
      replies_count: s.replies_count,
      reblogs_count: s.reblogs_count,
      favourites_count: s.favourites_count,
      edited_at: null,
      content: renderContent(s.text),
      reblog: null,
      account: accountJson(a),
      media_attachments: s.media_ids.map((id) => mediaJson(media.find((x) => x.id === id)!)),
      mentions: [],
      tags: [],
      emojis: [],
      card: null,
      poll: null,
    };
  };

  const mediaType = (m: StoredMedia) =>
    m.file.type.startsWith("image/gif")
      ? "gifv"
      : m.file.type.split("/")[0] === "image" || m.file.type.split("/")[0] === "video"
        ? m.file.type.split("/")[0]!
        : "unknown";
  const mediaJson = (m: StoredMedia) => ({
    id: m.id,
    type: mediaType(m),
    url: m.processing > 0 ? null : `${origin}/system/media_attachments/files/${m.id}/original`,
    preview_url: `${origin}/system/media_attachments/files/${m.id}/small`,
    remote_url: null,
    meta: {},
    description: m.description,
    blurhash: null,
  });
  const uploadMedia = (req: Incoming): Answer => {
    const me = accountOf(req);
    if (!me) return error(401, "The access token is invalid");
    const body = req.body as { file?: UploadedFile | string; description?: string };
    if (typeof body.file !== "object") return error(422, "Validation failed: File can't be blank");
    if (!/^(image|video|audio)\//.test(body.file.type))
      return error(422, "Validation failed: File content type is invalid");
    if (body.description && [...body.description].length > 1500)
      return error(422, "Validation failed: Description is too long (maximum is 1500 characters)");
    nextId += 1n;
    const video = body.file.type.startsWith("video/");
    const m: StoredMedia = {
      id: String(nextId),
      account_id: me.id,
      file: body.file,
      description: body.description ?? null,
      processing: opts.asyncMedia ?? (video ? 1 : 0),
      status_id: null,
    };
    media.push(m);
    return { status: m.processing > 0 ? 202 : 200, body: mediaJson(m) };
  };
  const readMedia = (req: Incoming, id: string): Answer => {
    const me = accountOf(req);
    if (!me) return error(401, "The access token is invalid");
    const m = media.find((x) => x.id === id && x.account_id === me.id);
    if (!m) return error(404, "Record not found");
    if (m.processing > 0) {
      m.processing--;
      return { status: 206 };
    }
    return { status: 200, body: mediaJson(m) };
  };

  const createStatus = (req: Incoming): Answer => {
    const me = accountOf(req);
    if (!me) return error(401, "The access token is invalid");
    const body = req.body as { status?: string; in_reply_to_id?: string; media_ids?: string[] };
    const text = body.status ?? "";
    const mediaIds = body.media_ids ?? [];
    if (text.trim() === "" && mediaIds.length === 0)
      return error(422, "Validation failed: Text can't be blank");
    if (mediaIds.length > 4) return error(422, "Validation failed: Media attachments is too many");
    for (const id of mediaIds) {
      const m = media.find((x) => x.id === id && x.account_id === me.id);
      if (!m) return error(422, "Validation failed: Media attachments is invalid");
      if (m.processing > 0) return error(422, "Cannot attach files that have not finished processing");
      if (m.status_id) return error(422, "Validation failed: Media attachments is already attached");
    }
    if (length(text) > maxChars)
      return error(422, `Validation failed: Text character limit of ${maxChars} exceeded`);
    if (body.in_reply_to_id && !statuses.some((s) => s.id === body.in_reply_to_id && !s.deleted))
      return error(404, "Record not found");
    const key = opts.gab ? undefined : req.headers["idempotency-key"];
    const remembered = key ? keys.get(`${me.id}:${key}`) : undefined;
    if (remembered && Date.now() - remembered.at < IDEMPOTENCY_MS)
      return { status: 200, body: statusJson(statuses.find((s) => s.id === remembered.statusId)!) };
    nextId += 1n;
    const s: StoredStatus = {
      id: String(nextId),
      account_id: me.id,
      text,
      in_reply_to_id: body.in_reply_to_id ?? null,
      created_at: new Date().toISOString(),
      favourites_count: 0,
      reblogs_count: 0,
      replies_count: 0,
      deleted: false,
      media_ids: mediaIds,
    };
    for (const id of mediaIds) media.find((x) => x.id === id)!.status_id = s.id;
    statuses.push(s);
    const parent = statuses.find((x) => x.id === s.in_reply_to_id);
    if (parent) parent.replies_count++;
    if (key) keys.set(`${me.id}:${key}`, { statusId: s.id, at: Date.now() });
    return { status: 200, body: statusJson(s) };
  };

  const s = startStandIn({
    spec,
    route: (path) => (path.startsWith("/api/") ? { path } : null),
    invalid: (problems) => error(422, `Validation failed: ${problems.join("; ")}`),
    failsOn: (req) => req.method === "POST",
    failure(kind) {
      if (kind === "rate_limited")
        return error(429, "Too many requests", {
          "x-ratelimit-limit": "300",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset": new Date(Date.now() + 120_000).toISOString(),
        });
      if (kind === "revoked") return error(401, "The access token was revoked");
      return error(503, "Service Unavailable");
    },
    handle(req) {
      const p = req.path;
      if (req.method === "GET" && p === "/api/v1/accounts/verify_credentials") {
        const me = accountOf(req);
        return me ? { status: 200, body: credentialJson(me) } : error(401, "The access token is invalid");
      }
      if (req.method === "POST" && p === "/api/v1/statuses") return createStatus(req);
      if (req.method === "POST" && p === "/api/v2/media") return uploadMedia(req);
      const upload = /^\/api\/v1\/media\/([^/]+)$/.exec(p);
      if (req.method === "GET" && upload) return readMedia(req, upload[1]!);
      const timeline = /^\/api\/v1\/accounts\/([^/]+)\/statuses$/.exec(p);
      if (req.method === "GET" && timeline) {
        if (!accountOf(req)) return error(401, "The access token is invalid");
        if (!accounts.some((a) => a.id === timeline[1])) return error(404, "Record not found");
        const limit = Math.min(40, Number(req.query.limit ?? 20));
        const mine = statuses.filter((x) => x.account_id === timeline[1] && !x.deleted).reverse();
        return { status: 200, body: mine.slice(0, limit).map(statusJson) };
      }
      const one = /^\/api\/v1\/statuses\/([^/]+)$/.exec(p);
      if (req.method === "DELETE" && one) {
        // Only the author deletes; the answer is the status as it was (its text kept for a redraft).
        const me = accountOf(req);
        if (!me) return error(401, "The access token is invalid");
        const st = statuses.find((x) => x.id === one[1] && !x.deleted && x.account_id === me.id);
        if (!st) return error(404, "Record not found");
        st.deleted = true;
        return { status: 200, body: statusJson(st) };
      }
      if (req.method === "GET" && one) {
        if (!accountOf(req)) return error(401, "The access token is invalid");
        const st = statuses.find((x) => x.id === one[1] && !x.deleted);
        return st ? { status: 200, body: statusJson(st) } : error(404, "Record not found");
      }
      return error(404, "Record not found");
    },
  });
  origin = s.url;
  return {
    ...s,
    statuses,
    media,
    host: host(),
    addAccount(username, display_name = username) {
      nextId += 1n;
      const a = {
        id: String(nextId),
        username,
        display_name,
        token: randomBytes(24).toString("base64url"),
      };
      accounts.push(a);
      return a;
    },
    revoke: (token) => revoked.add(token),
  };
}
