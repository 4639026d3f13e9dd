// Threads through its Graph API (developers.facebook.com/docs/threads/posts) with the account's long-lived token.
// Each part of a thread (and a first comment, the part after the last) is a container, then published:
// 1. POST /{threads-user-id}/threads: media_type TEXT with text; IMAGE with image_url or VIDEO with video_url
//    (Threads fetches media from a signed link to this install); several media: one container per item with
//    is_carousel_item=true, then media_type=CAROUSEL with their children; a reply names reply_to_id;
// 2. its status (GET /{container-id}?fields=id,status,error_message) asked until FINISHED (docs "Troubleshooting":
//    publishing status), with the wait X's video uses, within the publish's deadline;
// 3. POST /{threads-user-id}/threads_publish with creation_id.
// Each published part is saved at once, so a later attempt resumes after it. An unpublished container is nothing
// on the account (a kill during the wait posts nothing; the next attempt makes a new one). The publish step is not
// idempotent: a publish without an answer goes to a person (uncertain).
import type { App } from "../../app/context.ts";
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
  waitForContainer,
  withQuery,
} from "../meta/graph.ts";
import {
  field,
  type NetworkResponse,
  NoAnswer,
  networkRequest,
  remainingParts,
  str,
} from "../plumbing/http.ts";
import { threadsApi } from "./signin.ts";

const NETWORK = "Threads";
const auth = (secrets: Record<string, string>) => ({ authorization: `Bearer ${secrets.access_token ?? ""}` });
const isVideo = (m: PublishMedia) => m.kind === "video" || m.mime.startsWith("video/");

async function publish(app: App, input: PublishInput): Promise<PublishOutcome> {
  const user = str(input.channel.settings.user_id);
  if (!user) return { kind: "rejected", code: "rejected", message: "The channel does not name its account." };
  const api = threadsApi(app);
  const headers = auth(input.channel.secrets);
  const call = (what: string, posted: boolean, req: Omit<Parameters<typeof networkRequest>[1], "headers">) =>
    graphCall(app, NETWORK, what, posted, { ...req, headers, signal: input.signal });
  const container = async (what: string, form: Record<string, string>): Promise<string | PublishOutcome> => {
    const res = await call(what, false, {
      method: "POST",
      url: `${api}/${encodeURIComponent(user)}/threads`,
      form,
    });
    if (isOutcome(res)) return res;
    if (res.status !== 200) return refusal(NETWORK, res, what, false);
    const id = str(field(res.json, "id"));
    if (!id)
      return { kind: "transient", message: `Threads sent no container ID for ${what}; nothing was posted.` };
    const waited = await waitForContainer(
      NETWORK,
      what,
      input.signal,
      async () => {
        const r = await call(`${what} (status)`, false, {
          method: "GET",
          url: withQuery(`${api}/${encodeURIComponent(id)}`, { fields: "id,status,error_message" }),
        });
        if (isOutcome(r)) return r;
        if (r.status !== 200) return refusal(NETWORK, r, `${what} (status)`, false);
        const status = str(field(r.json, "status"));
        if (status === "FINISHED" || status === "PUBLISHED") return { state: "ready" };
        if (status === "ERROR" || status === "EXPIRED")
          return { state: "failed", why: str(field(r.json, "error_message")) ?? status };
        return { state: "waiting" };
      },
      { firstMs: 500 },
    );
    return waited ?? id;
  };
  const item = (m: PublishMedia, i: number): Record<string, string> | PublishOutcome => {
    const url = m.link?.() ?? null;
    if (!url)
      return {
        kind: "rejected",
        code: "media_link_missing",
        message: `Threads fetches medium ${i + 1} from a link to this install, which is not reachable from the internet.`,
      };
    return isVideo(m)
      ? { media_type: "VIDEO", video_url: url }
      : { media_type: "IMAGE", image_url: url, ...(m.alt ? { alt_text: m.alt.slice(0, 1000) } : {}) };
  };
  let previous = input.done.length ? [...input.done].sort((a, b) => b.index - a.index)[0]!.remote_id : null;
  let first = input.done.find((d) => d.index === 0)?.remote_url ?? null;
  for (const part of remainingParts(input.parts, input.done)) {
    const what = input.parts.length > 1 ? `part ${part.index + 1}` : "the post";
    const reply: Record<string, string> = previous ? { reply_to_id: previous } : {};
    let creation: string | PublishOutcome;
    if (part.media.length === 0) {
      creation = await container(what, { media_type: "TEXT", text: part.text, ...reply });
    } else if (part.media.length === 1) {
      const body = item(part.media[0]!, 0);
      if ("kind" in body) return body as PublishOutcome;
      creation = await container(what, { ...body, text: part.text, ...reply });
    } else {
      const children: string[] = [];
      for (const [i, m] of part.media.entries()) {
        const body = item(m, i);
        if ("kind" in body) return body as PublishOutcome;
        const child = await container(`carousel item ${i + 1}`, { ...body, is_carousel_item: "true" });
        if (typeof child !== "string") return child;
        children.push(child);
      }
      creation = await container(what, {
        media_type: "CAROUSEL",
        children: children.join(","),
        text: part.text,
        ...reply,
      });
    }
    if (typeof creation !== "string") return creation;
    const res = await call(`${what} (publish)`, true, {
      method: "POST",
      url: `${api}/${encodeURIComponent(user)}/threads_publish`,
      form: { creation_id: creation },
    });
    if (isOutcome(res)) return res;
    if (res.status !== 200) return refusal(NETWORK, res, `${what} (publish)`, true);
    const id = str(field(res.json, "id"));
    if (!id) return { kind: "uncertain", message: `Threads published ${what} but sent no ID.` };
    let permalink: string | null = null;
    const read = await call(`${what} (permalink)`, false, {
      method: "GET",
      url: withQuery(`${api}/${encodeURIComponent(id)}`, { fields: "id,permalink" }),
    });
    if (!isOutcome(read) && read.status === 200) permalink = str(field(read.json, "permalink"));
    await input.onPartPublished({ index: part.index, remote_id: id, remote_url: permalink });
    if (part.index === 0) first = permalink;
    previous = id;
  }
  return { kind: "published", permalink: first };
}

