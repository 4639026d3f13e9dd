// LinkedIn's member feed and, as a platform of its own, company Pages, through the Posts API
// (learn.microsoft.com/linkedin/marketing/community-management/shares/posts-api: POST /rest/posts with the
// LinkedIn-Version header; the new post's URN comes back in `x-restli-id`). The author is the member
// (urn:li:person:…) or the Page (urn:li:organization:…) the channel was connected as; the text is escaped to
// LinkedIn's little text format. LinkedIn makes no idempotency promise and svc does not look posts up, so an
// uncertain create goes to a person. Errors: 401 (token expired or revoked), 403, 422 (a duplicate), 429, 5xx.
// Images (images.ts) or a video (videos.ts: uploaded in parts, then waited for until LinkedIn has processed it) are
// uploaded first and named in the post. A Page's first comment is the Page's own comment on the post, the part
// after it; deleting removes the comment, then the post.
import type { App } from "../../app/context.ts";
import type {
  Adapter,
  ConnectInput,
  ConnectOutcome,
  DeleteOutcome,
  EngagementOutcome,
  PublishedPart,
  PublishInput,
  PublishOutcome,
  PublishPart,
  RemoteInput,
} from "../adapter.ts";
import {
  field,
  type NetworkResponse,
  NoAnswer,
  networkRequest,
  noAnswerOutcome,
  secondsToMs,
  str,
} from "../plumbing/http.ts";
import { errorText, linkedinApi, restHeaders } from "./api.ts";
import { imageContent, uploadImages } from "./images.ts";
import { littleText } from "./little-text.ts";
import { linkedinMember } from "./signin.ts";
import { uploadVideo } from "./videos.ts";

const RATE_LIMIT_FALLBACK_MS = 15 * 60_000;

function refusal(res: NetworkResponse): PublishOutcome {
  const message = `LinkedIn answered ${res.status}: ${errorText(res)}`;
  if (res.status === 429)
    return {
      kind: "rate_limited",
      retryAfterMs: secondsToMs(res.headers.get("retry-after")) ?? RATE_LIMIT_FALLBACK_MS,
      message,
    };
  if (res.status === 401) return { kind: "auth_revoked", message };
  if (res.status === 422 && /duplicate/i.test(message))
    return { kind: "rejected", code: "duplicate", message };
  if (res.status >= 500) return { kind: "uncertain", message };
  return { kind: "rejected", code: "rejected", message };
}

function publisher(provider: "linkedin" | "linkedin_pages") {
  return async (app: App, input: PublishInput): Promise<PublishOutcome> => {
    const part = input.parts.find((p) => p.index === 0);
    if (!part) return { kind: "rejected", code: "rejected", message: "Nothing to post." };
    const author = str(input.channel.settings.author);
    if (!author)
      return {
        kind: "rejected",
        code: "rejected",
        message: `The ${provider} channel does not know its author; reconnect it.`,
      };
    const token = input.channel.secrets.access_token ?? "";
    const version = str(input.channel.settings.api_version);
    // A later attempt resumes after what was posted: the post is never made again for a comment that failed.
    let post = input.done.find((d) => d.index === 0) ?? null;
    if (!post) {
      const made = await createPost(app, input, part, { token, version, author });
      if ("outcome" in made) return made.outcome;
      post = made.post;
      await input.onPartPublished(post);
    }
    const comment = input.parts.find((p) => p.index === 1);
    if (comment && !input.done.some((d) => d.index === 1)) {
      const out = await firstComment(app, input.signal, { token, version, author, post, text: comment.text });
      if ("outcome" in out) return out.outcome;
      await input.onPartPublished(out.part);
    }
    return { kind: "published", permalink: post.remote_url };
  };
}

