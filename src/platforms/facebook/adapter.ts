// Facebook Pages through the Graph API with the Page's own token (developers.facebook.com/docs/pages-api/posts):
// - text, with the first link as the post's link: POST /{page-id}/feed {message, link};
// - one image: POST /{page-id}/photos (multipart `source`, `message`), which is the post;
// - several images: each POST /{page-id}/photos with published=false, then POST /{page-id}/feed with
//   attached_media [{media_fbid}] (a photo uploaded unpublished posts nothing on its own);
// - a video: POST /{page-id}/videos (multipart `source` streamed from storage, `description`), which is the post.
// Facebook makes no idempotency promise, so a create that may have been taken goes to a person (uncertain).
// A first comment is the Page's comment on its own post. Engagement: the post's shares, and the totals of its
// reactions and comments edges. Deletion: DELETE /{post-id}, which takes its comments with it.
import type { App } from "../../app/context.ts";
import { StreamedForm } from "../../lib/streamed-form.ts";
import type {
  Adapter,
  ConnectOutcome,
  DeleteOutcome,
  EngagementOutcome,
  PublishedPart,
  PublishInput,
  PublishMedia,
  PublishOutcome,
  RemoteInput,
} from "../adapter.ts";
import {
  deleteObjects,
  graphCall,
  graphError,
  isGone,
  isOutcome,
  refusal,
  withFirstComment,
  withQuery,
} from "../meta/graph.ts";
import { field, type NetworkResponse, NoAnswer, networkRequest, str } from "../plumbing/http.ts";
import { findLinks } from "../text/links.ts";
import { graphApi } from "./signin.ts";

const NETWORK = "Facebook";

const auth = (secrets: Record<string, string>) => ({ authorization: `Bearer ${secrets.access_token ?? ""}` });

/** A Page post's address: feed IDs are "{page-id}_{post-id}". */
export function postUrl(pageId: string, id: string): string {
  const [page, post] = id.includes("_") ? id.split("_", 2) : [pageId, id];
  return `https://www.facebook.com/${page}/posts/${post}`;
}

async function photoForm(m: PublishMedia, fields: Record<string, string>): Promise<FormData> {
  if (!m.read) throw new Error(`medium ${m.id} has no bytes to read`);
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("source", new Blob([(await m.read()) as Uint8Array<ArrayBuffer>], { type: m.mime }), "photo");
  return form;
}

/** The post, then its first comment when the target has one (meta/graph.ts). */
async function publish(app: App, input: PublishInput): Promise<PublishOutcome> {
  return withFirstComment(app, input, {
    network: NETWORK,
    api: graphApi(app, "facebook"),
    headers: auth(input.channel.secrets),
    publishPost: (i) => publishPost(app, i),
    commentUrl: (post, id) =>
      post.remote_url ? `${post.remote_url}?comment_id=${encodeURIComponent(id)}` : null,
  });
}

async function publishPost(app: App, input: PublishInput): Promise<PublishOutcome> {
  const part = input.parts[0];
  if (!part) return { kind: "rejected", code: "rejected", message: "Nothing to post." };
  const page = str(input.channel.settings.page_id);
  if (!page) return { kind: "rejected", code: "rejected", message: "The channel does not name its Page." };
  const api = `${graphApi(app, "facebook")}/${encodeURIComponent(page)}`;
  const headers = auth(input.channel.secrets);
  const call = (what: string, posted: boolean, req: Omit<Parameters<typeof networkRequest>[1], "headers">) =>
    graphCall(app, NETWORK, what, posted, { ...req, headers, signal: input.signal });
  const done = async (id: string | null, url: (id: string) => string): Promise<PublishOutcome> => {
    if (!id) return { kind: "uncertain", message: "Facebook accepted the post but sent no ID." };
    const p = { index: 0, remote_id: id, remote_url: url(id) };
    await input.onPartPublished(p);
    return { kind: "published", permalink: p.remote_url };
  };
  const media = part.media;
  const video = media.find((m) => m.kind === "video" || m.mime.startsWith("video/"));
  if (video) {
    if (!video.stream || video.size === undefined) throw new Error(`video ${video.id} cannot be streamed`);
    const form = new StreamedForm();
    form.append("description", part.text);
    form.append("source", { filename: "video.mp4", type: video.mime, size: video.size, open: video.stream });
    const res = await call("the video", true, {
      method: "POST",
      url: `${api}/videos`,
      multipart: form,
      timeoutMs: 15 * 60_000,
    });
    if (isOutcome(res)) return res;
    if (res.status !== 200) return refusal(NETWORK, res, "the video", true);
    return done(str(field(res.json, "id")), (id) => `https://www.facebook.com/${page}/videos/${id}`);
  }
  if (media.length === 1) {
    const form = await photoForm(media[0]!, {
      message: part.text,
      ...(media[0]!.alt ? { alt_text_custom: media[0]!.alt } : {}),
    });
    const res = await call("the photo", true, { method: "POST", url: `${api}/photos`, multipart: form });
    if (isOutcome(res)) return res;
    if (res.status !== 200) return refusal(NETWORK, res, "the photo", true);
    return done(str(field(res.json, "post_id")) ?? str(field(res.json, "id")), (id) => postUrl(page, id));
  }
  const attached: { media_fbid: string }[] = [];
  for (const [i, m] of media.entries()) {
    const form = await photoForm(m, { published: "false", ...(m.alt ? { alt_text_custom: m.alt } : {}) });
    // An unpublished photo is not a post: a failure here leaves nothing on the Page.
    const res = await call(`image ${i + 1}`, false, {
      method: "POST",
      url: `${api}/photos`,
      multipart: form,
    });
    if (isOutcome(res)) return res;
    if (res.status !== 200) return refusal(NETWORK, res, `image ${i + 1}`, false);
    const id = str(field(res.json, "id"));
    if (!id)
      return { kind: "transient", message: `Facebook sent no ID for image ${i + 1}; nothing was posted.` };
    attached.push({ media_fbid: id });
  }
  const link = attached.length ? null : (findLinks(part.text)[0]?.url ?? null);
  const res = await call("the post", true, {
    method: "POST",
    url: `${api}/feed`,
    json: {
      message: part.text,
      ...(link ? { link } : {}),
      ...(attached.length ? { attached_media: attached } : {}),
    },
  });
  if (isOutcome(res)) return res;
  if (res.status !== 200) return refusal(NETWORK, res, "the post", true);
  return done(str(field(res.json, "id")), (id) => postUrl(page, id));
}

