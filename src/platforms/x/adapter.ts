// X through its API v2 with the account's OAuth 2 user token (a channel connected by signing in; src/platforms/
// signin), or with pasted OAuth 1.0a keys, each request then signed (auth.ts). Each part is POST /2/tweets; a thread is a reply chain (`reply.in_reply_to_tweet_id` names the part
// before). X makes no idempotency promise: an uncertain create is settled by reading the account's recent posts
// (GET /2/users/{id}/tweets), else a person decides. Counts come from GET /2/tweets/{id} (public_metrics).
// Errors as docs.x.com "Response codes and errors" lists them: 401 (token expired or revoked), 403 (not allowed:
// duplicate content, a suspended account, a missing scope), 429 with x-rate-limit-reset (Unix seconds), 5xx.
// Images (up to four, on the first part) or a video go up through the chunked media upload first (media.ts); a
// video is waited for until X has processed it.
import type { App } from "../../app/context.ts";
import type {
  Adapter,
  ConnectOutcome,
  EngagementOutcome,
  FindOutcome,
  PublishedPart,
  PublishInput,
  PublishOutcome,
  PublishPart,
  RemoteInput,
} from "../adapter.ts";
import {
  field,
  msUntil,
  type NetworkResponse,
  NoAnswer,
  networkRequest,
  noAnswerOutcome,
  remainingParts,
  str,
} from "../plumbing/http.ts";
import { providerOrigin } from "../plumbing/origins.ts";
import { xAuthHeaders } from "./auth.ts";
import { uploadImages } from "./media.ts";
import { X_API, xAccount } from "./signin.ts";

const RATE_LIMIT_FALLBACK_MS = 15 * 60_000;

const api = (app: App) => providerOrigin(app, "x", X_API).replace(/\/+$/, "");

/** X's words for a refusal: `detail`, else `title`, else the first of `errors`. */
function errorText(res: NetworkResponse): string {
  const errors = field(res.json, "errors");
  const first = Array.isArray(errors)
    ? (str(field(errors[0], "message")) ?? str(field(errors[0], "detail")))
    : null;
  return (
    str(field(res.json, "detail")) ??
    str(field(res.json, "title")) ??
    first ??
    (res.text.slice(0, 300) || `HTTP ${res.status}`)
  );
}

function refusal(app: App, res: NetworkResponse, part: PublishPart): PublishOutcome {
  const message = `X answered ${res.status} to part ${part.index + 1}: ${errorText(res)}`;
  if (res.status === 429)
    return {
      kind: "rate_limited",
      retryAfterMs: msUntil(app, res.headers.get("x-rate-limit-reset")) ?? RATE_LIMIT_FALLBACK_MS,
      message,
    };
  if (res.status === 401) return { kind: "auth_revoked", message };
  if (res.status === 403 && /duplicate/i.test(message))
    return { kind: "rejected", code: "duplicate", message };
  // 503 is X turning the request away before handling it ("over capacity"); other 5xx may come after a create.
  if (res.status === 503) return { kind: "transient", message };
  if (res.status >= 500) return { kind: "uncertain", message };
  return { kind: "rejected", code: "rejected", message };
}

const permalink = (settings: Record<string, unknown>, id: string) =>
  `https://x.com/${str(settings.username) ?? "i"}/status/${id}`;

async function publish(app: App, input: PublishInput): Promise<PublishOutcome> {
  const posted: PublishedPart[] = [...input.done].sort((a, b) => a.index - b.index);
  for (const part of remainingParts(input.parts, input.done)) {
    if (input.signal.aborted)
      return { kind: "transient", message: `Stopped before part ${part.index + 1} was sent.` };
    const previous = posted.at(-1);
    // Images (on the first part) are uploaded first and attached by ID.
    let mediaIds: string[] = [];
    if (part.media.length) {
      const up = await uploadImages(
        {
          app,
          api: api(app),
          authorize: (method, url) => xAuthHeaders(input.channel.secrets, method, url),
          signal: input.signal,
        },
        part.media,
      );
      if ("outcome" in up) return up.outcome;
      mediaIds = up.ids;
    }
    let res: NetworkResponse;
    const url = `${api(app)}/2/tweets`;
    try {
      res = await networkRequest(app, {
        method: "POST",
        url,
        headers: await xAuthHeaders(input.channel.secrets, "POST", url),
        signal: input.signal,
        json: {
          text: part.text,
          ...(mediaIds.length ? { media: { media_ids: mediaIds } } : {}),
          ...(previous ? { reply: { in_reply_to_tweet_id: previous.remote_id } } : {}),
        },
      });
    } catch (err) {
      if (!(err instanceof NoAnswer)) throw err;
      return noAnswerOutcome("X", err, part.index);
    }
    if (res.status !== 201) return refusal(app, res, part);
    const id = str(field(field(res.json, "data"), "id"));
    if (!id) return { kind: "uncertain", message: `X accepted part ${part.index + 1} but sent no post ID.` };
    const done = { index: part.index, remote_id: id, remote_url: permalink(input.channel.settings, id) };
    await input.onPartPublished(done);
    posted.push(done);
  }
  return { kind: "published", permalink: posted[0]?.remote_url ?? null };
}

