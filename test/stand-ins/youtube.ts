// YouTube's Data API v3 as a signed-in Google account sees it, every request and answer checked against YouTube's
// Discovery document (../shared/api-specs/youtube/youtube-v3.json, turned into JSON Schema by
// test/helpers/discovery.ts). Tokens are the real authorization server's (oidc-provider): the stand-in asks it
// whose token it is and through which app (client), so a revoked or expired token is refused (401 authError) and
// quota is counted per app as Google counts it per project: 10,000 units a day, 1,600 an upload, 1 a list
// (developers.google.com/youtube/v3/determine_quota_cost), spent → 403 quotaExceeded.
// - channels.list?mine=true: the account's channel (made on first use);
// - videos.insert with the resumable protocol (developers.google.com/youtube/v3/guides/
//   using_resumable_upload_protocol): the POST with the metadata is checked as videos.insert; the session's PUTs
//   are not in the Discovery document and are served as that guide says: bytes are read as they arrive (a 1 GiB
//   video is never held; its SHA-256 and size are kept), `Content-Range: bytes */N` answers 308 with the Range
//   taken so far, and the last byte answers the Video (checked as videos.insert's answer);
// - videos.list: status and processingDetails move on with each look (uploaded, then processed; a file that is no
//   MP4 fails as invalidFile), statistics are the counts the test sets;
// - commentThreads.insert (developers.google.com/youtube/v3/docs/commentThreads/insert): a top-level comment by the
//   channel on a video (snippet.videoId, snippet.topLevelComment.snippet.textOriginal), 50 units; a video not there
//   is 404 videoNotFound, one whose comments are off 403 commentsDisabled.
// Each method needs a token granted one of the scopes the Discovery document lists for it (commentThreads.insert:
// youtube.force-ssl only), else 403 insufficientPermissions, as Google answers a token from an older consent.
// Errors are Google's JSON error (developers.google.com/youtube/v3/docs/errors), outside the Discovery document.
import { discoveryScopes, loadDiscovery } from "../helpers/discovery.ts";
import type { OAuthServer } from "../helpers/oauth-server.ts";
import { type Answer, type Incoming, type StandIn, startStandIn } from "./server.ts";

export interface YouTubeVideo {
  id: string;
  channelId: string;
  title: string;
  description: string;
  privacy: string;
  size: number;
  sha256: string;
  /** uploadStatus values still to come, the first the current one. */
  states: string[];
  failureReason: string | null;
  views: number;
  likes: number;
  comments: number;
  deleted: boolean;
  /** Comments turned off by the owner (commentThreads.insert answers 403 commentsDisabled). */
  commentsOff?: boolean;
}

export interface YouTubeComment {
  id: string;
  videoId: string;
  channelId: string;
  text: string;
}

interface Session {
  id: string;
  owner: string;
  client: string;
  metadata: { snippet: { title: string; description?: string }; status?: { privacyStatus?: string } };
  size: number;
  type: string;
  received: number;
  hash: Bun.CryptoHasher;
  /** The first bytes, to tell an MP4 (ftyp) from anything else. */
  head: Uint8Array;
  video: YouTubeVideo | null;
}

export interface YouTubeStandIn extends StandIn {
  videos: YouTubeVideo[];
  /** Top-level comments made through commentThreads.insert, in order. */
  commentThreads: YouTubeComment[];
  sessions: Map<string, Session>;
  /** The YouTube channel ID of an authorization-server account (made on first use). */
  channelOf(accountId: string): string;
  /** Units each app (OAuth client) has spent today. */
  units: Map<string, number>;
  /** The next upload PUT reads this many bytes of its body, then the stand-in stops reading and answers 503. */
  stopAfter(bytes: number): void;
  /** How many looks at a new video's status it stays "uploaded" before "processed" (default 1). */
  processingLooks: number;
}