async function connect(
  app: App,
  input: { settings: Record<string, string>; secrets: Record<string, string> },
): Promise<ConnectOutcome> {
  if (!input.settings.user_id)
    return { kind: "rejected", message: "Connect Threads by signing in (/connect)." };
  try {
    const res = await networkRequest(app, {
      method: "GET",
      url: withQuery(`${threadsApi(app)}/me`, { fields: "id,username,name" }),
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
          profile_url: username ? `https://www.threads.net/@${username}` : null,
        },
      };
    }
    const e = graphError(res);
    if (res.status < 500 && e.code !== 4 && e.code !== 17)
      return { kind: "rejected", message: `Threads answered ${res.status}: ${e.message}` };
    return { kind: "unavailable", message: `Threads answered ${res.status}: ${e.message}` };
  } catch (e) {
    if (e instanceof NoAnswer) return { kind: "unavailable", message: `Threads: ${e.message}` };
    throw e;
  }
}

/** The first part's insights (docs "Insights": views, likes, replies, reposts, quotes). */
async function engagement(
  app: App,
  input: RemoteInput & { parts: PublishedPart[] },
): Promise<EngagementOutcome> {
  const post = input.parts.find((p) => p.index === 0);
  if (!post) return { kind: "failed", message: "The target has no published post to read." };
  let res: NetworkResponse;
  try {
    res = await networkRequest(app, {
      method: "GET",
      url: withQuery(`${threadsApi(app)}/${encodeURIComponent(post.remote_id)}/insights`, {
        metric: "views,likes,replies,reposts,quotes",
      }),
      headers: auth(input.channel.secrets),
      timeoutMs: 15_000,
    });
  } catch (e) {
    return { kind: "failed", message: `Threads: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (isGone(res)) return { kind: "deleted" };
  if (res.status !== 200)
    return { kind: "failed", message: `Threads answered ${res.status}: ${graphError(res).message}` };
  const data = field(res.json, "data");
  const metric = (name: string): number | null => {
    const m = (Array.isArray(data) ? data : []).find((d) => field(d, "name") === name);
    const values = field(m, "values");
    const v = Array.isArray(values) ? field(values[0], "value") : field(field(m, "total_value"), "value");
    return typeof v === "number" ? v : null;
  };
  return {
    kind: "counts",
    counts: {
      likes: metric("likes") ?? 0,
      reposts: metric("reposts") ?? 0,
      replies: metric("replies") ?? 0,
      quotes: metric("quotes") ?? 0,
      views: metric("views"),
    },
  };
}

/** DELETE /{threads-media-id} (docs "Delete posts"), the last part first. */
async function deletePublished(
  app: App,
  input: RemoteInput & { parts: PublishedPart[] },
): Promise<DeleteOutcome> {
  // Replies first, the post last: a failure half-way leaves a post with fewer replies, not replies without a post.
  return deleteObjects(app, NETWORK, {
    api: threadsApi(app),
    headers: auth(input.channel.secrets),
    ids: [...input.parts].sort((a, b) => b.index - a.index).map((p) => p.remote_id),
  });
}

export const threadsAdapter: Adapter = {
  provider: "threads",
  idempotent: false,
  publish,
  connect,
  engagement,
  deletePublished,
};