async function connect(
  app: App,
  input: { secrets: Record<string, string>; signal: AbortSignal },
): Promise<ConnectOutcome> {
  const r = await xAccount(app, input.secrets, input.signal);
  if (r.kind !== "accounts") return r;
  const a = r.accounts[0]!;
  return {
    kind: "connected",
    account: { display_name: a.display_name, handle: a.handle, profile_url: a.profile_url },
    // The user ID and username, as a sign-in stores them: permalinks and settling read them.
    settings: a.settings,
  };
}

async function engagement(
  app: App,
  input: RemoteInput & { parts: PublishedPart[] },
): Promise<EngagementOutcome> {
  const first = [...input.parts].sort((a, b) => a.index - b.index)[0];
  if (!first) return { kind: "failed", message: "The target has no published part to read." };
  let res: NetworkResponse;
  try {
    const url = `${api(app)}/2/tweets/${encodeURIComponent(first.remote_id)}?post.fields=public_metrics`;
    res = await networkRequest(app, {
      method: "GET",
      url,
      headers: await xAuthHeaders(input.channel.secrets, "GET", url),
      timeoutMs: 15_000,
    });
  } catch (err) {
    return { kind: "failed", message: `X: ${err instanceof Error ? err.message : String(err)}` };
  }
  const data = field(res.json, "data");
  // A deleted post comes back as 200 with only `errors` (type resource-not-found), or as 404.
  if (res.status === 404 || (res.status === 200 && !data)) return { kind: "deleted" };
  if (res.status !== 200) return { kind: "failed", message: `X answered ${res.status}: ${errorText(res)}` };
  const m = field(data, "public_metrics");
  const n = (name: string) => {
    const v = field(m, name);
    return typeof v === "number" && Number.isFinite(v) ? v : 0;
  };
  return {
    kind: "counts",
    counts: {
      likes: n("like_count"),
      reposts: n("repost_count"),
      replies: n("reply_count"),
      quotes: n("quote_count"),
      views: typeof field(m, "impression_count") === "number" ? n("impression_count") : null,
    },
  };
}

const normal = (s: string) => s.replace(/\s+/g, " ").trim();

/**
 * Looks among the account's posts since the attempt for the parts an uncertain attempt may have made: each
 * remaining part, in order, with the same text and in the thread of the first part. X shortens links to t.co in the
 * text it returns, so a part with a link is matched on the text outside its links.
 */
async function find(
  app: App,
  input: RemoteInput & { parts: PublishPart[]; done: PublishedPart[]; since: number },
): Promise<FindOutcome> {
  const userId = str(input.channel.settings.user_id);
  if (!userId)
    return { kind: "unknown", message: "The channel does not know its X user ID; a person decides." };
  try {
    const since = new Date(input.since - 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    const url = `${api(app)}/2/users/${encodeURIComponent(userId)}/tweets?max_results=20&start_time=${since}&post.fields=created_at,conversation_id`;
    const res = await networkRequest(app, {
      method: "GET",
      url,
      headers: await xAuthHeaders(input.channel.secrets, "GET", url),
      signal: input.signal,
      timeoutMs: 15_000,
    });
    // Reading posts needs an access level some apps do not have: then a person decides.
    if (res.status !== 200)
      return { kind: "unknown", message: `X answered ${res.status}: ${errorText(res)}` };
    const rows = field(res.json, "data");
    // The description offers no field naming the post a reply answers; `conversation_id` names the thread's
    // first post, which places each part: the first is its own conversation, later parts are in the first's.
    const posts = (Array.isArray(rows) ? rows : []).map((p) => ({
      id: str(field(p, "id")),
      text: normal((str(field(p, "text")) ?? "").replace(/https?:\/\/\S+/g, "")),
      conversation: str(field(p, "conversation_id")),
    }));
    const parts: PublishedPart[] = [...input.done].sort((a, b) => a.index - b.index);
    for (const [i, part] of remainingParts(input.parts, input.done).entries()) {
      const root = parts[0]?.remote_id ?? null;
      const want = normal(part.text.replace(/https?:\/\/\S+/g, ""));
      const hit = posts.find((p) => p.id && p.text === want && p.conversation === (root ?? p.id));
      if (!hit) {
        if (i === 0) return { kind: "not_found" };
        return {
          kind: "unknown",
          message: `X shows the thread up to part ${part.index} but not part ${part.index + 1}.`,
        };
      }
      parts.push({
        index: part.index,
        remote_id: hit.id!,
        remote_url: permalink(input.channel.settings, hit.id!),
      });
    }
    return { kind: "found", permalink: parts[0]?.remote_url ?? null, parts };
  } catch (err) {
    return { kind: "unknown", message: `X: ${err instanceof Error ? err.message : String(err)}` };
  }
}

export const xAdapter: Adapter = {
  provider: "x",
  idempotent: false,
  publish,
  connect,
  engagement,
  find,
  consistencyWindowMs: 60_000,
};
