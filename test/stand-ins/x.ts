// X's API v2 as an account signed in with OAuth 2 sees it: the user a token belongs to (docs.x.com "Users lookup:
// GET /2/users/me"), asked of the real authorization server that issued it (oidc-provider,
// test/helpers/oauth-server.ts), so a revoked or expired token is refused as X refuses it; posts created with
// POST /2/tweets (a reply names the post it answers; the same text twice is refused as duplicate content), read
// with GET /2/tweets/{id} (public_metrics) and listed with GET /2/users/{id}/tweets ("Response codes and errors").
// Every request and answer is checked against xdevplatform/xdk's specs/openapi.json.
import { type Answer, type StandIn, startStandIn } from "./server.ts";
import { loadSpec } from "./spec.ts";

export interface XUser {
  id: string;
  name: string;
  username: string;
}

export interface XPost {
  id: string;
  author: string;
  text: string;
  replyTo: string | null;
  createdAt: number;
  likes: number;
  deleted: boolean;
}

export interface XStandIn extends StandIn {
  posts: XPost[];
  /** The X user behind an authorization-server account (made on first use). */
  userOf(accountId: string): XUser;
}

// X answers an unusable token with an RFC 7807 body of type about:blank, which its description does not list.
const unauthorized: Answer = {
  status: 401,
  body: { title: "Unauthorized", type: "about:blank", status: 401, detail: "Unauthorized" },
};

export async function startX(auth: { accountOf(token: string): Promise<string | null> }): Promise<XStandIn> {
  const spec = await loadSpec({ file: "x/openapi.json" });
  const users = new Map<string, XUser>();
  const posts: XPost[] = [];
  /** The first post of the thread a post is in (X's conversation_id). */
  const rootOf = (p: XPost): string => {
    const parent = p.replyTo ? posts.find((x) => x.id === p.replyTo) : undefined;
    return parent ? rootOf(parent) : p.id;
  };
  let next = 1_500_000_000_000_000_000n;
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
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const account = token ? await auth.accountOf(token) : null;
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
      if (req.method === "POST" && req.path === "/2/tweets") {
        const body = req.body as { text: string; reply?: { in_reply_to_tweet_id: string } };
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
  return Object.assign(s, { userOf, posts });
}
