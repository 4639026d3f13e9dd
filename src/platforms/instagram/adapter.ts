// Instagram professional accounts through the Graph API (Instagram API with Facebook Login, "Content
// publishing": developers.facebook.com/docs/instagram-platform/instagram-graph-api/content-publishing), with the
// linked Page's token. Instagram fetches every medium itself, from a signed link to this install (an image as
// the JPEG its rules need, converted when the link is fetched):
// 1. a container: POST /{ig-user-id}/media with image_url (one image), video_url and media_type=REELS (a video),
//    or one container per item with is_carousel_item=true, then media_type=CAROUSEL with their children;
// 2. each container's status_code (GET /{container-id}?fields=status_code,status) asked until FINISHED: Instagram
//    fetches and processes the media meanwhile (a video for minutes; the wait is the one X's video uses, within
//    the publish's deadline, the worker renewing its lease); ERROR or EXPIRED fails the medium;
// 3. POST /{ig-user-id}/media_publish with creation_id: the post.
// A container is nothing on the account until published: an attempt stopped before step 3 (a kill during the
// wait) leaves an unused container that expires after 24 hours, and the next attempt makes a new one, so nothing
// is posted twice. Step 3 itself is not idempotent: a publish without an answer goes to a person (uncertain).
import type { App } from "../../app/context.ts";
import type {
  Adapter,
  ConnectOutcome,
  DeleteOutcome,
  EngagementOutcome,
  FindOutcome,
  PublishedPart,
  PublishInput,
  PublishMedia,
  PublishOutcome,
  PublishPart,
  RemoteInput,
} from "../adapter.ts";
import { graphApi } from "../facebook/signin.ts";
import {
  deleteObjects,
  graphCall,
  graphError,
  isGone,
  isOutcome,
  refusal,
  waitForContainer,
  withFirstComment,
  withQuery,
} from "../meta/graph.ts";
import { field, type NetworkResponse, NoAnswer, networkRequest, str } from "../plumbing/http.ts";

const NETWORK = "Instagram";
const auth = (secrets: Record<string, string>) => ({ authorization: `Bearer ${secrets.access_token ?? ""}` });
const isVideo = (m: PublishMedia) => m.kind === "video" || m.mime.startsWith("video/");

/** The post, then its first comment when the target has one (meta/graph.ts). */
async function publish(app: App, input: PublishInput): Promise<PublishOutcome> {
  return withFirstComment(app, input, {
    network: NETWORK,
    api: graphApi(app, "instagram"),
    headers: auth(input.channel.secrets),
    publishPost: (i) => publishMedia(app, i),
    commentUrl: (post) => post.remote_url,
  });
}