/** The daily check: the Page can be read with its token. */
async function connect(
  app: App,
  input: { settings: Record<string, string>; secrets: Record<string, string> },
): Promise<ConnectOutcome> {
  const page = input.settings.page_id;
  if (!page)
    return {
      kind: "rejected",
      message: "Connect Facebook by signing in (/connect); each Page is a channel.",
    };
  try {
    const res = await networkRequest(app, {
      method: "GET",
      url: withQuery(`${graphApi(app, "facebook")}/${encodeURIComponent(page)}`, { fields: "id,name,link" }),
      headers: auth(input.secrets),
      timeoutMs: 15_000,
    });
    if (res.status === 200)
      return {
        kind: "connected",
        account: {
          display_name: str(field(res.json, "name")),
          handle: null,
          profile_url: str(field(res.json, "link")) ?? `https://www.facebook.com/${page}`,
        },
      };
    const e = graphError(res);
    if (res.status < 500 && e.code !== 4 && e.code !== 17 && e.code !== 32)
      return { kind: "rejected", message: `Facebook answered ${res.status}: ${e.message}` };
    return { kind: "unavailable", message: `Facebook answered ${res.status}: ${e.message}` };
  } catch (e) {
    if (e instanceof NoAnswer) return { kind: "unavailable", message: `Facebook: ${e.message}` };
    throw e;
  }
}

async function engagement(
  app: App,
  input: RemoteInput & { parts: PublishedPart[] },
): Promise<EngagementOutcome> {
  const post = input.parts[0];
  if (!post) return { kind: "failed", message: "The target has no published post to read." };
  const base = `${graphApi(app, "facebook")}/${encodeURIComponent(post.remote_id)}`;
  const get = (url: string) =>
    networkRequest(app, { method: "GET", url, headers: auth(input.channel.secrets), timeoutMs: 15_000 });
  try {
    const [node, reactions, comments] = await Promise.all([
      get(withQuery(base, { fields: "id,shares" })),
      get(withQuery(`${base}/reactions`, { summary: "total_count", limit: "0" })),
      get(withQuery(`${base}/comments`, { summary: "true", limit: "0" })),
    ]);
    for (const r of [node, reactions, comments]) {
      if (isGone(r)) return { kind: "deleted" };
      if (r.status !== 200)
        return { kind: "failed", message: `Facebook answered ${r.status}: ${graphError(r).message}` };
    }
    const total = (r: NetworkResponse) => {
      const v = field(field(r.json, "summary"), "total_count");
      return typeof v === "number" ? v : 0;
    };
    const shares = field(field(node.json, "shares"), "count");
    return {
      kind: "counts",
      counts: {
        likes: total(reactions),
        reposts: typeof shares === "number" ? shares : 0,
        replies: total(comments),
        quotes: 0,
        views: null,
      },
    };
  } catch (e) {
    return { kind: "failed", message: `Facebook: ${e instanceof Error ? e.message : String(e)}` };
  }
}

async function deletePublished(
  app: App,
  input: RemoteInput & { parts: PublishedPart[] },
): Promise<DeleteOutcome> {
  // Deleting the post deletes its comments (the first comment among them) with it.
  return deleteObjects(app, NETWORK, {
    api: graphApi(app, "facebook"),
    headers: auth(input.channel.secrets),
    ids: input.parts.filter((x) => x.index === 0).map((p) => p.remote_id),
  });
}

export const facebookAdapter: Adapter = {
  provider: "facebook",
  idempotent: false,
  publish,
  connect,
  engagement,
  deletePublished,
};
