// TikTok's Open API v2 for the Content Posting API's Direct Post, as a signed-in account sees it. TikTok publishes
// no machine-readable description, so each endpoint's request and answer is checked against a JSON Schema written
// from its documentation page, named beside it (TIKTOK_DOCS below); a request the page does not allow is refused
// as TikTok refuses it (400 invalid_params) and recorded as a problem. Tokens are the real authorization server's
// (oidc-provider with TikTok's paths): the stand-in asks it whose token it is, so a revoked or expired one is
// refused (401 access_token_invalid).
// - the upload: init answers a publish ID and an upload URL; chunks are PUT in order with Content-Range, read as
//   they arrive (never held; SHA-256 and size kept), each checked against the chunking the init declared
//   (10 MiB here, the last chunk taking the trailing bytes): 206 for a chunk, 201 for the last;
// - status/fetch moves a post on with each look (PROCESSING_UPLOAD, then PUBLISH_COMPLETE; a file that is no MP4
//   FAILED with file_format_check_failed); only SELF_ONLY is allowed until the app is `audited` (then
//   privacy_level_option_mismatch otherwise), as TikTok does for an app that has not passed its audit.
import Ajv from "ajv";
import type { OAuthServer } from "../helpers/oauth-server.ts";
import { type Answer, type Incoming, type StandIn, startStandIn } from "./server.ts";
import type { Spec } from "./spec.ts";

/** Each endpoint, the page that documents it, and its request body and answer as that page describes them. */
const TIKTOK_DOCS: Record<
  string,
  { method: string; path: string; page: string; query?: string[]; body?: object; answer: object }