async function publishMedia(app: App, input: PublishInput): Promise<PublishOutcome> {
  const part = input.parts[0];
  if (!part) return { kind: "rejected", code: "rejected", message: "Nothing to post." };
  const user = str(input.channel.settings.ig_user_id);
  if (!user) return { kind: "rejected", code: "rejected", message: "The channel does not name its account." };
  if (!part.media.length)
    return {
      kind: "rejected",
      code: "media_required",
      message: "An Instagram post needs an image or a video.",
    };
  const api = graphApi(app, "instagram");
  const headers = auth(input.channel.secrets);
  const call = (what: string, posted: boolean, req: Omit<Parameters<typeof networkRequest>[1], "headers">) =>
    graphCall(app, NETWORK, what, posted, { ...req, headers, signal: input.signal });

  /** Makes a container and waits until Instagram has fetched and prepared it. */
  const container = async (what: string, body: Record<string, unknown>): Promise<string | PublishOutcome> => {
    const res = await call(what, false, {
      method: "POST",
      url: `${api}/${encodeURIComponent(user)}/media`,
      json: body,
    });
    if (isOutcome(res)) return res;
    if (res.status !== 200) return refusal(NETWORK, res, what, false);
    const id = str(field(res.json, "id"));
    if (!id)
      return {
        kind: "transient",
        message: `Instagram sent no container ID for ${what}; nothing was posted.`,
      };
    const waited = await waitForContainer(NETWORK, what, input.signal, async () => {
      const r = await call(`${what} (status)`, false, {
        method: "GET",
        url: withQuery(`${api}/${encodeURIComponent(id)}`, { fields: "id,status_code,status" }),
      });
      if (isOutcome(r)) return r;
      if (r.status !== 200) return refusal(NETWORK, r, `${what} (status)`, false);
      const code = str(field(r.json, "status_code"));
      if (code === "FINISHED" || code === "PUBLISHED") return { state: "ready" };
      if (code === "ERROR" || code === "EXPIRED")
        return { state: "failed", why: str(field(r.json, "status")) ?? code };
      return { state: "waiting" };
    });
    return waited ?? id;
  };
  const linkOf = (m: PublishMedia, i: number): string | PublishOutcome => {
    const url = m.link?.() ?? null;
    // The worker refuses such targets before publishing (media_link_missing); this guards a direct call.
    return (
      url ?? {
        kind: "rejected",
        code: "media_link_missing",
        message: `Instagram fetches medium ${i + 1} from a link to this install, which is not reachable from the internet.`,
      }
    );
  };
  const itemBody = (
    m: PublishMedia,
    i: number,
    carousel: boolean,
  ): Record<string, unknown> | PublishOutcome => {
    const url = linkOf(m, i);
    if (typeof url !== "string") return url;
    if (isVideo(m))
      return carousel
        ? { media_type: "VIDEO", video_url: url, is_carousel_item: true }
        : { media_type: "REELS", video_url: url, caption: part.text, share_to_feed: true };
    return {
      image_url: url,
      ...(m.alt ? { alt_text: m.alt.slice(0, 1000) } : {}),
      ...(carousel ? { is_carousel_item: true } : { caption: part.text }),
    };
  };
  let creation: string | PublishOutcome;
  if (part.media.length === 1) {
    const body = itemBody(part.media[0]!, 0, false);
    if ("kind" in body) return body as PublishOutcome;
    creation = await container(isVideo(part.media[0]!) ? "the reel" : "the image", body);
  } else {
    const children: string[] = [];
    for (const [i, m] of part.media.entries()) {
      const body = itemBody(m, i, true);
      if ("kind" in body) return body as PublishOutcome;
      const child = await container(`carousel item ${i + 1}`, body);
      if (typeof child !== "string") return child;
      children.push(child);
    }
    creation = await container("the carousel", { media_type: "CAROUSEL", children, caption: part.text });
  }
  if (typeof creation !== "string") return creation;
  const res = await call("the publish", true, {
    method: "POST",
    url: `${api}/${encodeURIComponent(user)}/media_publish`,
    json: { creation_id: creation },
  });
  if (isOutcome(res)) return res;
  if (res.status !== 200) return refusal(NETWORK, res, "the publish", true);
  const id = str(field(res.json, "id"));
  if (!id) return { kind: "uncertain", message: "Instagram published but sent no media ID." };
  // The address is the media's permalink (a shortcode), read once; without it the post is still published.
  let permalink: string | null = null;
  const read = await call("the permalink", false, {
    method: "GET",
    url: withQuery(`${api}/${encodeURIComponent(id)}`, { fields: "id,permalink" }),
  });
  if (!isOutcome(read) && read.status === 200) permalink = str(field(read.json, "permalink"));
  await input.onPartPublished({ index: 0, remote_id: id, remote_url: permalink });
  return { kind: "published", permalink };
}

async function connect(
  app: App,
  input: { settings: Record<string, string>; secrets: Record<string, string> },
): Promise<ConnectOutcome> {
  const user = input.settings.ig_user_id;
  if (!user)
    return {
      kind: "rejected",
      message: "Connect Instagram by signing in (/connect) through its Facebook Page.",
    };
  try {
    const res = await networkRequest(app, {
      method: "GET",
      url: withQuery(`${graphApi(app, "instagram")}/${encodeURIComponent(user)}`, {
        fields: "id,username,name",
      }),
      headers: auth(input.secrets),
      timeoutMs: 15_000,
    });
    if (res.status === 200) {
      const username = str(field(res.json, "username"));
      return {
        kind: "connected",
        account: {
          display_name: str(field(res.json, "name")) ?? username,
          handle: username ? `@${username}` : null,
          profile_url: username ? `https://www.instagram.com/${username}/` : null,
        },
      };
    }
    const e = graphError(res);
    if (res.status < 500 && e.code !== 4 && e.code !== 17)
      return { kind: "rejected", message: `Instagram answered ${res.status}: ${e.message}` };
    return { kind: "unavailable", message: `Instagram answered ${res.status}: ${e.message}` };
  } catch (e) {
    if (e instanceof NoAnswer) return { kind: "unavailable", message: `Instagram: ${e.message}` };
    throw e;
  }
}

