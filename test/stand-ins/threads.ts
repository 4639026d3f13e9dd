// Threads' API (graph.threads.net) as a stateful stand-in. Threads publishes no machine-readable description
// (api-specs/README.md, "Not found"), so each endpoint follows its documentation page, named beside it, and the
// stand-in checks what it receives against what that page lists (unknown params, missing required ones, enum
// values, the 500-character text limit) and records any mismatch in `problems`:
// - GET  threads.net/oauth/authorize                 docs: threads/get-started/get-access-tokens-and-permissions
// - POST /oauth/access_token (code → short-lived)    docs: same page ({access_token, user_id})
// - GET  /access_token?grant_type=th_exchange_token  docs: threads/get-started/long-lived-tokens
// - GET  /refresh_access_token?grant_type=th_refresh_token   docs: same page
// - GET  /v1.0/me?fields=id,username,name            docs: threads/threads-profiles
// - POST /v1.0/{user}/threads (container)            docs: threads/posts (single, carousel; reply_to_id: threads/reply-management)
// - GET  /v1.0/{container}?fields=status,error_message   docs: threads/troubleshooting (publishing status)
// - POST /v1.0/{user}/threads_publish                docs: threads/posts
// - GET  /v1.0/{media}?fields=id,permalink           docs: threads/threads-media
// - GET  /v1.0/{media}/insights?metric=…             docs: threads/insights
// - DELETE /v1.0/{media}                             docs: threads/posts/delete-posts
// Errors as the Graph API sends them ({error: {message, type, code, error_subcode, fbtrace_id}}).
import { randomBytes } from "node:crypto";
import { graphErr } from "./meta.ts";
import { type Answer, type Incoming, type StandIn, startStandIn } from "./server.ts";

export interface ThreadsContainer {
  id: string;
  user: string;
  media_type: "TEXT" | "IMAGE" | "VIDEO" | "CAROUSEL";
  text: string | null;
  reply_to: string | null;
  children: string[];
  fetched: { type: string; bytes: number } | null;
  pollsLeft: number;
  failed: string | null;
  published: boolean;
}

export interface ThreadsPost {
  id: string;
  user: string;
  container: string;
  media_type: string;
  text: string | null;
  reply_to: string | null;
  deleted: boolean;
  insights: { views: number; likes: number; replies: number; reposts: number; quotes: number };
}

export interface ThreadsStandIn extends StandIn {
  containers: ThreadsContainer[];
  posts: ThreadsPost[];
  registerApp(clientId: string, clientSecret: string, redirectUri: string): void;
  /** Who signs in next (username); null declines. */
  signInAs: string | null;
  processingPolls: number;
  failNextVideo: string | null;
  /** Ends a user's tokens. */
  invalidate(username: string): void;
  /** The user ID of a username (made on first sign-in). */
  userId(username: string): string;
  /** Tokens issued (long-lived), newest last. */
  issued: string[];
}

const DOCS: Record<
  string,
  { params: Record<string, "string" | "bool" | "list" | "enum">; required?: string[] }
> = {
  "POST /threads": {
    params: {
      media_type: "enum",
      text: "string",
      image_url: "string",
      video_url: "string",
      is_carousel_item: "bool",
      children: "list",
      reply_to_id: "string",
      reply_control: "string",
      alt_text: "string",
      link_attachment: "string",
      quote_post_id: "string",
      topic_tag: "string",
    },
    required: ["media_type"],
  },
  "POST /threads_publish": { params: { creation_id: "string" }, required: ["creation_id"] },
};
const MEDIA_TYPES = ["TEXT", "IMAGE", "VIDEO", "CAROUSEL"];
const METRICS = ["views", "likes", "replies", "reposts", "quotes", "shares"];