> = {
  user_info: {
    method: "GET",
    path: "/v2/user/info/",
    page: "https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info",
    query: ["fields"],
    answer: {
      type: "object",
      required: ["data", "error"],
      properties: {
        data: {
          type: "object",
          properties: {
            user: {
              type: "object",
              additionalProperties: false,
              properties: {
                open_id: { type: "string" },
                union_id: { type: "string" },
                avatar_url: { type: "string" },
                display_name: { type: "string" },
                username: { type: "string" },
              },
            },
          },
        },
        error: { $ref: "#/definitions/error" },
      },
    },
  },
  video_init: {
    method: "POST",
    path: "/v2/post/publish/video/init/",
    page: "https://developers.tiktok.com/doc/content-posting-api-reference-direct-post",
    body: {
      type: "object",
      additionalProperties: false,
      required: ["post_info", "source_info"],
      properties: {
        post_info: {
          type: "object",
          additionalProperties: false,
          required: ["privacy_level"],
          properties: {
            title: { type: "string", maxLength: 2200 },
            privacy_level: {
              enum: ["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "FOLLOWER_OF_CREATOR", "SELF_ONLY"],
            },
            disable_duet: { type: "boolean" },
            disable_comment: { type: "boolean" },
            disable_stitch: { type: "boolean" },
            video_cover_timestamp_ms: { type: "integer" },
            brand_content_toggle: { type: "boolean" },
            brand_organic_toggle: { type: "boolean" },
            is_aigc: { type: "boolean" },
          },
        },
        source_info: {
          type: "object",
          additionalProperties: false,
          required: ["source"],
          properties: {
            source: { enum: ["FILE_UPLOAD", "PULL_FROM_URL"] },
            video_size: { type: "integer", minimum: 1 },
            chunk_size: { type: "integer", minimum: 1 },
            total_chunk_count: { type: "integer", minimum: 1, maximum: 1000 },
            video_url: { type: "string" },
          },
        },
      },
    },
    answer: {
      type: "object",
      required: ["error"],
      properties: {
        data: {
          type: "object",
          additionalProperties: false,
          properties: { publish_id: { type: "string" }, upload_url: { type: "string" } },
        },
        error: { $ref: "#/definitions/error" },
      },
    },
  },
  status_fetch: {
    method: "POST",
    path: "/v2/post/publish/status/fetch/",
    page: "https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status",
    body: {
      type: "object",
      additionalProperties: false,
      required: ["publish_id"],
      properties: { publish_id: { type: "string" } },
    },
    answer: {
      type: "object",
      required: ["error"],
      properties: {
        data: {
          type: "object",
          additionalProperties: false,
          properties: {
            status: {
              enum: [
                "PROCESSING_UPLOAD",
                "PROCESSING_DOWNLOAD",
                "SEND_TO_USER_INBOX",
                "PUBLISH_COMPLETE",
                "FAILED",
              ],
            },
            fail_reason: { type: "string" },
            publicaly_available_post_id: { type: "array", items: { type: "integer" } },
            uploaded_bytes: { type: "integer" },
            downloaded_bytes: { type: "integer" },
          },
        },
        error: { $ref: "#/definitions/error" },
      },
    },
  },
};

/** The error object every answer carries (https://developers.tiktok.com/doc/tiktok-api-v2-error-handling). */
const errorSchema = {
  type: "object",
  additionalProperties: false,
  required: ["code", "message", "log_id"],
  properties: { code: { type: "string" }, message: { type: "string" }, log_id: { type: "string" } },
};

/** The documentation pages above as a Spec the shared stand-in server checks with. */
function docsSpec(): Spec {
  const ajv = new Ajv({ strict: false, allErrors: true });
  const describe = (errors: { instancePath?: string; message?: string }[] | null | undefined) =>
    (errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "invalid"}`);
  const compiled = Object.fromEntries(
    Object.entries(TIKTOK_DOCS).map(([id, d]) => [
      id,
      {
        body: d.body ? ajv.compile({ ...d.body, definitions: { error: errorSchema } }) : null,
        answer: ajv.compile({ ...d.answer, definitions: { error: errorSchema } }),
      },
    ]),
  );
  const match = (method: string, path: string) =>
    Object.entries(TIKTOK_DOCS).find(([, d]) => d.method === method.toUpperCase() && d.path === path)?.[0] ??
    null;
  return {
    declares: (id, status) => !!TIKTOK_DOCS[id] && status === 200,
    parameterIn: (method, path, name) => {
      const id = match(method, path);
      return id && TIKTOK_DOCS[id]!.query?.includes(name) ? "query" : null;
    },
    checkRequest(req) {
      const id = match(req.method, req.path);
      if (!id)
        return { operationId: null, problems: [`${req.method} ${req.path} is not a documented endpoint`] };
      const d = TIKTOK_DOCS[id]!;
      const problems: string[] = [];
      for (const q of Object.keys(req.query))
        if (!d.query?.includes(q)) problems.push(`query ${q} is not on ${d.page}`);
      const c = compiled[id]!;
      if (c.body) {
        if (!(req.headers["content-type"] ?? "").startsWith("application/json"))
          problems.push(`${d.page} takes application/json`);
        if (!c.body(req.body)) problems.push(...describe(c.body.errors as never));
      } else if (req.body !== undefined) problems.push(`${d.page} takes no body`);
      return { operationId: id, problems };
    },
    checkResponse(id, status, body) {
      const c = compiled[id];
      if (!c) return [`${id} is not documented`];
      if (status !== 200) return [`${id} answers 200 on its page, not ${status}`];
      return c.answer(body) ? [] : describe(c.answer.errors as never);
    },
  };
}

const logId = () => crypto.randomUUID().replaceAll("-", "").slice(0, 24);
const ok = (data: unknown): Answer => ({
  status: 200,
  body: { data, error: { code: "ok", message: "", log_id: logId() } },
});
const tiktokError = (status: number, code: string, message: string): Answer => ({
  status,
  body: { error: { code, message, log_id: logId() } },
});
const invalidToken = tiktokError(
  401,
  "access_token_invalid",
  "The access token is invalid or not found in the request.",
);

export interface TikTokPost {
  publishId: string;
  openId: string;
  title: string;
  privacy: string;
  size: number;
  chunkSize: number;
  chunks: number;
  received: number;
  nextChunk: number;
  sha256: string | null;
  hash: Bun.CryptoHasher;
  head: Uint8Array;
  /** Status values still to come, the first the current one. */
  states: string[];
  failReason: string | null;
}

export interface TikTokStandIn extends StandIn {
  posts: TikTokPost[];
  openIdOf(account: string): string;
  /** Whether the app has passed TikTok's audit (default not: SELF_ONLY only). */
  audited: boolean;
  /** How many status looks a post stays PROCESSING_UPLOAD before PUBLISH_COMPLETE (default 1). */
  processingLooks: number;
  /** The next chunk PUT reads this many bytes, then the stand-in answers 503 (the chunk must be sent again). */
  stopAfter(bytes: number): void;
  /** The next post's start (video/init) is refused with one of TikTok's documented errors. */
  refuseNext(status: number, code: string, message: string): void;
}

export async function startTikTok(auth: OAuthServer): Promise<TikTokStandIn> {
  const spec = docsSpec();
  const openIds = new Map<string, string>();
  const posts: TikTokPost[] = [];
  let stopAt: number | null = null;
  const refusals: Answer[] = [];
  const openIdOf = (account: string) => {
    let id = openIds.get(account);
    if (!id) {
      id = `-000${crypto.randomUUID().replaceAll("-", "")}`;
      openIds.set(account, id);
    }
    return id;
  };
  const who = async (req: Incoming) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    return token ? auth.accountOf(token) : null;
  };
  // biome-ignore lint/style/useConst: assigned once the server exists; handlers read it later
  let result: TikTokStandIn;

  async function chunk(p: TikTokPost, req: Incoming): Promise<Answer> {
    const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(req.headers["content-range"] ?? "");
    if (!m) return tiktokError(400, "invalid_params", "Content-Range is required.");
    const [first, last, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const i = p.nextChunk;
    const want0 = i * p.chunkSize;
    const want1 = i === p.chunks - 1 ? p.size - 1 : (i + 1) * p.chunkSize - 1;
    // media transfer guide: chunks in order, each the declared size, the last with the trailing bytes.
    if (total !== p.size || first !== want0 || last !== want1) {
      result.problems.push(
        `chunk ${i}: Content-Range ${first}-${last}/${total}, expected ${want0}-${want1}/${p.size}`,
      );
      return tiktokError(400, "invalid_params", "The chunk's range is not the next chunk's.");
    }
    const limit = stopAt;
    stopAt = null;
    const reader = req.stream!.getReader();
    let got = 0;
    // The video's hash goes on from the chunks taken; a chunk that fails leaves it as it was.
    const hash = p.hash.copy();
    const head: Uint8Array[] = [];
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (limit !== null && got + value.byteLength > limit) {
          await reader.cancel().catch(() => {});
          return tiktokError(503, "internal_error", "Upload interrupted.");
        }
        if (first === 0 && got < 16) head.push(value.subarray(0, 16 - got));
        hash.update(value);
        got += value.byteLength;
      }
    } catch {
      return { status: 499 };
    }
    if (got !== last - first + 1)
      return tiktokError(400, "invalid_file_upload", "The chunk's bytes are not its range.");
    // The chunk is whole: it joins the video.
    p.hash = hash;
    p.received += got;
    p.nextChunk++;
    if (first === 0) p.head = Buffer.concat(head);
    if (p.nextChunk < p.chunks) return { status: 206 };
    p.sha256 = p.hash.digest("hex");
    const isMp4 = new TextDecoder().decode(p.head.subarray(4, 8)) === "ftyp";
    p.states = isMp4
      ? [...Array(result.processingLooks).fill("PROCESSING_UPLOAD"), "PUBLISH_COMPLETE"]
      : ["PROCESSING_UPLOAD", "FAILED"];
    p.failReason = isMp4 ? null : "file_format_check_failed";
    return { status: 201 };
  }

  const s = startStandIn({
    spec,
    route(path, method) {
      if (path.startsWith("/v2/")) return { path };
      if (path === "/upload/" && method === "PUT")
        return {
          path,
          unchecked:
            "chunk PUTs carry bytes, described on https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide (checked by hand)",
        };
      return null;
    },
    streams: (method, path) => method === "PUT" && path === "/upload/",
    invalid: (problems) => tiktokError(400, "invalid_params", problems.join("; ")),
    documentedElsewhere: {
      201: "content-posting-api-media-transfer-guide: 201 Created for the last chunk",
      206: "content-posting-api-media-transfer-guide: 206 Partial Content for a chunk",
      400: "tiktok-api-v2-error-handling: 400 invalid_params, invalid_file_upload",
      401: "tiktok-api-v2-error-handling: 401 access_token_invalid, scope_not_authorized",
      403: "tiktok-api-v2-error-handling: 403 spam_risk_too_many_posts, unaudited_client_can_only_post_to_private_accounts",
      404: "not served",
      429: "tiktok-api-v2-error-handling: 429 rate_limit_exceeded",
      499: "the client went away mid-chunk: nothing is answered",
      500: "tiktok-api-v2-error-handling: 500 internal_error",
      503: "the upload host's 5xx: the chunk is sent again",
    },
    failure(kind) {
      if (kind === "rate_limited")
        return tiktokError(
          429,
          "rate_limit_exceeded",
          "The API rate limit was exceeded. Please try again later.",
        );
      if (kind === "revoked") return invalidToken;
      return tiktokError(500, "internal_error", "Internal error.");
    },
    async handle(req) {
      if (req.method === "PUT" && req.path === "/upload/") {
        const p = posts.find((x) => x.publishId === req.query.upload_id);
        if (!p) return tiktokError(404, "invalid_params", "The upload URL is not known.");
        return chunk(p, req);
      }
      const account = await who(req);
      if (!account) return invalidToken;
      const openId = openIdOf(account);
      if (req.operationId === "user_info")
        return ok({
          user: {
            open_id: openId,
            display_name: `${account[0]!.toUpperCase()}${account.slice(1)}`,
            avatar_url: `https://p16-sign.tiktokcdn.com/${openId}.jpeg`,
          },
        });
      if (req.operationId === "video_init") {
        const refused = refusals.shift();
        if (refused) return refused;
        const b = req.body as {
          post_info: { title?: string; privacy_level: string };
          source_info: {
            source: string;
            video_size?: number;
            chunk_size?: number;
            total_chunk_count?: number;
          };
        };
        if (!result.audited && b.post_info.privacy_level !== "SELF_ONLY")
          return tiktokError(
            400,
            "privacy_level_option_mismatch",
            "privacy_level is not one of the creator's options: an unaudited client posts SELF_ONLY.",
          );
        const { video_size: size, chunk_size: cs, total_chunk_count: count } = b.source_info;
        if (b.source_info.source !== "FILE_UPLOAD" || !size || !cs || !count)
          return tiktokError(
            400,
            "invalid_params",
            "FILE_UPLOAD needs video_size, chunk_size and total_chunk_count.",
          );
        // media transfer guide: count = floor(size / chunk); chunks of 5-64 MB; under 5 MB (or one chunk) whole.
        const MB5 = 5 * 1000 * 1000;
        const okPlan =
          count === Math.max(1, Math.floor(size / cs)) &&
          (size < MB5 ? cs === size : cs >= MB5 && cs <= 64 * 1024 * 1024) &&
          size - (count - 1) * cs <= 128 * 1024 * 1024;
        if (!okPlan)
          return tiktokError(400, "invalid_params", "The chunking does not follow the media transfer guide.");
        const publishId = `v_pub_file~v2-1.${Date.now()}${posts.length}`;
        const host = req.headers.host ?? "127.0.0.1";
        posts.push({
          publishId,
          openId,
          title: b.post_info.title ?? "",
          privacy: b.post_info.privacy_level,
          size,
          chunkSize: cs,
          chunks: count,
          received: 0,
          nextChunk: 0,
          sha256: null,
          hash: new Bun.CryptoHasher("sha256"),
          head: new Uint8Array(0),
          states: ["PROCESSING_UPLOAD"],
          failReason: null,
        });
        return ok({
          publish_id: publishId,
          upload_url: `http://${host}/upload/?upload_id=${encodeURIComponent(publishId)}`,
        });
      }
      if (req.operationId === "status_fetch") {
        const id = (req.body as { publish_id: string }).publish_id;
        const p = posts.find((x) => x.publishId === id && x.openId === openId);
        if (!p) return tiktokError(400, "invalid_params", "The publish_id is not known.");
        const status = p.nextChunk < p.chunks ? "PROCESSING_UPLOAD" : p.states[0]!;
        if (p.nextChunk >= p.chunks && p.states.length > 1) p.states.shift();
        return ok({
          status,
          uploaded_bytes: p.received,
          ...(status === "FAILED" ? { fail_reason: p.failReason ?? "internal" } : {}),
          // A private post is never given a public ID (Get Post Status: only after moderation of a public post).
          ...(status === "PUBLISH_COMPLETE" && p.privacy !== "SELF_ONLY"
            ? { publicaly_available_post_id: [7_300_000_000_000_000 + posts.indexOf(p)] }
            : {}),
        });
      }
      return tiktokError(404, "invalid_params", "Not served by the stand-in.");
    },
  });
  result = Object.assign(s, {
    posts,
    openIdOf,
    audited: false,
    processingLooks: 1,
    stopAfter(bytes: number) {
      stopAt = bytes;
    },
    refuseNext(status: number, code: string, message: string) {
      refusals.push(tiktokError(status, code, message));
    },
  });
  return result;
}
