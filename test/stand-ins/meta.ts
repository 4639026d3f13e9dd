// Meta's Graph API for Facebook Pages and Instagram professional accounts, with Facebook Login, as one stateful
// stand-in (graph.facebook.com, version v25.0). Every Graph request and answer is checked against Meta's node
// descriptions (meta-spec.ts); the sign-in endpoints and Instagram's container status, which those files do not
// describe, follow the documentation named beside each.
// - the Login dialog (GET /v25.0/dialog/oauth, facebook-login/guides/advanced/manual-flow): the person set with
//   `signInAs` signs in and is sent back with a code; PKCE (S256) is checked at the exchange;
// - POST /v25.0/oauth/access_token (the code, once; a short-lived user token) and GET with
//   grant_type=fb_exchange_token (facebook-login/guides/access-tokens/get-long-lived: a long-lived one);
// - GET /me/accounts (User → Page): the person's Pages, each with its Page token, tasks and linked Instagram
//   account;
// - Pages: POST /{page}/feed, /photos (multipart `source`, or published=false for attached_media), /videos;
//   GET/DELETE /{post}; /{post}/reactions and /{post}/comments with summary;
// - Instagram: GET /{ig-user}; POST /{ig-user}/media (the stand-in fetches image_url / video_url through
//   `fetchMedia`, as Instagram fetches from the link; a JPEG only for images), GET /{container}?fields=status_code
//   (instagram-graph-api/reference/ig-container: IN_PROGRESS for a video's first polls, then FINISHED, or ERROR),
//   POST /{ig-user}/media_publish, GET/DELETE /{ig-media}.
// Errors as Meta sends them ({error: {message, type, code, error_subcode, fbtrace_id}}).
import { createHash, randomBytes } from "node:crypto";
import { metaSpec } from "./meta-spec.ts";
import { type Answer, type Incoming, type StandIn, startStandIn, type UploadedFile } from "./server.ts";
import type { SpecRequest } from "./spec.ts";

export interface MetaPage {
  id: string;
  name: string;
  person: string;
  token: string;
  tasks: string[];
  instagram: { id: string; username: string; name: string } | null;
}

export interface MetaPost {
  id: string;
  page: string;
  message: string | null;
  link: string | null;
  /** Photo IDs shown by the post. */
  photos: string[];
  video: { bytes: number; description: string | null } | null;
  deleted: boolean;
  reactions: number;
  comments: number;
  shares: number;
}

export interface MetaPhoto {
  id: string;
  page: string;
  bytes: Uint8Array;
  type: string;
  alt: string | null;
  published: boolean;
}

export interface IgContainer {
  id: string;
  user: string;
  media_type: "IMAGE" | "REELS" | "VIDEO" | "CAROUSEL";
  caption: string | null;
  children: string[];
  /** What Instagram fetched from the link. */
  fetched: { type: string; bytes: number } | null;
  /** Status polls left before FINISHED (a video being processed). */
  pollsLeft: number;
  failed: string | null;
  published: boolean;
}

export interface IgMedia {
  id: string;
  user: string;
  container: string;
  media_type: string;
  caption: string | null;
  children: number;
  shortcode: string;
  like_count: number;
  comments_count: number;
  deleted: boolean;
  /** When it was published (ISO 8601, as IGMedia's timestamp). */
  timestamp: string;
}

export interface MetaComment {
  id: string;
  /** The post or media commented on. */
  on: string;
  message: string;
}

export interface MetaStandIn extends StandIn {
  /** Comments made on Page posts and Instagram media. */
  comments: MetaComment[];
  pages: MetaPage[];
  posts: MetaPost[];
  photos: MetaPhoto[];
  containers: IgContainer[];
  media: IgMedia[];
  /** Registers the developer app (the App ID and secret) with its redirect URI. */
  registerApp(clientId: string, clientSecret: string, redirectUri: string): void;
  /** Who signs in at the dialog next. */
  signInAs: string | null;
  /** Gives a person a Page (with a linked Instagram account when `instagram` is given). */
  addPage(person: string, name: string, instagram?: string, tasks?: string[]): MetaPage;
  /** Ends every token of a person and of their Pages (the person changed their password). */
  invalidate(person: string): void;
  /** How many status polls a video container takes before it is FINISHED. */
  processingPolls: number;
  /** How many an image container takes (Instagram fetches it first); 0 by default. */
  imagePolls: number;
  /** The next video container fails processing with this status. */
  failNextVideo: string | null;
  /** The next Graph answer matching `only` is this error instead (a documented failure). */
  answerWith(status: number, error: Record<string, unknown>, only?: (req: Incoming) => boolean): void;
}

