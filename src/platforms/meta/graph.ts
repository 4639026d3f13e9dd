// What Facebook Pages, Instagram and Threads share: Graph API calls with a token, Meta's error object
// ({error: {message, type, code, error_subcode, is_transient}}) and how each documented error is classified
// (developers.facebook.com/docs/graph-api/guides/error-handling; Instagram's error codes at
// developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/error-codes), and the wait for a
// media container that the network prepares before it can be published (Instagram, Threads, a Page's video).
import type { App } from "../../app/context.ts";
import type { DeleteOutcome, PublishedPart, PublishInput, PublishOutcome } from "../adapter.ts";
import {
  field,
  type NetworkRequest,
  type NetworkResponse,
  NoAnswer,
  networkRequest,
  str,
} from "../plumbing/http.ts";

export const GRAPH_VERSION = "v25.0";
/** Meta's rate limits reset within the hour; its usage header says when when it is sent. */
const RATE_LIMIT_FALLBACK_MS = 60 * 60_000;

export interface GraphError {
  status: number;
  code: number | null;
  subcode: number | null;
  type: string | null;
  message: string;
  transient: boolean;
  /** Instagram's and Threads' words for people (error_user_msg), when given. */
  userMessage: string | null;
}

const num = (v: unknown) =>
  typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : null;

export function graphError(res: NetworkResponse): GraphError {
  const e = field(res.json, "error");
  return {
    status: res.status,
    code: num(field(e, "code")),
    subcode: num(field(e, "error_subcode")),
    type: str(field(e, "type")),
    message: str(field(e, "message")) ?? (res.text.slice(0, 300) || `HTTP ${res.status}`),
    transient: field(e, "is_transient") === true,
    userMessage: str(field(e, "error_user_msg")),
  };
}

/** When the business use case usage header says access comes back (minutes), else the fallback. */
function retryAfter(res: NetworkResponse): number {
  for (const h of ["x-business-use-case-usage", "x-app-usage", "x-page-usage"]) {
    const raw = res.headers.get(h);
    if (!raw) continue;
    try {
      const minutes = JSON.stringify(JSON.parse(raw)).match(/"estimated_time_to_regain_access":(\d+)/);
      if (minutes && Number(minutes[1]) > 0) return Number(minutes[1]) * 60_000;
    } catch {
      // An unreadable header says nothing; the fallback holds.
    }
  }
  return RATE_LIMIT_FALLBACK_MS;
}

/** Expired, revoked or invalidated tokens (190, and its subcodes 458–467), and the session errors 102. */
const AUTH_CODES = new Set([102, 190]);
/** Application (4), user (17), Page (32), custom (613) and business-use-case (80001–80014) rate limits. */
const RATE_CODES = new Set([4, 17, 32, 613, 80001, 80002, 80005, 80006, 80008, 80014]);
/** Instagram's "media could not be fetched" and format refusals (error_subcode), a medium's fault. */
const MEDIA_SUBCODES = new Set([2207003, 2207004, 2207005, 2207009, 2207010, 2207026, 2207052, 2207053]);
/** Instagram's publishing limit (25 API posts in 24 hours): code 9, subcode 2207042. */
const PUBLISH_LIMIT_SUBCODE = 2207042;

/**
 * A Graph refusal as an outcome. `posted` says whether the call that failed might itself have posted (the final
 * publish, a Page's feed post): a server error there is uncertain; anywhere before it, trying again is safe.
 */
export function refusal(
  network: string,
  res: NetworkResponse,
  what: string,
  posted: boolean,
): PublishOutcome {
  const e = graphError(res);
  const said = `${e.message}${e.code !== null ? ` (code ${e.code}${e.subcode ? `/${e.subcode}` : ""})` : ""}`;
  const message = `${network} answered ${res.status} to ${what}: ${said}${e.userMessage ? ` — ${e.userMessage}` : ""}`;
  if ((e.code !== null && AUTH_CODES.has(e.code)) || (res.status === 401 && e.code === null))
    return { kind: "auth_revoked", message };
  if (e.code !== null && RATE_CODES.has(e.code))
    return { kind: "rate_limited", retryAfterMs: retryAfter(res), message };
  // The limit counts the last 24 hours, so a slot frees as the oldest post ages out: asked again in an hour.
  if (e.subcode === PUBLISH_LIMIT_SUBCODE)
    return { kind: "rate_limited", retryAfterMs: RATE_LIMIT_FALLBACK_MS, message };
  // Missing permission (10, 200–299): the app or the person lacks the right; signing in again with it fixes it.
  if (e.code === 10 || (e.code !== null && e.code >= 200 && e.code < 300))
    return { kind: "rejected", code: "unauthorized", message: `${message}; nothing was posted.` };
  if (e.subcode !== null && MEDIA_SUBCODES.has(e.subcode))
    return { kind: "rejected", code: "media_rejected", message: `${message}; nothing was posted.` };
  if (e.transient || e.code === 1 || e.code === 2 || res.status >= 500)
    return posted
      ? { kind: "uncertain", message }
      : { kind: "transient", message: `${message}; nothing was posted.` };
  return { kind: "rejected", code: "rejected", message: `${message}; nothing was posted.` };
}

export const isOutcome = (r: NetworkResponse | PublishOutcome): r is PublishOutcome =>
  "kind" in r && !("status" in r);