export function startThreads(opts: { fetchMedia(url: string): Promise<Response> }): ThreadsStandIn {
  const containers: ThreadsContainer[] = [];
  const posts: ThreadsPost[] = [];
  const apps = new Map<string, { secret: string; redirects: Set<string> }>();
  const codes = new Map<string, { user: string; client: string; redirect: string }>();
  const tokens = new Map<string, { user: string; long: boolean }>();
  const users = new Map<string, string>();
  const issued: string[] = [];
  let next = 17_840_000_000;
  const newId = () => String(++next);
  let self: ThreadsStandIn;
  const problem = (p: string) => self.problems.push(p);
  const userId = (name: string) => {
    if (!users.has(name)) users.set(name, newId());
    return users.get(name)!;
  };
  const nameOf = (id: string) => [...users].find(([, v]) => v === id)?.[0] ?? null;
  const expired = () =>
    graphErr(400, {
      message: "Error validating access token: Session has expired.",
      code: 190,
      error_subcode: 463,
    });
  const given = (req: Incoming): Record<string, string> => ({
    ...req.query,
    ...(typeof req.body === "object" && req.body !== null ? (req.body as Record<string, string>) : {}),
  });
  /** Checks the params of a documented POST against its page; problems are recorded, and answered as (#100). */
  const check = (op: string, b: Record<string, string>): Answer | null => {
    const doc = DOCS[op]!;
    const found: string[] = [];
    for (const [k, v] of Object.entries(b)) {
      if (k === "access_token") continue;
      const type = doc.params[k];
      if (!type) found.push(`${op}: ${k} is not a documented param`);
      else if (type === "bool" && v !== "true" && v !== "false")
        found.push(`${op}: ${k} must be true or false`);
      else if (type === "enum" && !MEDIA_TYPES.includes(v))
        found.push(`${op}: media_type ${v} is not documented`);
    }
    for (const r of doc.required ?? []) if (b[r] === undefined) found.push(`${op}: ${r} is required`);
    if (b.text && [...b.text].length > 500) found.push(`${op}: text is over 500 characters`);
    if (!found.length) return null;
    for (const f of found) problem(`request ${f}`);
    return graphErr(400, { message: `(#100) ${found.join("; ")}`, code: 100 });
  };

  const s = startStandIn({
    spec: null,
    route: (path) => ({ path }),
    invalid: (problems) => graphErr(400, { message: problems.join("; "), code: 100 }),
    failure(kind) {
      if (kind === "rate_limited")
        return graphErr(400, {
          message: "(#4) Application request limit reached",
          code: 4,
          is_transient: true,
        });
      if (kind === "revoked") return expired();
      return graphErr(500, { message: "An unknown error has occurred.", code: 1, is_transient: true });
    },
    failsOn: (req) => req.path.startsWith("/v1.0/"),
    async handle(req) {
      const b = given(req);
      if (req.path === "/oauth/authorize") {
        const app = apps.get(b.client_id ?? "");
        if (!app?.redirects.has(b.redirect_uri ?? "")) return { status: 400, text: "Invalid redirect_uri" };
        for (const k of ["client_id", "redirect_uri", "scope", "response_type"])
          if (!b[k]) problem(`authorize: ${k} is required`);
        const back = new URL(b.redirect_uri!);
        if (b.state) back.searchParams.set("state", b.state);
        if (!self.signInAs) {
          back.searchParams.set("error", "access_denied");
          back.searchParams.set("error_description", "The user denied your request.");
        } else {
          const code = randomBytes(20).toString("base64url");
          codes.set(code, { user: userId(self.signInAs), client: b.client_id!, redirect: b.redirect_uri! });
          // Threads appends #_ to the code in the redirect (docs), which the client strips.
          back.searchParams.set("code", code);
        }
        return { status: 302, headers: { location: back.href } };
      }
      if (req.path === "/oauth/access_token" && req.method === "POST") {
        const app = apps.get(b.client_id ?? "");
        if (!app || app.secret !== b.client_secret)
          return graphErr(400, { message: "Error validating client secret.", code: 1 });
        if (b.grant_type !== "authorization_code")
          problem("access_token: grant_type must be authorization_code");
        const code = codes.get(b.code ?? "");
        codes.delete(b.code ?? "");
        if (!code || code.redirect !== b.redirect_uri || code.client !== b.client_id)
          return graphErr(400, { message: "Invalid verification code format.", code: 100 });
        const token = `THQ${randomBytes(20).toString("base64url")}`;
        tokens.set(token, { user: code.user, long: false });
        return { status: 200, body: { access_token: token, user_id: Number(code.user) } };
      }
      if (req.path === "/access_token" && req.method === "GET") {
        if (b.grant_type !== "th_exchange_token")
          problem("access_token: grant_type must be th_exchange_token");
        if (![...apps.values()].some((a) => a.secret === b.client_secret))
          return graphErr(400, { message: "Error validating client secret.", code: 1 });
        const who = tokens.get(b.access_token ?? "");
        if (!who || who.long) return expired();
        return long(who.user);
      }
      if (req.path === "/refresh_access_token" && req.method === "GET") {
        if (b.grant_type !== "th_refresh_token")
          problem("refresh_access_token: grant_type must be th_refresh_token");
        const who = tokens.get(b.access_token ?? "");
        if (!who?.long) return expired();
        return long(who.user);
      }
      const m = /^\/v1\.0\/([^/]+)(?:\/([^/]+))?$/.exec(req.path);
      if (!m) return graphErr(400, { message: "Unknown path components", code: 2500 });
      const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? b.access_token;
      const who = token ? tokens.get(token) : undefined;
      if (!who?.long) return expired();
      const [, id, edge] = m;
      const user = id === "me" ? who.user : id!;
      if (users.has(nameOf(user) ?? "") && !edge && req.method === "GET") {
        const name = nameOf(user)!;
        return {
          status: 200,
          body: pickFields({ id: user, username: name, name: `${name} (Threads)` }, b.fields),
        };
      }
      if (nameOf(user) && edge) {
        if (user !== who.user) return graphErr(403, { message: "(#10) Permission denied", code: 10 });
        if (req.method === "POST" && edge === "threads")
          return check("POST /threads", b) ?? (await container(user, b));
        if (req.method === "POST" && edge === "threads_publish") {
          const bad = check("POST /threads_publish", b);
          if (bad) return bad;
          const c = containers.find((x) => x.id === b.creation_id && x.user === user);
          if (!c) return graphErr(400, { message: "(#100) Invalid creation_id", code: 100 });
          if (c.published)
            return graphErr(400, {
              message: "The media has already been published",
              code: 24,
              error_subcode: 4279009,
            });
          if (c.failed || c.pollsLeft > 0)
            return graphErr(400, {
              message: "The media is not ready for publishing, please wait for a moment",
              code: 24,
              error_subcode: 4279009,
            });
          c.published = true;
          const post: ThreadsPost = {
            id: newId(),
            user,
            container: c.id,
            media_type:
              c.media_type === "CAROUSEL"
                ? "CAROUSEL_ALBUM"
                : c.media_type === "TEXT"
                  ? "TEXT_POST"
                  : c.media_type,
            text: c.text,
            reply_to: c.reply_to,
            deleted: false,
            insights: { views: 0, likes: 0, replies: 0, reposts: 0, quotes: 0 },
          };
          posts.push(post);
          return { status: 200, body: { id: post.id } };
        }
      }
      const c = containers.find((x) => x.id === id);
      if (c && req.method === "GET" && !edge) {
        if (c.pollsLeft > 0) c.pollsLeft--;
        const status = c.published
          ? "PUBLISHED"
          : c.failed
            ? "ERROR"
            : c.pollsLeft > 0
              ? "IN_PROGRESS"
              : "FINISHED";
        return {
          status: 200,
          body: pickFields({ id: c.id, status, ...(c.failed ? { error_message: c.failed } : {}) }, b.fields),
        };
      }
      const post = posts.find((x) => x.id === id);
      if (post) {
        if (post.user !== who.user) return graphErr(403, { message: "(#10) Permission denied", code: 10 });
        if (post.deleted)
          return graphErr(400, {
            message: `Object with ID '${id}' does not exist`,
            code: 100,
            error_subcode: 33,
            type: "GraphMethodException",
          });
        if (req.method === "DELETE" && !edge) {
          post.deleted = true;
          return { status: 200, body: { success: true, deleted_id: post.id } };
        }
        if (req.method === "GET" && !edge)
          return {
            status: 200,
            body: pickFields(
              {
                id: post.id,
                permalink: `https://www.threads.net/@${nameOf(post.user)}/post/${post.id}`,
                text: post.text ?? undefined,
                media_type: post.media_type,
              },
              b.fields,
            ),
          };
        if (req.method === "GET" && edge === "insights") {
          const metrics = (b.metric ?? "").split(",");
          for (const x of metrics)
            if (!METRICS.includes(x)) problem(`insights: metric ${x} is not documented`);
          return {
            status: 200,
            body: {
              data: metrics.map((name) => ({
                name,
                period: "lifetime",
                values: [{ value: post.insights[name as keyof ThreadsPost["insights"]] ?? 0 }],
                title: name,
                description: `The number of ${name}`,
                id: `${post.id}/insights/${name}/lifetime`,
              })),
            },
          };
        }
      }
      return graphErr(400, {
        message: `Object with ID '${id}' does not exist`,
        code: 100,
        error_subcode: 33,
        type: "GraphMethodException",
      });
    },
  });

  function pickFields(o: Record<string, unknown>, fields: string | undefined) {
    const asked = (fields ?? "id").split(",");
    return Object.fromEntries(
      Object.entries(o).filter(([k, v]) => v !== undefined && (k === "id" || asked.includes(k))),
    );
  }

  function long(user: string): Answer {
    const token = `THL${randomBytes(20).toString("base64url")}`;
    tokens.set(token, { user, long: true });
    issued.push(token);
    return { status: 200, body: { access_token: token, token_type: "bearer", expires_in: 5_183_944 } };
  }

  async function container(user: string, b: Record<string, string>): Promise<Answer> {
    const type = b.media_type as ThreadsContainer["media_type"];
    const c: ThreadsContainer = {
      id: newId(),
      user,
      media_type: type,
      text: b.text ?? null,
      reply_to: b.reply_to_id ?? null,
      children: [],
      fetched: null,
      pollsLeft: 0,
      failed: null,
      published: false,
    };
    if (c.reply_to && !posts.some((p) => p.id === c.reply_to && !p.deleted))
      return graphErr(400, { message: "(#100) The reply_to_id is not valid", code: 100 });
    if (type === "TEXT" && !b.text)
      return graphErr(400, { message: "(#100) text is required for TEXT posts", code: 100 });
    if (type === "CAROUSEL") {
      const children = (b.children ?? "").split(",").filter(Boolean);
      if (children.length < 2 || children.length > 20)
        return graphErr(400, { message: "(#100) A carousel has 2 to 20 items", code: 100 });
      for (const k of children)
        if (!containers.some((x) => x.id === k && x.user === user && x.fetched))
          return graphErr(400, { message: `(#100) Invalid child ${k}`, code: 100 });
      c.children = children;
    }
    if (type === "IMAGE" || type === "VIDEO") {
      const url = type === "IMAGE" ? b.image_url : b.video_url;
      if (!url)
        return graphErr(400, {
          message: `(#100) ${type === "IMAGE" ? "image_url" : "video_url"} is required`,
          code: 100,
        });
      const res = await opts.fetchMedia(url).catch(() => null);
      if (res?.status !== 200)
        return graphErr(400, {
          message: "The media could not be fetched from the URL",
          code: 100,
          error_subcode: 2207052,
        });
      c.fetched = {
        type: res.headers.get("content-type") ?? "",
        bytes: (await res.arrayBuffer()).byteLength,
      };
      if (type === "VIDEO") {
        c.pollsLeft = self.processingPolls;
        if (self.failNextVideo) {
          c.failed = self.failNextVideo;
          self.failNextVideo = null;
        }
      }
    }
    containers.push(c);
    return { status: 200, body: { id: c.id } };
  }

  self = Object.assign(s, {
    containers,
    posts,
    issued,
    signInAs: null,
    processingPolls: 2,
    failNextVideo: null,
    registerApp(clientId: string, clientSecret: string, redirectUri: string) {
      const known = apps.get(clientId);
      if (known) known.redirects.add(redirectUri);
      else apps.set(clientId, { secret: clientSecret, redirects: new Set([redirectUri]) });
    },
    invalidate(username: string) {
      const id = users.get(username);
      for (const [t, w] of tokens) if (w.user === id) tokens.delete(t);
    },
    userId,
  }) as ThreadsStandIn;
  return self;
}