const DAILY = 10_000;
const COST: Record<string, number> = {
  "youtube.videos.insert": 1600,
  "youtube.videos.list": 1,
  "youtube.channels.list": 1,
  "youtube.commentThreads.insert": 50,
  "youtube.videos.delete": 50,
};

const googleError = (code: number, reason: string, message: string, domain = "youtube.api"): Answer => ({
  status: code,
  body: {
    error: {
      code,
      message,
      errors: [{ message, domain, reason }],
      status:
        code === 401
          ? "UNAUTHENTICATED"
          : code === 403
            ? "PERMISSION_DENIED"
            : code === 404
              ? "NOT_FOUND"
              : code === 429
                ? "RESOURCE_EXHAUSTED"
                : code >= 500
                  ? "UNAVAILABLE"
                  : "INVALID_ARGUMENT",
    },
  },
});

const unauthorized = googleError(
  401,
  "authError",
  "Request had invalid authentication credentials. Expected OAuth 2 access token.",
  "global",
);

export async function startYouTube(auth: OAuthServer): Promise<YouTubeStandIn> {
  const spec = await loadDiscovery("youtube/youtube-v3.json");
  const scopes = await discoveryScopes("youtube/youtube-v3.json");
  const channels = new Map<string, string>();
  const videos: YouTubeVideo[] = [];
  const commentThreads: YouTubeComment[] = [];
  const sessions = new Map<string, Session>();
  const units = new Map<string, number>();
  let stopAt: number | null = null;
  let n = 0;
  const rid = (prefix: string, len: number) =>
    `${prefix}${(++n).toString(36).padStart(4, "0")}${crypto.randomUUID().replaceAll("-", "")}`.slice(0, len);
  const channelOf = (account: string) => {
    let c = channels.get(account);
    if (!c) {
      c = rid("UC", 24);
      channels.set(account, c);
    }
    return c;
  };
  /** Whose token, through which app; null when the server no longer takes it. */
  const who = async (req: Incoming) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!token) return null;
    const account = await auth.accountOf(token);
    if (!account) return null;
    const t = await auth.provider.AccessToken.find(token);
    return {
      account,
      client: String(t?.clientId ?? ""),
      scopes: String(t?.scope ?? "")
        .split(" ")
        .filter(Boolean),
    };
  };
  const spend = (client: string, operation: string): boolean => {
    const cost = COST[operation] ?? 1;
    const used = units.get(client) ?? 0;
    if (used + cost > DAILY) return false;
    units.set(client, used + cost);
    return true;
  };
  const quotaExceeded = googleError(
    403,
    "quotaExceeded",
    'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
    "youtube.quota",
  );
  const videoResource = (v: YouTubeVideo, parts: string[]) => {
    const state = v.states[0] ?? "processed";
    return {
      kind: "youtube#video",
      etag: `etag-${v.id}`,
      id: v.id,
      ...(parts.includes("snippet")
        ? {
            snippet: {
              channelId: v.channelId,
              title: v.title,
              description: v.description,
              publishedAt: new Date().toISOString(),
              categoryId: "22",
            },
          }
        : {}),
      ...(parts.includes("status")
        ? {
            status: {
              uploadStatus: state,
              privacyStatus: v.privacy,
              ...(state === "failed" && v.failureReason ? { failureReason: v.failureReason } : {}),
            },
          }
        : {}),
      ...(parts.includes("processingDetails")
        ? {
            processingDetails: {
              processingStatus:
                state === "uploaded" ? "processing" : state === "failed" ? "failed" : "succeeded",
            },
          }
        : {}),
      ...(parts.includes("statistics")
        ? {
            statistics: {
              viewCount: String(v.views),
              likeCount: String(v.likes),
              commentCount: String(v.comments),
              favoriteCount: "0",
            },
          }
        : {}),
    };
  };
  // biome-ignore lint/style/useConst: assigned once the server exists; the upload answers read it later
  let result: YouTubeStandIn;

  /** Reads an upload PUT's body as it arrives, from where the session stands. */
  async function receive(s: Session, req: Incoming): Promise<Answer> {
    const range = req.headers["content-range"] ?? "";
    if (/^bytes \*\/\d+$/.test(range)) {
      if (s.video) return { status: 200, body: videoResource(s.video, ["snippet", "status"]) };
      return {
        status: 308,
        headers: s.received > 0 ? { range: `bytes=0-${s.received - 1}` } : {},
      };
    }
    const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
    const from = m ? Number(m[1]) : 0;
    if (from !== s.received)
      return googleError(400, "badContent", `The upload must go on from byte ${s.received}, not ${from}.`);
    const limit = stopAt;
    stopAt = null;
    const reader = req.stream!.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        let chunk = value;
        if (limit !== null && s.received - from + chunk.byteLength > limit) {
          chunk = chunk.subarray(0, Math.max(0, limit - (s.received - from)));
          take(s, chunk);
          await reader.cancel().catch(() => {});
          // Bytes up to here are kept, as YouTube keeps what it acknowledged; the rest is refused.
          return googleError(503, "backendError", "Backend Error");
        }
        take(s, chunk);
      }
    } catch {
      // The connection dropped mid-body: what arrived is kept for the status question.
      return { status: 499 };
    }
    if (s.received < s.size) return { status: 308, headers: { range: `bytes=0-${s.received - 1}` } };
    if (s.received > s.size) return googleError(400, "badContent", "More bytes than the upload announced.");
    const isMp4 = new TextDecoder().decode(s.head.subarray(4, 8)) === "ftyp";
    const v: YouTubeVideo = {
      id: rid("v", 11),
      channelId: channelOf(s.owner),
      title: s.metadata.snippet.title,
      description: s.metadata.snippet.description ?? "",
      privacy: s.metadata.status?.privacyStatus ?? "public",
      size: s.received,
      sha256: s.hash.digest("hex"),
      states: isMp4
        ? [...Array(result.processingLooks).fill("uploaded"), "processed"]
        : ["uploaded", "failed"],
      failureReason: isMp4 ? null : "invalidFile",
      views: 0,
      likes: 0,
      comments: 0,
      deleted: false,
    };
    s.video = v;
    videos.push(v);
    const answer = { status: 200, body: videoResource(v, ["snippet", "status"]) };
    // The session's PUTs are not in the Discovery document; the Video they end with is videos.insert's answer.
    if (spec)
      for (const p of spec.checkResponse("youtube.videos.insert", 200, answer.body))
        result.problems.push(`answer to the upload: ${p}`);
    return answer;
  }
  function take(s: Session, chunk: Uint8Array) {
    if (s.received < 16) {
      const head = new Uint8Array(Math.min(16, s.received + chunk.byteLength));
      head.set(s.head.subarray(0, s.received));
      head.set(chunk.subarray(0, head.byteLength - s.received), s.received);
      s.head = head;
    }
    s.hash.update(chunk);
    s.received += chunk.byteLength;
  }

  const standIn = startStandIn({
    spec,
    route(path, method) {
      if (path.startsWith("/youtube/v3/")) return { path };
      if (path === "/upload/youtube/v3/videos" && method === "PUT")
        return {
          path,
          unchecked:
            "the resumable upload session's PUTs (developers.google.com/youtube/v3/guides/using_resumable_upload_protocol) are not in the Discovery document",
        };
      if (path === "/upload/youtube/v3/videos") return { path };
      return null;
    },
    streams: (method, path) => method === "PUT" && path === "/upload/youtube/v3/videos",
    invalid: (problems) => googleError(400, "invalid", problems.join("; ")),
    documentedElsewhere: {
      204: "developers.google.com/youtube/v3/docs/videos/delete: 204 No Content (the Discovery document has no response for videos.delete)",
      308: "developers.google.com/youtube/v3/guides/using_resumable_upload_protocol: 308 Resume Incomplete",
      400: "developers.google.com/youtube/v3/docs/errors: 400 (badContent, invalidTitle, …)",
      401: "developers.google.com/youtube/v3/docs/errors: 401 authError",
      403: "developers.google.com/youtube/v3/docs/errors: 403 quotaExceeded, forbidden",
      404: "developers.google.com/youtube/v3/guides/using_resumable_upload_protocol: 404 session expired",
      429: "developers.google.com/youtube/v3/docs/errors: 429 rateLimitExceeded",
      499: "the client went away mid-body: nothing is answered",
      500: "developers.google.com/youtube/v3/docs/errors: 500 backendError",
      503: "developers.google.com/youtube/v3/docs/errors: 503 backendError",
    },
    failure(kind) {
      if (kind === "rate_limited") return quotaExceeded;
      if (kind === "revoked") return unauthorized;
      return googleError(503, "backendError", "Backend Error");
    },
    async handle(req) {
      // A session PUT (upload_id) is checked here, not against the document.
      if (req.method === "PUT" && req.path === "/upload/youtube/v3/videos") {
        const s = sessions.get(req.query.upload_id ?? "");
        if (!s) return googleError(404, "notFound", "The upload session is not known.");
        return receive(s, req);
      }
      const me = await who(req);
      if (!me) return unauthorized;
      const needs = req.operationId ? (scopes?.get(req.operationId) ?? []) : [];
      if (needs.length && !needs.some((x) => me.scopes.includes(x)))
        return googleError(403, "insufficientPermissions", "Request had insufficient authentication scopes.");
      if (req.operationId && !spend(me.client, req.operationId)) return quotaExceeded;
      if (req.operationId === "youtube.channels.list") {
        const id = channelOf(me.account);
        return {
          status: 200,
          body: {
            kind: "youtube#channelListResponse",
            etag: "etag-channels",
            pageInfo: { totalResults: 1, resultsPerPage: 1 },
            items: [
              {
                kind: "youtube#channel",
                etag: `etag-${id}`,
                id,
                snippet: {
                  title: `${me.account[0]!.toUpperCase()}${me.account.slice(1)}`,
                  description: "",
                  customUrl: `@${me.account}`,
                  publishedAt: "2020-01-01T00:00:00Z",
                },
              },
            ],
          },
        };
      }
      if (req.operationId === "youtube.videos.insert") {
        if (req.query.uploadType !== "resumable")
          return googleError(400, "invalid", "Only resumable uploads are served here.");
        const size = Number(req.headers["x-upload-content-length"]);
        if (!Number.isFinite(size) || size <= 0)
          return googleError(400, "invalid", "X-Upload-Content-Length is required.");
        const metadata = req.body as Session["metadata"];
        if (!metadata?.snippet?.title) return googleError(400, "invalidTitle", "The video's title is empty.");
        if (/[<>]/.test(metadata.snippet.title) || /[<>]/.test(metadata.snippet.description ?? ""))
          return googleError(400, "invalidTitle", "The title or description has < or >.");
        if ([...metadata.snippet.title].length > 100)
          return googleError(400, "invalidTitle", "The title is longer than 100 characters.");
        const id = rid("up", 20);
        sessions.set(id, {
          id,
          owner: me.account,
          client: me.client,
          metadata,
          size,
          type: req.headers["x-upload-content-type"] ?? "video/*",
          received: 0,
          hash: new Bun.CryptoHasher("sha256"),
          head: new Uint8Array(0),
          video: null,
        });
        const host = req.headers.host ?? "127.0.0.1";
        return {
          status: 200,
          unchecked:
            "the resumable upload's start answers with the session's Location and no body (using_resumable_upload_protocol)",
          headers: {
            location: `http://${host}/upload/youtube/v3/videos?uploadType=resumable&upload_id=${id}`,
          },
        };
      }
      if (req.operationId === "youtube.videos.list") {
        const parts = (req.query.part ?? "").split(",");
        const ids = (req.query.id ?? "").split(",");
        const mine = channelOf(me.account);
        const found = videos.filter((v) => ids.includes(v.id) && !v.deleted && v.channelId === mine);
        const items = found.map((v) => {
          const r = videoResource(v, parts);
          // Each look at a video's status moves its processing on.
          if ((parts.includes("status") || parts.includes("processingDetails")) && v.states.length > 1)
            v.states.shift();
          return r;
        });
        return {
          status: 200,
          body: {
            kind: "youtube#videoListResponse",
            etag: "etag-videos",
            pageInfo: { totalResults: items.length, resultsPerPage: items.length },
            items,
          },
        };
      }
      // docs "Videos: delete" (developers.google.com/youtube/v3/docs/videos/delete): 204 without a body; 404
      // videoNotFound for a video that is not (or no longer) there; 403 forbidden for another channel's video.
      // The video's comment threads go with it.
      if (req.operationId === "youtube.videos.delete") {
        const v = videos.find((x) => x.id === req.query.id && !x.deleted);
        if (!v)
          return googleError(
            404,
            "videoNotFound",
            "The video that you are trying to delete cannot be found.",
          );
        if (v.channelId !== channelOf(me.account))
          return googleError(403, "forbidden", "The video that you are trying to delete cannot be deleted.");
        v.deleted = true;
        for (let i = commentThreads.length - 1; i >= 0; i--)
          if (commentThreads[i]!.videoId === v.id) commentThreads.splice(i, 1);
        return { status: 204 };
      }
      if (req.operationId === "youtube.commentThreads.insert") {
        if (req.query.part !== "snippet")
          return googleError(400, "invalidPart", "Only part=snippet is served here.");
        const b = req.body as {
          snippet?: { videoId?: string; topLevelComment?: { snippet?: { textOriginal?: string } } };
        };
        const text = b?.snippet?.topLevelComment?.snippet?.textOriginal;
        if (!b?.snippet?.videoId) return googleError(400, "invalidVideoId", "snippet.videoId is required.");
        if (!text) return googleError(400, "commentTextRequired", "The comment's text is empty.");
        if ([...text].length > 10_000)
          return googleError(400, "commentTextTooLong", "The comment is too long.");
        const v = videos.find((x) => x.id === b.snippet!.videoId && !x.deleted);
        if (!v)
          return googleError(404, "videoNotFound", "The video identified by videoId could not be found.");
        if (v.commentsOff) return googleError(403, "commentsDisabled", "The video has disabled comments.");
        const author = channelOf(me.account);
        const id = rid("Ugz", 26);
        commentThreads.push({ id, videoId: v.id, channelId: author, text });
        v.comments++;
        const now = new Date().toISOString();
        return {
          status: 200,
          body: {
            kind: "youtube#commentThread",
            etag: `etag-${id}`,
            id,
            snippet: {
              channelId: v.channelId,
              videoId: v.id,
              topLevelComment: {
                kind: "youtube#comment",
                etag: `etag-c-${id}`,
                id,
                snippet: {
                  channelId: v.channelId,
                  videoId: v.id,
                  textDisplay: text,
                  textOriginal: text,
                  authorChannelId: { value: author },
                  canRate: true,
                  viewerRating: "none",
                  likeCount: 0,
                  publishedAt: now,
                  updatedAt: now,
                },
              },
              canReply: true,
              totalReplyCount: 0,
              isPublic: true,
            },
          },
        };
      }
      return googleError(404, "notFound", "Not served by the stand-in.");
    },
  });
  result = Object.assign(standIn, {
    videos,
    commentThreads,
    sessions,
    channelOf,
    units,
    stopAfter(bytes: number) {
      stopAt = bytes;
    },
    processingLooks: 1,
  });
  return result;
}