/** One Graph call; no answer becomes an outcome (`posted`: the call may have posted). */
export async function graphCall(
  app: App,
  network: string,
  what: string,
  posted: boolean,
  req: NetworkRequest,
): Promise<NetworkResponse | PublishOutcome> {
  try {
    return await networkRequest(app, { timeoutMs: 60_000, ...req });
  } catch (err) {
    if (!(err instanceof NoAnswer)) throw err;
    if (err.refused) return { kind: "rejected", code: "network", message: `${network}: ${err.message}` };
    if (err.sent === "maybe_sent" && posted)
      return { kind: "uncertain", message: `${network}: ${err.message} during ${what}.` };
    return { kind: "transient", message: `${network}: ${err.message} during ${what}; nothing was posted.` };
  }
}

export const withQuery = (url: string, q: Record<string, string>) => {
  const u = new URL(url);
  for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
  return u.href;
};

/**
 * Waits for a container the network prepares (it fetches the media from the signed link, and a video is
 * processed) until it is ready to publish. `read` asks its state once: "ready", "failed" with the network's
 * reason, or "waiting". Like X's video processing wait, it asks at growing intervals until the publish's own
 * deadline (the worker renews the target's lease meanwhile, and a publish carrying a video has 20 minutes);
 * stopped by that deadline, the attempt ends as transient: the container was never published, so a later attempt
 * makes a new one and nothing is posted twice.
 */
export async function waitForContainer(
  network: string,
  what: string,
  signal: AbortSignal,
  read: () => Promise<
    { state: "ready" } | { state: "failed"; why: string } | { state: "waiting" } | PublishOutcome
  >,
  opts: { firstMs?: number; maxMs?: number } = {},
): Promise<PublishOutcome | null> {
  let wait = opts.firstMs ?? 1000;
  for (;;) {
    const r = await read();
    if ("kind" in r) return r;
    if (r.state === "ready") return null;
    if (r.state === "failed")
      return {
        kind: "rejected",
        code: "media_rejected",
        message: `${network} could not prepare ${what}: ${r.why}; nothing was posted.`,
      };
    if (signal.aborted)
      return { kind: "transient", message: `${network} was still preparing ${what}; nothing was posted.` };
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, wait);
      signal.addEventListener(
        "abort",
        () => {
          clearTimeout(t);
          resolve();
        },
        { once: true },
      );
    });
    wait = Math.min(wait * 2, opts.maxMs ?? 15_000);
  }
}

/**
 * The post, then its first comment when the target has one (the part after the post), as the Page's or account's
 * comment on its own post (POST /{id}/comments on Facebook and Instagram). A later attempt resumes after what was
 * posted: the post is never made again for a comment that failed.
 */
export async function withFirstComment(
  app: App,
  input: PublishInput,
  o: {
    network: string;
    /** The Graph API's base for the network (its origin and version). */
    api: string;
    headers: Record<string, string>;
    publishPost: (input: PublishInput) => Promise<PublishOutcome>;
    /** The comment's own address, from the post's and the comment's ID. */
    commentUrl: (post: PublishedPart, commentId: string) => string | null;
  },
): Promise<PublishOutcome> {
  let post = input.done.find((d) => d.index === 0) ?? null;
  if (!post) {
    const out = await o.publishPost({
      ...input,
      onPartPublished: async (p) => {
        post = p;
        await input.onPartPublished(p);
      },
    });
    if (out.kind !== "published") return out;
  }
  const comment = input.parts.find((p) => p.index === 1);
  if (post && comment && !input.done.some((d) => d.index === 1)) {
    const res = await graphCall(app, o.network, "the first comment", true, {
      method: "POST",
      url: `${o.api}/${encodeURIComponent(post.remote_id)}/comments`,
      headers: o.headers,
      json: { message: comment.text },
      signal: input.signal,
    });
    if (isOutcome(res)) return res;
    if (res.status !== 200) return refusal(o.network, res, "the first comment", true);
    const id = str(field(res.json, "id"));
    if (!id) return { kind: "uncertain", message: `${o.network} accepted the first comment but sent no ID.` };
    await input.onPartPublished({ index: 1, remote_id: id, remote_url: o.commentUrl(post, id) });
  }
  return { kind: "published", permalink: post?.remote_url ?? null };
}

/** Graph's "does not exist" (100 with subcode 33) or a 404: the object is gone. */
export const isGone = (res: NetworkResponse) => {
  const e = graphError(res);
  return res.status === 404 || (e.code === 100 && e.subcode === 33);
};

/** DELETE /{id} for each object in the order given; one already gone counts as deleted. */
export async function deleteObjects(
  app: App,
  network: string,
  o: { api: string; headers: Record<string, string>; ids: string[] },
): Promise<DeleteOutcome> {
  for (const id of o.ids) {
    let res: NetworkResponse;
    try {
      res = await networkRequest(app, {
        method: "DELETE",
        url: `${o.api}/${encodeURIComponent(id)}`,
        headers: o.headers,
        timeoutMs: 15_000,
      });
    } catch (e) {
      return { kind: "failed", message: `${network}: ${e instanceof Error ? e.message : String(e)}` };
    }
    if (res.status !== 200 && !isGone(res))
      return { kind: "failed", message: `${network} answered ${res.status}: ${graphError(res).message}` };
  }
  return { kind: "deleted" };
}
