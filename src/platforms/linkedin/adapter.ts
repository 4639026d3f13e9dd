// LinkedIn's member feed and, as a platform of its own, company Pages, through the Posts API
// (learn.microsoft.com/linkedin/marketing/community-management/shares/posts-api: POST /rest/posts with the
// LinkedIn-Version header; the new post's URN comes back in `x-restli-id`). The author is the member
// (urn:li:person:…) or the Page (urn:li:organization:…) the channel was connected as; the text is escaped to
// LinkedIn's little text format. LinkedIn makes no idempotency promise and svc does not look posts up, so an
// uncertain create goes to a person. Errors: 401 (token expired or revoked), 403, 422 (a duplicate), 429, 5xx.
// Images (images.ts) or a video (videos.ts: uploaded in parts, then waited for until LinkedIn has processed it) are
// uploaded first and named in the post.
import type { App } from "../../app/context.ts";
import type {
  Adapter,
  ConnectInput,
  ConnectOutcome,
  EngagementOutcome,
  PublishedPart,
  PublishInput,
  PublishOutcome,
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
    const part = input.parts[0];
    if (!part) return { kind: "rejected", code: "rejected", message: "Nothing to post." };
    if (input.done.length) return { kind: "published", permalink: input.done[0]!.remote_url };
    const author = str(input.channel.settings.author);
    if (!author)
      return {
        kind: "rejected",
        code: "rejected",
        message: `The ${provider} channel does not know its author; reconnect it.`,
      };
    const token = input.channel.secrets.access_token ?? "";
    const version = str(input.channel.settings.api_version);
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
      if ("outcome" in up) return up.outcome;
      content = { media: { id: up.urn } };
    } else {
      const uploaded = await uploadImages(app, token, version, author, part.media, refusal);
      if ("outcome" in uploaded) return uploaded.outcome;
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
      return noAnswerOutcome("LinkedIn", err, 0);
    }
    if (res.status !== 201) return refusal(res);
    const urn = res.headers.get("x-restli-id");
    if (!urn) return { kind: "uncertain", message: "LinkedIn accepted the post but sent no ID." };
    const done = { index: 0, remote_id: urn, remote_url: `https://www.linkedin.com/feed/update/${urn}/` };
    await input.onPartPublished(done);
    return { kind: "published", permalink: done.remote_url };
  };
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
};

export const linkedinPagesAdapter: Adapter = {
  provider: "linkedin_pages",
  idempotent: false,
  publish: publisher("linkedin_pages"),
  connect: connectPage,
  engagement,
};