async function createPost(
  app: App,
  input: PublishInput,
  part: PublishPart,
  o: { token: string; version: string | null; author: string },
): Promise<{ post: PublishedPart } | { outcome: PublishOutcome }> {
  const { token, version, author } = o;
  // A video goes alone (video_alone), as the post's one medium.
  const video = part.media.find((m) => m.kind === "video" || m.mime.startsWith("video/"));
  let content: Record<string, unknown> | undefined;
  if (video) {
    const up = await uploadVideo(
      app,
      { token, version, owner: author, signal: input.signal },
      video,
      refusal,
    );
    if ("outcome" in up) return { outcome: up.outcome };
    content = { media: { id: up.urn } };
  } else {
    const uploaded = await uploadImages(app, token, version, author, part.media, refusal);
    if ("outcome" in uploaded) return { outcome: uploaded.outcome };
    content = imageContent(uploaded.images);
  }
  let res: NetworkResponse;
  try {
    res = await networkRequest(app, {
      method: "POST",
      url: `${linkedinApi(app)}/rest/posts`,
      signal: input.signal,
      headers: restHeaders(token, version),
      json: {
        author,
        commentary: littleText(part.text),
        ...(content ? { content } : {}),
        visibility: "PUBLIC",
        distribution: {
          feedDistribution: "MAIN_FEED",
          targetEntities: [],
          thirdPartyDistributionChannels: [],
        },
        lifecycleState: "PUBLISHED",
        isReshareDisabledByAuthor: false,
      },
    });
  } catch (err) {
    if (!(err instanceof NoAnswer)) throw err;
    return { outcome: noAnswerOutcome("LinkedIn", err, 0) };
  }
  if (res.status !== 201) return { outcome: refusal(res) };
  const urn = res.headers.get("x-restli-id");
  if (!urn) return { outcome: { kind: "uncertain", message: "LinkedIn accepted the post but sent no ID." } };
  return { post: { index: 0, remote_id: urn, remote_url: `https://www.linkedin.com/feed/update/${urn}/` } };
}

/**
 * The first comment: the Page's own comment on its post, right after it (Comments API, learn.microsoft.com/linkedin/
 * marketing/community-management/shares/comments-api, "Create a Comment": POST /rest/socialActions/{post URN}/
 * comments with the actor, the post as `object` and `message.text`, answered 201 with the comment and its
 * `commentUrn`). Plain text: comments take no little text. LinkedIn makes no idempotency promise, so a comment whose
 * answer was lost is uncertain (a person looks) and never sent again by itself.
 */
async function firstComment(
  app: App,
  signal: AbortSignal,
  o: { token: string; version: string | null; author: string; post: PublishedPart; text: string },
): Promise<{ part: PublishedPart } | { outcome: PublishOutcome }> {
  let res: NetworkResponse;
  try {
    res = await networkRequest(app, {
      method: "POST",
      url: `${linkedinApi(app)}/rest/socialActions/${encodeURIComponent(o.post.remote_id)}/comments`,
      signal,
      headers: restHeaders(o.token, o.version),
      json: { actor: o.author, object: o.post.remote_id, message: { text: o.text } },
    });
  } catch (err) {
    if (!(err instanceof NoAnswer)) throw err;
    return { outcome: noAnswerOutcome("LinkedIn", err, 1) };
  }
  if (res.status !== 201 && res.status !== 200) {
    const out = refusal(res);
    return {
      outcome:
        "message" in out ? { ...out, message: `${out.message} (the first comment; the post is up)` } : out,
    };
  }
  const urn = str(field(res.json, "commentUrn")) ?? str(field(res.json, "$URN"));
  if (!urn)
    return { outcome: { kind: "uncertain", message: "LinkedIn accepted the first comment but sent no ID." } };
  return {
    part: {
      index: 1,
      remote_id: urn,
      remote_url: `https://www.linkedin.com/feed/update/${o.post.remote_id}/?commentUrn=${encodeURIComponent(urn)}`,
    },
  };
}

/**
 * Deletes a published target from LinkedIn, its first comment first (Comments API "Delete a Comment": DELETE
 * /rest/socialActions/{post URN}/comments/{comment ID}?actor=…, 204), then the post (Posts API "Delete Posts":
 * DELETE /rest/posts/{URN}, 204). Something already gone (404, 410) counts as deleted, so asking again is harmless.
 */
async function deletePublished(
  app: App,
  input: RemoteInput & { parts: PublishedPart[] },
): Promise<DeleteOutcome> {
  const token = input.channel.secrets.access_token ?? "";
  const version = str(input.channel.settings.api_version);
  const author = str(input.channel.settings.author);
  const post = input.parts.find((p) => p.index === 0);
  if (!post) return { kind: "failed", message: "The target has no published post to delete." };
  const postPath = encodeURIComponent(post.remote_id);
  const urls: string[] = [];
  for (const c of input.parts.filter((p) => p.index > 0).sort((a, b) => b.index - a.index)) {
    const id = /,(\d+)\)$/.exec(c.remote_id)?.[1] ?? c.remote_id;
    urls.push(
      `${linkedinApi(app)}/rest/socialActions/${postPath}/comments/${encodeURIComponent(id)}` +
        (author ? `?actor=${encodeURIComponent(author)}` : ""),
    );
  }
  urls.push(`${linkedinApi(app)}/rest/posts/${postPath}`);
  for (const url of urls) {
    let res: NetworkResponse;
    try {
      res = await networkRequest(app, {
        method: "DELETE",
        url,
        headers: restHeaders(token, version),
        signal: input.signal,
        timeoutMs: 15_000,
      });
    } catch (e) {
      return { kind: "failed", message: `LinkedIn: ${e instanceof Error ? e.message : String(e)}` };
    }
    if (res.status !== 204 && res.status !== 200 && res.status !== 404 && res.status !== 410)
      return { kind: "failed", message: `LinkedIn answered ${res.status}: ${errorText(res)}` };
  }
  return { kind: "deleted" };
}