const trace = () => randomBytes(8).toString("base64url");
export const graphErr = (status: number, e: Record<string, unknown>): Answer => ({
  status,
  body: { error: { type: "OAuthException", fbtrace_id: trace(), ...e } },
});
const expired = () =>
  graphErr(400, {
    message:
      "Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.",
    code: 190,
    error_subcode: 460,
  });

const VERSION = "/v25.0";

export function startMeta(opts: {
  /** How the stand-in fetches a media link (the test routes svc's public base URL to its in-process server). */
  fetchMedia(url: string): Promise<Response>;
}): MetaStandIn {
  const pages: MetaPage[] = [];
  const posts: MetaPost[] = [];
  const photos: MetaPhoto[] = [];
  const containers: IgContainer[] = [];
  const media: IgMedia[] = [];
  const comments: MetaComment[] = [];
  /** Each app's secret and the redirect URIs its settings list ("Valid OAuth Redirect URIs"). */
  const apps = new Map<string, { secret: string; redirects: Set<string> }>();
  const codes = new Map<
    string,
    { person: string; client: string; redirect: string; challenge: string | null }
  >();
  /** token → whose it is: a person's user token or a Page's token. */
  const tokens = new Map<string, { person: string; page: string | null; long: boolean }>();
  const errors: { answer: Answer; only: ((req: Incoming) => boolean) | null }[] = [];
  let next = 1_000_000_000;
  const newId = () => String(++next);
  /** The test's settings (signInAs, processingPolls, failNextVideo) live on the returned object. */
  let state: MetaStandIn;

  /** Which node and edge a request is, from what the IDs in its path are. */
  const kindOf = (id: string): string | null => {
    if (id === "me") return "User";
    if (pages.some((p) => p.id === id)) return "Page";
    if (pages.some((p) => p.instagram?.id === id)) return "IGUser";
    if (posts.some((p) => p.id === id)) return "PagePost";
    if (photos.some((p) => p.id === id)) return "Photo";
    if (media.some((m) => m.id === id)) return "IGMedia";
    if (containers.some((c) => c.id === id)) return "IGContainer";
    return null;
  };
  const split = (path: string) => {
    const [, id, edge] = /^\/([^/]+)(?:\/([^/]+))?$/.exec(path) ?? [];
    return { id: id ?? "", edge: edge ?? null };
  };
  const spec = metaSpec(
    (req: SpecRequest) => {
      const { id, edge } = split(req.path);
      const node = kindOf(id);
      return node ? { node, method: req.method, edge } : null;
    },
    {
      "Page|POST|photos": {
        params: { source: "file" },
        documented:
          "developers.facebook.com/docs/graph-api/reference/page/photos/#Creating (source: multipart)",
      },
      "Page|POST|videos": {
        params: { source: "file" },
        documented: "developers.facebook.com/docs/video-api/guides/publishing (source: multipart)",
      },
    },
    {
      Page: {
        fields: { tasks: "list<string>" },
        documented: "developers.facebook.com/docs/graph-api/reference/user/accounts/ (tasks of each Page)",
      },
    },
  );

  const tokenOf = (req: Incoming) =>
    /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? req.query.access_token ?? null;
  const body = (req: Incoming) => ({
    ...req.query,
    ...(typeof req.body === "object" && req.body !== null ? (req.body as Record<string, unknown>) : {}),
  });
  const s = startStandIn({
    spec,
    route(path) {
      if (!path.startsWith(`${VERSION}/`)) return null;
      const rest = path.slice(VERSION.length);
      if (rest === "/dialog/oauth" || rest === "/oauth/access_token")
        return { path: rest, unchecked: "Facebook Login: facebook-login/guides/advanced/manual-flow" };
      const { id } = split(rest);
      if (containers.some((c) => c.id === id))
        return {
          path: rest,
          unchecked: "IG Container: instagram-platform/instagram-graph-api/reference/ig-container",
        };
      return { path: rest };
    },
    invalid: (problems) => graphErr(400, { message: `(#100) ${problems.join("; ")}`, code: 100 }),
    failure(kind) {
      if (kind === "rate_limited")
        return {
          ...graphErr(400, { message: "(#32) Page request limit reached", code: 32 }),
          headers: {
            "x-business-use-case-usage": JSON.stringify({
              "1": [
                {
                  type: "pages",
                  call_count: 100,
                  total_time: 20,
                  total_cputime: 20,
                  estimated_time_to_regain_access: 17,
                },
              ],
            }),
          },
        };
      if (kind === "revoked") return expired();
      return graphErr(500, {
        message: "An unexpected error has occurred. Please retry your request later.",
        code: 2,
        is_transient: true,
      });
    },
    failsOn: (req) => !req.path.startsWith("/oauth") && !req.path.startsWith("/dialog"),
    async handle(req) {
      if (req.path === "/dialog/oauth") return dialog(req);
      if (req.path === "/oauth/access_token") return accessToken(req);
      const injected = errors.findIndex((e) => e.only?.(req) ?? true);
      if (injected !== -1) return errors.splice(injected, 1)[0]!.answer;
      const token = tokenOf(req);
      const who = token ? tokens.get(token) : undefined;
      if (!who) return expired();
      const { id, edge } = split(req.path);
      const b = body(req);
      if (id === "me" && edge === "accounts" && req.method === "GET") {
        if (who.page)
          return graphErr(400, {
            message: "(#100) Tried accessing nonexisting field (accounts) on node type (Page)",
            code: 100,
          });
        const mine = pages.filter((p) => p.person === who.person);
        const from = req.query.after ? Number(Buffer.from(req.query.after, "base64url").toString()) : 0;
        const size = Number(req.query.limit ?? 25);
        const page = mine.slice(from, from + size);
        const more = from + size < mine.length;
        return {
          status: 200,
          body: {
            data: page.map((p) => ({
              id: p.id,
              name: p.name,
              // Page tokens only with a long-lived user token never expire; the short-lived ones do.
              access_token: p.token,
              tasks: p.tasks,
              ...(p.instagram ? { instagram_business_account: { id: p.instagram.id } } : {}),
            })),
            paging: {
              cursors: {
                before: Buffer.from(String(from)).toString("base64url"),
                after: Buffer.from(String(from + page.length)).toString("base64url"),
              },
              ...(more ? { next: `https://graph.facebook.com/v25.0/me/accounts?after=${from + size}` } : {}),
            },
          },
        };
      }
      const page = pages.find((p) => p.id === id);
      if (page) {
        if (who.page !== page.id && !(who.person === page.person && req.method === "GET"))
          return graphErr(403, {
            message: "(#200) The user hasn't authorized the application to perform this action",
            code: 200,
          });
        if (req.method === "GET" && !edge)
          return {
            status: 200,
            body: pick({ id: page.id, name: page.name, link: `https://www.facebook.com/${page.id}` }, req),
          };
        if (req.method === "POST" && edge === "photos") {
          const file = b.source as UploadedFile | undefined;
          if (!file?.bytes) return graphErr(400, { message: "(#324) Requires upload file", code: 324 });
          const photo: MetaPhoto = {
            id: newId(),
            page: page.id,
            bytes: file.bytes,
            type: file.type,
            alt: (b.alt_text_custom as string) ?? null,
            published: b.published !== "false",
          };
          photos.push(photo);
          if (!photo.published) return { status: 200, body: { id: photo.id } };
          const post = newPost(page.id, { message: (b.message as string) ?? null, photos: [photo.id] });
          return { status: 200, body: { id: photo.id, post_id: post.id } };
        }
        if (req.method === "POST" && edge === "feed") {
          const attached = (
            Array.isArray(b.attached_media) ? b.attached_media : JSON.parse(String(b.attached_media ?? "[]"))
          ) as {
            media_fbid: string;
          }[];
          for (const a of attached) {
            const ph = photos.find((p) => p.id === a.media_fbid && p.page === page.id && !p.published);
            if (!ph)
              return graphErr(400, { message: `(#100) Invalid media_fbid ${a.media_fbid}`, code: 100 });
          }
          if (!b.message && !b.link && !attached.length)
            return graphErr(400, { message: "(#100) Missing message or attachment", code: 100 });
          const post = newPost(page.id, {
            message: (b.message as string) ?? null,
            link: (b.link as string) ?? null,
            photos: attached.map((a) => a.media_fbid),
          });
          return { status: 200, body: { id: post.id } };
        }
        if (req.method === "POST" && edge === "videos") {
          const file = b.source as UploadedFile | undefined;
          if (!file?.bytes) return graphErr(400, { message: "(#100) No file was uploaded", code: 100 });
          const videoId = newId();
          newPost(page.id, {
            id: videoId,
            message: null,
            video: { bytes: file.bytes.byteLength, description: (b.description as string) ?? null },
          });
          return { status: 200, body: { id: videoId } };
        }
      }
      const post = posts.find((p) => p.id === id);
      if (post) {
        const owner = pages.find((p) => p.id === post.page)!;
        if (who.page !== owner.id) return graphErr(403, { message: "(#200) Permissions error", code: 200 });
        if (post.deleted)
          return graphErr(400, {
            message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
            code: 100,
            error_subcode: 33,
            type: "GraphMethodException",
          });
        if (req.method === "DELETE" && !edge) {
          post.deleted = true;
          return { status: 200, body: { success: true } };
        }
        if (req.method === "POST" && edge === "comments") {
          // The Page's comment on its own post (PagePost comments: message).
          const c = {
            id: `${post.id.split("_").pop()}_${newId()}`,
            on: post.id,
            message: String(b.message ?? ""),
          };
          comments.push(c);
          post.comments++;
          return { status: 200, body: { id: c.id } };
        }
        if (req.method === "GET" && !edge)
          return {
            status: 200,
            body: pick(
              { id: post.id, message: post.message ?? undefined, shares: { count: post.shares } },
              req,
            ),
          };
        if (req.method === "GET" && (edge === "reactions" || edge === "comments"))
          return {
            status: 200,
            body: {
              data: [],
              summary: { total_count: edge === "reactions" ? post.reactions : post.comments },
            },
          };
      }
      const ig = pages.find((p) => p.instagram?.id === id);
      if (ig?.instagram) {
        if (who.page !== ig.id && who.person !== ig.person)
          return graphErr(403, {
            message: "(#10) Application does not have permission for this action",
            code: 10,
          });
        if (req.method === "GET" && !edge)
          return {
            status: 200,
            body: pick(
              { id: ig.instagram.id, username: ig.instagram.username, name: ig.instagram.name },
              req,
            ),
          };
        if (req.method === "POST" && edge === "media") return createContainer(ig.instagram.id, b);
        if (req.method === "GET" && edge === "media") {
          // IGUser media: the account's media, newest first.
          const mine = media.filter((x) => x.user === ig.instagram!.id && !x.deleted).reverse();
          return {
            status: 200,
            body: {
              data: mine.slice(0, Number(req.query.limit ?? 25)).map((x) =>
                pick(
                  {
                    id: x.id,
                    caption: x.caption ?? undefined,
                    timestamp: x.timestamp,
                    permalink: `https://www.instagram.com/p/${x.shortcode}/`,
                  },
                  req,
                ),
              ),
              paging: { cursors: { before: "MA", after: "MA" } },
            },
          };
        }
        if (req.method === "POST" && edge === "media_publish") {
          const c = containers.find((x) => x.id === String(b.creation_id) && x.user === ig.instagram!.id);
          if (!c) return graphErr(400, { message: "(#100) Invalid creation_id", code: 100 });
          if (c.published)
            return graphErr(400, {
              message: "The media has already been published",
              code: 9007,
              error_subcode: 2207008,
            });
          if (c.pollsLeft > 0 || c.failed)
            return graphErr(400, {
              message: "Media ID is not available",
              code: 9007,
              error_subcode: 2207027,
              error_user_msg: "The media is not ready for publishing, please wait for a moment",
            });
          c.published = true;
          const m: IgMedia = {
            id: newId(),
            user: c.user,
            container: c.id,
            media_type:
              c.media_type === "REELS"
                ? "VIDEO"
                : c.media_type === "CAROUSEL"
                  ? "CAROUSEL_ALBUM"
                  : c.media_type,
            caption: c.caption,
            children: c.children.length,
            shortcode: randomBytes(6).toString("base64url"),
            like_count: 0,
            comments_count: 0,
            deleted: false,
            timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, "+0000"),
          };
          media.push(m);
          return { status: 200, body: { id: m.id } };
        }
      }
      const c = containers.find((x) => x.id === id);
      if (c && req.method === "GET" && !edge) {
        // IG Container reference: status_code EXPIRED, ERROR, FINISHED, IN_PROGRESS or PUBLISHED.
        if (c.pollsLeft > 0) c.pollsLeft--;
        const code = c.published
          ? "PUBLISHED"
          : c.failed
            ? "ERROR"
            : c.pollsLeft > 0
              ? "IN_PROGRESS"
              : "FINISHED";
        return { status: 200, body: { id: c.id, status_code: code, status: c.failed ?? code } };
      }
      const m = media.find((x) => x.id === id);
      if (m) {
        if (m.deleted)
          return graphErr(400, {
            message: `Object with ID '${id}' does not exist`,
            code: 100,
            error_subcode: 33,
            type: "GraphMethodException",
          });
        if (req.method === "DELETE") {
          m.deleted = true;
          return { status: 200, body: { success: true } };
        }
        if (req.method === "POST" && edge === "comments") {
          const c = { id: newId(), on: m.id, message: String(b.message ?? "") };
          comments.push(c);
          m.comments_count++;
          return { status: 200, body: { id: c.id } };
        }
        if (req.method === "GET" && !edge)
          return {
            status: 200,
            body: pick(
              {
                id: m.id,
                permalink: `https://www.instagram.com/p/${m.shortcode}/`,
                like_count: m.like_count,
                comments_count: m.comments_count,
                media_type: m.media_type,
                caption: m.caption ?? undefined,
              },
              req,
            ),
          };
      }
      return graphErr(400, {
        message: `Unsupported ${req.method.toLowerCase()} request. Object with ID '${id}' does not exist.`,
        code: 100,
        error_subcode: 33,
        type: "GraphMethodException",
      });
    },
  });

  /** Only the fields asked for (Graph answers with the `fields` param's list; id always). */
  function pick(o: Record<string, unknown>, req: Incoming): Record<string, unknown> {
    const asked = (req.query.fields ?? "id").split(",");
    return Object.fromEntries(
      Object.entries(o).filter(([k, v]) => v !== undefined && (k === "id" || asked.includes(k))),
    );
  }

  function newPost(page: string, p: Partial<MetaPost>): MetaPost {
    const post: MetaPost = {
      id: `${page}_${newId()}`,
      page,
      message: null,
      link: null,
      photos: [],
      video: null,
      deleted: false,
      reactions: 0,
      comments: 0,
      shares: 0,
      ...p,
    };
    posts.push(post);
    return post;
  }

  async function createContainer(user: string, b: Record<string, unknown>): Promise<Answer> {
    const type = (b.media_type as string | undefined) ?? (b.children ? "CAROUSEL" : "IMAGE");
    const c: IgContainer = {
      id: newId(),
      user,
      media_type: type as IgContainer["media_type"],
      caption: (b.caption as string) ?? null,
      children: [],
      fetched: null,
      pollsLeft: 0,
      failed: null,
      published: false,
    };
    if (type === "CAROUSEL") {
      const children = (Array.isArray(b.children) ? b.children : String(b.children).split(",")).map(String);
      if (children.length < 2 || children.length > 10)
        return graphErr(400, { message: "(#100) A carousel takes 2 to 10 children", code: 100 });
      for (const child of children) {
        const k = containers.find((x) => x.id === child && x.user === user);
        if (!k) return graphErr(400, { message: `(#100) Invalid child ${child}`, code: 100 });
      }
      c.children = children;
    } else {
      const url = (b.image_url ?? b.video_url) as string | undefined;
      if (!url)
        return graphErr(400, {
          message: "(#100) The parameter image_url or video_url is required",
          code: 100,
        });
      // Instagram fetches the medium from the link when the container is made.
      const res = await opts.fetchMedia(url).catch(() => null);
      if (res?.status !== 200)
        return graphErr(400, {
          message: "Media download has failed. The media URI doesn't meet our requirements.",
          code: 9004,
          error_subcode: 2207052,
          error_user_title: "Media download has failed",
          error_user_msg: "The media could not be fetched from this URI",
        });
      const bytes = new Uint8Array(await res.arrayBuffer());
      const ctype = res.headers.get("content-type") ?? "";
      c.fetched = { type: ctype, bytes: bytes.byteLength };
      if (b.image_url && (ctype !== "image/jpeg" || bytes[0] !== 0xff || bytes[1] !== 0xd8))
        return graphErr(400, {
          message: "The image format is not supported.",
          code: 9004,
          error_subcode: 2207005,
          error_user_msg: "Only JPEG images are supported",
        });
      if (b.image_url) c.pollsLeft = state.imagePolls;
      if (b.video_url) {
        c.pollsLeft = state.processingPolls;
        if (state.failNextVideo) {
          c.failed = state.failNextVideo;
          state.failNextVideo = null;
        }
      }
    }
    containers.push(c);
    return { status: 200, body: { id: c.id } };
  }

  function dialog(req: Incoming): Answer {
    const q = req.query;
    const app = apps.get(q.client_id ?? "");
    if (!app?.redirects.has(q.redirect_uri ?? ""))
      return {
        status: 400,
        text: "Can't load URL: the domain of this URL isn't included in the app's domains.",
      };
    const back = new URL(q.redirect_uri!);
    if (q.state) back.searchParams.set("state", q.state);
    if (!state.signInAs) {
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_reason", "user_denied");
      back.searchParams.set("error_description", "Permissions error");
    } else {
      const code = randomBytes(24).toString("base64url");
      codes.set(code, {
        person: state.signInAs,
        client: q.client_id!,
        redirect: q.redirect_uri!,
        challenge: q.code_challenge_method === "S256" ? (q.code_challenge ?? null) : null,
      });
      back.searchParams.set("code", code);
    }
    return { status: 302, headers: { location: back.href } };
  }

  function accessToken(req: Incoming): Answer {
    const b = body(req);
    const app = apps.get(String(b.client_id ?? ""));
    if (!app || app.secret !== b.client_secret)
      return graphErr(400, { message: "Error validating client secret.", code: 1 });
    if (b.grant_type === "fb_exchange_token") {
      const who = tokens.get(String(b.fb_exchange_token ?? ""));
      if (!who || who.page) return expired();
      return issue(who.person, true);
    }
    const code = codes.get(String(b.code ?? ""));
    codes.delete(String(b.code ?? ""));
    if (!code || code.client !== b.client_id || code.redirect !== b.redirect_uri)
      return graphErr(400, { message: "Invalid verification code format.", code: 100 });
    if (code.challenge) {
      const verifier = String(b.code_verifier ?? "");
      if (createHash("sha256").update(verifier).digest("base64url") !== code.challenge)
        return graphErr(400, { message: "Invalid code verifier.", code: 100 });
    }
    return issue(code.person, false);
  }

  function issue(person: string, long: boolean): Answer {
    const token = `EAA${randomBytes(24).toString("base64url")}`;
    tokens.set(token, { person, page: null, long });
    return {
      status: 200,
      body: { access_token: token, token_type: "bearer", expires_in: long ? 5_183_944 : 5400 },
    };
  }

  state = Object.assign(s, {
    comments,
    pages,
    posts,
    photos,
    containers,
    media,
    registerApp(clientId: string, clientSecret: string, redirectUri: string) {
      const known = apps.get(clientId);
      if (known) known.redirects.add(redirectUri);
      else apps.set(clientId, { secret: clientSecret, redirects: new Set([redirectUri]) });
    },
    signInAs: null,
    processingPolls: 2,
    imagePolls: 0,
    failNextVideo: null,
    addPage(
      person: string,
      name: string,
      instagram?: string,
      tasks = ["ANALYZE", "ADVERTISE", "MODERATE", "CREATE_CONTENT", "MANAGE"],
    ) {
      const p: MetaPage = {
        id: newId(),
        name,
        person,
        token: `EAAP${randomBytes(24).toString("base64url")}`,
        tasks,
        instagram: instagram
          ? { id: `1784${newId()}`, username: instagram, name: `${name} on Instagram` }
          : null,
      };
      pages.push(p);
      tokens.set(p.token, { person, page: p.id, long: true });
      return p;
    },
    invalidate(person: string) {
      for (const [t, w] of tokens) if (w.person === person) tokens.delete(t);
    },
    answerWith(status: number, error: Record<string, unknown>, only?: (req: Incoming) => boolean) {
      errors.push({ answer: graphErr(status, error), only: only ?? null });
    },
  }) as MetaStandIn;
  return state;
}
