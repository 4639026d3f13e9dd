// X's API v2 as an account signed in with OAuth 2 sees it: the user a token belongs to (docs.x.com "Users lookup:
// GET /2/users/me"), asked of the real authorization server that issued it (oidc-provider,
// test/helpers/oauth-server.ts), so a revoked or expired token is refused as X refuses it; posts created with
// POST /2/tweets (a reply names the post it answers; the same text twice is refused as duplicate content), read
// with GET /2/tweets/{id} (public_metrics) and listed with GET /2/users/{id}/tweets; images and video through the chunked
// media upload (initialize, append, finalize; a video then processed, asked with STATUS) with alt text from POST /2/media/metadata ("Media upload";
// "Response codes and errors").
// An account may instead be reached with OAuth 1.0a user-context keys (the description's `UserToken` scheme,
// "OAuth"; docs.x.com "OAuth 1.0a: user context" and "Creating a signature"): the stand-in issues consumer keys and
// access tokens and checks each request's HMAC-SHA1 signature itself (RFC 5849 §3.4, written here independently of
// the library svc signs with), its timestamp (within 5 minutes) and that its nonce was not seen before.
// Every request and answer is checked against xdevplatform/xdk's specs/openapi.json.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { type Answer, type StandIn, startStandIn, type UploadedFile } from "./server.ts";
import { loadSpec } from "./spec.ts";

export interface XUser {
  id: string;
  name: string;
  username: string;
}

export interface XMedia {
  id: string;
  type: string;
  bytes: Uint8Array;
  alt: string | null;
  owner: string;
  /** A video's processing states still to come (the first is the current one); empty once processed. */
  processing: string[];
}

export interface XPost {
  id: string;
  author: string;
  text: string;
  replyTo: string | null;
  media: XMedia[];
  createdAt: number;
  likes: number;
  deleted: boolean;
}

export interface XStandIn extends StandIn {
  posts: XPost[];
  media: Map<string, XMedia>;
  /** The X user behind an authorization-server account (made on first use). */
  userOf(accountId: string): XUser;
  /** A developer app's consumer key and secret for OAuth 1.0a. */
  oauth1App(): { api_key: string; api_key_secret: string };
  /** An access token and its secret for an account, issued to an app made by oauth1App. */
  oauth1Token(apiKey: string, accountId: string): { access_token: string; access_token_secret: string };
  /** Revokes an OAuth 1.0a access token (the person removed the app's access). */
  revokeOAuth1(accessToken: string): void;
  /** Requests refused for their OAuth 1.0a signature, timestamp or nonce, with why. */
  oauth1Refusals: string[];
}

/** RFC 3986 percent-encoding as RFC 5849 §3.6 asks for it. */
const pct = (v: string) =>
  encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

// X answers an unusable token with an RFC 7807 body of type about:blank, which its description does not list.
const unauthorized: Answer = {
  status: 401,
  body: { title: "Unauthorized", type: "about:blank", status: 401, detail: "Unauthorized" },
};