/** The media's like_count and comments_count (IGMedia fields); Instagram reports no reposts or quotes. */
async function engagement(
  app: App,
  input: RemoteInput & { parts: PublishedPart[] },
): Promise<EngagementOutcome> {
  const media = input.parts[0];
  if (!media) return { kind: "failed", message: "The target has no published media to read." };
  let res: NetworkResponse;
  try {
    res = await networkRequest(app, {
      method: "GET",
      url: withQuery(`${graphApi(app, "instagram")}/${encodeURIComponent(media.remote_id)}`, {
        fields: "id,like_count,comments_count",
      }),
      headers: auth(input.channel.secrets),
      timeoutMs: 15_000,
    });
  } catch (e) {
    return { kind: "failed", message: `Instagram: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (isGone(res)) return { kind: "deleted" };
  if (res.status !== 200)
    return { kind: "failed", message: `Instagram answered ${res.status}: ${graphError(res).message}` };
  const n = (name: string) => {
    const v = field(res.json, name);
    return typeof v === "number" ? v : 0;
  };
  return {
    kind: "counts",
    counts: { likes: n("like_count"), reposts: 0, replies: n("comments_count"), quotes: 0, views: null },
  };
}

async function deletePublished(
  app: App,
  input: RemoteInput & { parts: PublishedPart[] },
): Promise<DeleteOutcome> {
  // Deleting the media deletes its comments (the first comment among them) with it.
  return deleteObjects(app, NETWORK, {
    api: graphApi(app, "instagram"),
    headers: auth(input.channel.secrets),
    ids: input.parts.filter((x) => x.index === 0).map((p) => p.remote_id),
  });
}

/**
 * Settles a publish whose answer was lost: the account's recent media (GET /{ig-user-id}/media, newest first) are
 * looked through for one published since the attempt began with the post's caption. A first comment still to post
 * leaves it to a person (found, the target would count as published without it).
 */
async function find(
  app: App,
  input: RemoteInput & { parts: PublishPart[]; done: PublishedPart[]; since: number },
): Promise<FindOutcome> {
  const user = str(input.channel.settings.ig_user_id);
  if (!user) return { kind: "unknown", message: "The channel does not name its account; a person decides." };
  if (input.done.some((d) => d.index === 0))
    return { kind: "unknown", message: "The media was posted; its first comment may not have been." };
  const caption = input.parts.find((p) => p.index === 0)?.text ?? "";
  let res: NetworkResponse;
  try {
    res = await networkRequest(app, {
      method: "GET",
      url: withQuery(`${graphApi(app, "instagram")}/${encodeURIComponent(user)}/media`, {
        fields: "id,caption,timestamp,permalink",
        limit: "25",
      }),
      headers: auth(input.channel.secrets),
      signal: input.signal,
      timeoutMs: 15_000,
    });
  } catch (e) {
    return { kind: "unknown", message: `Instagram: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (res.status !== 200)
    return { kind: "unknown", message: `Instagram answered ${res.status}: ${graphError(res).message}` };
  const data = field(res.json, "data");
  const hit = (Array.isArray(data) ? data : []).find((m) => {
    const at = Date.parse(str(field(m, "timestamp")) ?? "");
    return str(field(m, "caption")) === caption && Number.isFinite(at) && at >= input.since - 60_000;
  });
  if (!hit) return { kind: "not_found" };
  if (input.parts.some((p) => p.index === 1))
    return { kind: "unknown", message: "Instagram has the media; its first comment was never posted." };
  const id = str(field(hit, "id"))!;
  const permalink = str(field(hit, "permalink"));
  return { kind: "found", permalink, parts: [{ index: 0, remote_id: id, remote_url: permalink }] };
}

export const instagramAdapter: Adapter = {
  provider: "instagram",
  idempotent: false,
  consistencyWindowMs: 60_000,
  publish,
  connect,
  engagement,
  deletePublished,
  find,
};