/** A member channel (signed in, or a pasted token with its API version) is checked by reading the member. */
async function connectMember(app: App, input: ConnectInput): Promise<ConnectOutcome> {
  const r = await linkedinMember(app, input.secrets.access_token ?? "");
  if (r.kind !== "accounts") return r;
  const m = r.accounts[0]!;
  return {
    kind: "connected",
    account: { display_name: m.display_name, handle: m.handle, profile_url: m.profile_url },
    settings: { ...input.settings, author: m.settings.author! },
  };
}

/** A Page channel is checked by reading its organization. */
async function connectPage(app: App, input: ConnectInput): Promise<ConnectOutcome> {
  const id = input.settings.author?.match(/^urn:li:organization:(\d+)$/)?.[1];
  if (!id)
    return {
      kind: "rejected",
      message: "Connect LinkedIn Pages by signing in (/connect); each Page is a channel.",
    };
  try {
    const res = await networkRequest(app, {
      method: "GET",
      url: `${linkedinApi(app)}/rest/organizations/${id}`,
      headers: restHeaders(input.secrets.access_token ?? "", input.settings.api_version),
      timeoutMs: 15_000,
    });
    if (res.status === 200) {
      const vanity = str(field(res.json, "vanityName"));
      return {
        kind: "connected",
        account: {
          display_name: str(field(res.json, "localizedName")),
          handle: vanity,
          profile_url: vanity ? `https://www.linkedin.com/company/${vanity}/` : null,
        },
      };
    }
    if (res.status === 401 || res.status === 403 || res.status === 404)
      return { kind: "rejected", message: `LinkedIn answered ${res.status}: ${errorText(res)}` };
    return { kind: "unavailable", message: `LinkedIn answered ${res.status}: ${errorText(res)}` };
  } catch (e) {
    if (e instanceof NoAnswer) return { kind: "unavailable", message: `LinkedIn: ${e.message}` };
    throw e;
  }
}

/**
 * A post's counts from the Social Actions API (learn.microsoft.com/linkedin/marketing/community-management/shares/
 * social-actions-api, "Retrieve a summary of social actions": GET /rest/socialActions/{post URN}): likes from
 * likesSummary.totalLikes, comments (replies) from commentsSummary.aggregatedTotalComments. LinkedIn reports
 * reshares and views only in organization analytics, so reposts and quotes are 0 and views unknown.
 */
async function engagement(
  app: App,
  input: RemoteInput & { parts: PublishedPart[] },
): Promise<EngagementOutcome> {
  const post = input.parts[0];
  if (!post) return { kind: "failed", message: "The target has no published post to read." };
  let res: NetworkResponse;
  try {
    res = await networkRequest(app, {
      method: "GET",
      url: `${linkedinApi(app)}/rest/socialActions/${encodeURIComponent(post.remote_id)}`,
      headers: restHeaders(input.channel.secrets.access_token ?? "", str(input.channel.settings.api_version)),
      timeoutMs: 15_000,
    });
  } catch (err) {
    return { kind: "failed", message: `LinkedIn: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (res.status === 404) return { kind: "deleted" };
  if (res.status !== 200)
    return { kind: "failed", message: `LinkedIn answered ${res.status}: ${errorText(res)}` };
  const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
  return {
    kind: "counts",
    counts: {
      likes: count(field(field(res.json, "likesSummary"), "totalLikes")),
      reposts: 0,
      replies: count(field(field(res.json, "commentsSummary"), "aggregatedTotalComments")),
      quotes: 0,
      views: null,
    },
  };
}

export const linkedinAdapter: Adapter = {
  provider: "linkedin",
  idempotent: false,
  publish: publisher("linkedin"),
  connect: connectMember,
  engagement,
  deletePublished,
};

export const linkedinPagesAdapter: Adapter = {
  provider: "linkedin_pages",
  idempotent: false,
  publish: publisher("linkedin_pages"),
  connect: connectPage,
  engagement,
  deletePublished,
};