export async function startX(auth: { accountOf(token: string): Promise<string | null> }): Promise<XStandIn> {
  // Multipart fields are strings (segment_index "0"): ajv reads them as the numbers the description declares.
  const spec = await loadSpec({ file: "x/openapi.json", coerce: true });
  const uploads = new Map<
    string,
    { type: string; total: number; segments: Map<number, Uint8Array>; owner: string }
  >();
  const media = new Map<string, XMedia>();
  const users = new Map<string, XUser>();
  const posts: XPost[] = [];
  /** The first post of the thread a post is in (X's conversation_id). */
  const rootOf = (p: XPost): string => {
    const parent = p.replyTo ? posts.find((x) => x.id === p.replyTo) : undefined;
    return parent ? rootOf(parent) : p.id;
  };
  let next = 1_500_000_000_000_000_000n;
  const consumers = new Map<string, string>();
  const accessTokens = new Map<string, { secret: string; consumer: string; account: string }>();
  const nonces = new Set<string>();
  const oauth1Refusals: string[] = [];
  /** The account an OAuth 1.0a-signed request acts for, or why it is refused. */
  const oauth1Account = (req: {
    method: string;
    rawPath: string;
    headers: Record<string, string>;
    query: Record<string, string>;
  }): { account: string } | { refused: string } => {
    const header = req.headers.authorization ?? "";
    const params: Record<string, string> = {};
    for (const m of header.slice("OAuth ".length).matchAll(/([\w-]+)="([^"]*)"/g))
      params[decodeURIComponent(m[1]!)] = decodeURIComponent(m[2]!);
    const consumerSecret = consumers.get(params.oauth_consumer_key ?? "");
    const token = accessTokens.get(params.oauth_token ?? "");
    if (consumerSecret === undefined) return { refused: "unknown consumer key" };
    if (!token || token.consumer !== params.oauth_consumer_key) return { refused: "unknown access token" };
    if (params.oauth_signature_method !== "HMAC-SHA1" || params.oauth_version !== "1.0")
      return { refused: "not HMAC-SHA1 1.0" };
    if (Math.abs(Number(params.oauth_timestamp) - Date.now() / 1000) > 300)
      return { refused: "stale timestamp" };
    const nonce = `${params.oauth_consumer_key}:${params.oauth_timestamp}:${params.oauth_nonce}`;
    if (!params.oauth_nonce || nonces.has(nonce)) return { refused: "nonce used before" };
    // §3.4.1: the method, the base URL (scheme, host, path) and every oauth_ and query parameter but the
    // signature, each encoded, sorted by name then value, joined with & and =.
    const signed = [
      ...Object.entries(params).filter(([k]) => k.startsWith("oauth_") && k !== "oauth_signature"),
      ...Object.entries(req.query),
    ]
      .map(([k, v]) => [pct(k), pct(v)] as const)
      .sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1))
      .map(([k, v]) => `${k}=${v}`)
      .join("&");
    const base = [
      req.method.toUpperCase(),
      pct(`http://${req.headers.host}${req.rawPath}`),
      pct(signed),
    ].join("&");
    const expected = createHmac("sha1", `${pct(consumerSecret)}&${pct(token.secret)}`)
      .update(base)
      .digest();
    const given = Buffer.from(params.oauth_signature ?? "", "base64");
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return { refused: "bad signature" };
    nonces.add(nonce);
    return { account: token.account };
  };
  const userOf = (accountId: string): XUser => {
    let u = users.get(accountId);
    if (!u) {
      u = {
        id: String(++next),
        name: `${accountId[0]!.toUpperCase()}${accountId.slice(1)}`,
        username: accountId,
      };
      users.set(accountId, u);
    }
    return u;
  };
  const s = startStandIn({
    spec,
    route: (path) => (path.startsWith("/2/") ? { path } : null),
    invalid: (problems) => ({
      status: 400,
      body: {
        errors: problems.map((p) => ({ message: p })),
        title: "Invalid Request",
        detail: "One or more parameters to your request was invalid.",
        type: "https://api.x.com/2/problems/invalid-request",
      },
    }),
    documentedElsewhere: {
      401: "docs.x.com/x-api/fundamentals/response-codes-and-errors: 401 Unauthorized (about:blank)",
      403: "docs.x.com/x-api/fundamentals/response-codes-and-errors: 403 Forbidden (duplicate content; about:blank)",
      429: "docs.x.com/x-api/fundamentals/rate-limits: 429 Too Many Requests with x-rate-limit-reset",
      503: "docs.x.com/x-api/fundamentals/response-codes-and-errors: 503 Service Unavailable",
    },
    failure(kind) {
      if (kind === "rate_limited")
        return {
          status: 429,
          body: { title: "Too Many Requests", detail: "Too Many Requests", type: "about:blank", status: 429 },
          headers: { "x-rate-limit-reset": String(Math.floor(Date.now() / 1000) + 60) },
        };
      if (kind === "revoked") return unauthorized;
      return { status: 503, body: { title: "Service Unavailable", type: "about:blank", status: 503 } };
    },
    async handle(req) {
      let account: string | null = null;
      if ((req.headers.authorization ?? "").startsWith("OAuth ")) {
        const r = oauth1Account(req);
        if ("refused" in r) {
          oauth1Refusals.push(`${req.method} ${req.rawPath}: ${r.refused}`);
          return unauthorized;
        }
        account = r.account;
      } else {
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
        account = token ? await auth.accountOf(token) : null;
      }
      if (!account) return unauthorized;
      if (req.method === "GET" && req.path === "/2/users/me") {
        const u = userOf(account);
        const withImage = (req.query["user.fields"] ?? "").split(",").includes("profile_image_url");
        return {
          status: 200,
          body: {
            data: {
              ...u,
              ...(withImage
                ? { profile_image_url: `https://pbs.twimg.com/profile_images/${u.id}/a_normal.jpg` }
                : {}),
            },
          },
        };
      }
      const me = userOf(account);
      const bad = (detail: string): Answer => ({
        status: 400,
        body: {
          errors: [{ message: detail }],
          title: "Invalid Request",
          detail,
          type: "https://api.x.com/2/problems/invalid-request",
        },
      });
      if (req.method === "POST" && req.path === "/2/media/upload/initialize") {
        const b = req.body as { media_type: string; total_bytes: number };
        const id = String(++next);
        uploads.set(id, { type: b.media_type, total: b.total_bytes, segments: new Map(), owner: me.id });
        return { status: 200, body: { data: { id, expires_after_secs: 86400, media_key: `3_${id}` } } };
      }
      const append = /^\/2\/media\/upload\/(\d+)\/append$/.exec(req.path);
      if (req.method === "POST" && append) {
        const u = uploads.get(append[1]!);
        if (!u || u.owner !== me.id) return bad("The upload session is not known.");
        const b = req.body as { media: UploadedFile; segment_index: string };
        u.segments.set(Number(b.segment_index), b.media.bytes);
        return { status: 200, body: { data: { expires_at: Math.floor(Date.now() / 1000) + 86400 } } };
      }
      const finalize = /^\/2\/media\/upload\/(\d+)\/finalize$/.exec(req.path);
      if (req.method === "POST" && finalize) {
        const u = uploads.get(finalize[1]!);
        if (!u || u.owner !== me.id) return bad("The upload session is not known.");
        const parts = [...u.segments.entries()].sort((x, y) => x[0] - y[0]).map(([, b]) => b);
        const bytes = new Uint8Array(parts.reduce((n, b) => n + b.byteLength, 0));
        let at = 0;
        for (const b of parts) {
          bytes.set(b, at);
          at += b.byteLength;
        }
        if (bytes.byteLength !== u.total) return bad(`Received ${bytes.byteLength} bytes of ${u.total}.`);
        const isVideo = u.type.startsWith("video/");
        // A video is processed after finalize: pending, then in progress, then succeeded ("Media upload": poll
        // STATUS after check_after_secs). Until then no post may name it.
        media.set(finalize[1]!, {
          id: finalize[1]!,
          type: u.type,
          bytes,
          alt: null,
          owner: me.id,
          // A file that is no MP4 (no ftyp box) fails processing.
          processing: !isVideo
            ? []
            : new TextDecoder().decode(bytes.subarray(4, 8)) === "ftyp"
              ? ["pending", "in_progress", "succeeded"]
              : ["pending", "failed"],
        });
        return {
          status: 200,
          body: {
            data: {
              id: finalize[1]!,
              media_key: `${isVideo ? 7 : 3}_${finalize[1]}`,
              size: bytes.byteLength,
              expires_after_secs: 86400,
              ...(isVideo ? { processing_info: { state: "pending", check_after_secs: 1 } } : {}),
            },
          },
        };
      }
      if (req.method === "GET" && req.path === "/2/media/upload") {
        const m = media.get(String(req.query.media_id));
        if (!m || m.owner !== me.id) return bad("The media is not known.");
        m.processing.shift();
        const state = m.processing[0] ?? "succeeded";
        return {
          status: 200,
          body: {
            data: {
              id: m.id,
              media_key: `7_${m.id}`,
              size: m.bytes.byteLength,
              processing_info: {
                state,
                ...(state === "succeeded"
                  ? { progress_percent: 100 }
                  : { progress_percent: 50, check_after_secs: 1 }),
              },
            },
          },
        };
      }
      if (req.method === "POST" && req.path === "/2/media/metadata") {
        const b = req.body as { id: string; metadata?: { alt_text?: { text: string } } };
        const m = media.get(b.id);
        if (!m || m.owner !== me.id) return bad("The media is not known.");
        m.alt = b.metadata?.alt_text?.text ?? null;
        return { status: 200, body: { data: { id: m.id, associated_metadata: b.metadata ?? {} } } };
      }
      if (req.method === "POST" && req.path === "/2/tweets") {
        const body = req.body as {
          text: string;
          reply?: { in_reply_to_tweet_id: string };
          media?: { media_ids: string[] };
        };
        const attached = (body.media?.media_ids ?? []).map((id) => media.get(id));
        if (attached.some((m) => !m || m.owner !== me.id || (m.processing[0] ?? "succeeded") !== "succeeded"))
          return bad("Your media IDs are invalid.");
        if (posts.some((p) => p.author === me.id && p.text === body.text && !p.deleted))
          return {
            status: 403,
            body: {
              title: "Forbidden",
              type: "about:blank",
              status: 403,
              detail: "You are not allowed to create a Tweet with duplicate content.",
            },
          };
        const post: XPost = {
          id: String(++next),
          author: me.id,
          text: body.text,
          replyTo: body.reply?.in_reply_to_tweet_id ?? null,
          media: attached as XMedia[],
          createdAt: Date.now(),
          likes: 0,
          deleted: false,
        };
        posts.push(post);
        return {
          status: 201,
          body: { data: { id: post.id, text: post.text, edit_history_post_ids: [post.id] } },
        };
      }
      const one = /^\/2\/tweets\/(\d+)$/.exec(req.path);
      if (req.method === "GET" && one) {
        const p = posts.find((x) => x.id === one[1] && !x.deleted);
        if (!p)
          return {
            status: 200,
            body: {
              errors: [
                {
                  type: "https://api.x.com/2/problems/resource-not-found",
                  title: "Not Found Error",
                  detail: `Could not find post with id: [${one[1]}].`,
                  resource_type: "post",
                  parameter: "id",
                  value: one[1],
                  resource_id: one[1],
                },
              ],
            },
          };
        return {
          status: 200,
          body: {
            data: {
              id: p.id,
              text: p.text,
              edit_history_post_ids: [p.id],
              public_metrics: {
                like_count: p.likes,
                repost_count: Math.floor(p.likes / 4),
                reply_count: posts.filter((x) => x.replyTo === p.id).length,
                quote_count: 0,
                bookmark_count: 0,
                impression_count: p.likes * 20,
              },
            },
          },
        };
      }
      const timeline = /^\/2\/users\/(\d+)\/tweets$/.exec(req.path);
      if (req.method === "GET" && timeline) {
        const since = req.query.start_time ? Date.parse(req.query.start_time) : 0;
        const mine = posts
          .filter((p) => p.author === timeline[1] && !p.deleted && p.createdAt >= since)
          .reverse()
          .slice(0, Number(req.query.max_results ?? 10));
        return {
          status: 200,
          body: {
            data: mine.map((p) => ({
              id: p.id,
              text: p.text,
              edit_history_post_ids: [p.id],
              created_at: new Date(p.createdAt).toISOString(),
              conversation_id: rootOf(p),
            })),
            meta: {
              result_count: mine.length,
              ...(mine.length ? { newest_id: mine[0]!.id, oldest_id: mine.at(-1)!.id } : {}),
            },
          },
        };
      }
      return {
        status: 404,
        body: { title: "Not Found Error", detail: "Not found", type: "about:blank", status: 404 },
      };
    },
  });
  const secret = () => randomBytes(24).toString("base64url");
  return Object.assign(s, {
    userOf,
    posts,
    media,
    oauth1Refusals,
    oauth1App() {
      const app = { api_key: secret(), api_key_secret: secret() };
      consumers.set(app.api_key, app.api_key_secret);
      return app;
    },
    oauth1Token(apiKey: string, accountId: string) {
      const t = { access_token: `${userOf(accountId).id}-${secret()}`, access_token_secret: secret() };
      accessTokens.set(t.access_token, {
        secret: t.access_token_secret,
        consumer: apiKey,
        account: accountId,
      });
      return t;
    },
    revokeOAuth1(accessToken: string) {
      accessTokens.delete(accessToken);
    },
  });
}
