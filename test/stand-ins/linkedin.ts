// LinkedIn's REST API as its documentation describes it (LinkedIn publishes no machine-readable description, so
// nothing here is validated against one; each endpoint names the page it follows). Tokens are asked of the real
// authorization server that issued them (oidc-provider), so a revoked grant is refused.
//  - GET /v2/userinfo — consumer/integrations/self-serve/sign-in-with-linkedin-v2 ("API request to retrieve
//    member details"): {sub, name, given_name, family_name, picture, locale}.
//  - GET /rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED — marketing/community-management/
//    organizations/organization-access-control-by-role ("Find a member's organization access control information").
//  - GET /rest/organizations/{id} — marketing/community-management/organizations/organization-lookup-api.
//  - POST /rest/posts — marketing/community-management/shares/posts-api ("Create a text-only post"): 201 with the
//    post URN in `x-restli-id`; every /rest call needs `LinkedIn-Version: YYYYMM` (marketing/versioning), else 400.
//  - POST /rest/images?action=initializeUpload — marketing/community-management/shares/images-api ("Initialize
//    Image Upload"): {initializeUploadRequest: {owner}} answers {value: {uploadUrlExpiresAt, uploadUrl, image}};
//    the bytes are PUT to uploadUrl with the same token (201), and only then may a post name the image.
//  - POST /rest/videos?action=initializeUpload — marketing/community-management/shares/videos-api ("Initialize
//    Video Upload"): {initializeUploadRequest: {owner, fileSizeBytes, uploadCaptions, uploadThumbnail}} answers
//    {value: {uploadUrlsExpireAt, video, uploadInstructions: [{uploadUrl, firstByte, lastByte}], uploadToken}},
//    one instruction per 4 MiB part; each part's bytes are PUT to its URL ("Upload the Video"), answered with an
//    ETag; POST /rest/videos?action=finalizeUpload ("Finalize Video Upload") {finalizeUploadRequest: {video,
//    uploadToken, uploadedPartIds}} needs every part's ETag in order; GET /rest/videos/{urn} ("Get a Video")
//    reports status WAITING_UPLOAD, PROCESSING, AVAILABLE or PROCESSING_FAILED (a file that is no MP4 fails). A post
//    may name a video only once it is AVAILABLE (posts-api "Create a video post": content.media.id).
//  - A post's content: one image as {media: {id, altText}} (images-api / posts-api "Create a single image post"),
//    several as {multiImage: {images: [{id, altText}]}}, 2 to 20 (shares/multiimage-post-api).
//  - GET /rest/socialActions/{post URN} — marketing/community-management/shares/social-actions-api ("Retrieve a
//    summary of social actions"): {likesSummary: {totalLikes, likedByCurrentUser}, commentsSummary:
//    {aggregatedTotalComments, totalFirstLevelComments}, target}; 404 for a deleted post.
//  - POST /rest/socialActions/{post URN}/comments — marketing/community-management/shares/comments-api ("Create a
//    Comment"): {actor, object, message: {text}} with `object` the post commented on and `actor` the member or an
//    organization the member administers; 201 with the comment ({actor, agent, commentUrn, id, object, message,
//    created, lastModified}) and its ID in `x-restli-id`.
//  - DELETE /rest/socialActions/{post URN}/comments/{comment ID}?actor={URN} — comments-api ("Delete a Comment"):
//    204; `actor` is required when an organization deletes its comment; 404 for one not (or no longer) there.
//  - DELETE /rest/posts/{URN} — posts-api ("Delete Posts"): 204, also for a post already deleted (deleting is
//    idempotent); 403 for another author's post, 404 for one never made.
//  - Errors — shared/api-guide/concepts/error-handling: {status, serviceErrorCode, code, message}; 429 on
//    throttling (shared/api-guide/concepts/rate-limits).
import { type Answer, type StandIn, startStandIn } from "./server.ts";

export interface LinkedInPost {
  urn: string;
  author: string;
  commentary: string;
  version: string;
  body: Record<string, unknown>;
  /** What the Social Actions API reports (a test sets them). */
  likes: number;
  comments: number;
  deleted: boolean;
}

export interface LinkedInComment {
  urn: string;
  id: string;
  post: string;
  actor: string;
  text: string;
  version: string;
  body: Record<string, unknown>;
  deleted: boolean;
}

export interface LinkedInImage {
  urn: string;
  owner: string;
  /** Null until the bytes were PUT. */
  bytes: Uint8Array | null;
  type: string | null;
}

export interface LinkedInVideo {
  urn: string;
  owner: string;
  size: number;
  uploadToken: string;
  /** Each part's range, bytes once PUT, and the ETag it was answered with. */
  parts: { firstByte: number; lastByte: number; bytes: Uint8Array | null; etag: string | null }[];
  /** The whole file once finalized. */
  bytes: Uint8Array | null;
  /** Statuses still to come (the first is the current one). */
  status: string[];
}

export interface LinkedInStandIn extends StandIn {
  posts: LinkedInPost[];
  /** Comments made through the Comments API, in order. */
  postComments: LinkedInComment[];
  images: Map<string, LinkedInImage>;
  videos: Map<string, LinkedInVideo>;
  /** Pages an account administers (organization ID, name, vanity name). */
  pages: Map<string, { id: string; name: string; vanity: string }[]>;
  /** The member ID behind an authorization-server account. */
  memberOf(account: string): string;
}

const problem = (status: number, code: string, message: string): Answer => ({
  status,
  body: { status, serviceErrorCode: status === 401 ? 65600 : 100, code, message },
});

export function startLinkedIn(auth: { accountOf(token: string): Promise<string | null> }): LinkedInStandIn {
  const posts: LinkedInPost[] = [];
  const postComments: LinkedInComment[] = [];
  const pages = new Map<string, { id: string; name: string; vanity: string }[]>();
  const members = new Map<string, string>();
  const images = new Map<string, LinkedInImage>();
  /** Upload URL token → image URN. */
  const uploads = new Map<string, string>();
  const videos = new Map<string, LinkedInVideo>();
  /** Part upload key → video URN and part index. */
  const videoParts = new Map<string, { urn: string; index: number }>();
  const PART = 4 * 1024 * 1024;
  let next = 7_100_000_000_000_000_000n;
  const memberOf = (account: string) => {
    let id = members.get(account);
    if (!id) {
      id = `m${account}X${members.size}`;
      members.set(account, id);
    }
    return id;
  };
  const s = startStandIn({
    spec: null,
    route: (path) => ({ path, unchecked: "LinkedIn publishes no machine-readable description" }),
    invalid: () => problem(400, "BAD_REQUEST", "Invalid request"),
    failure(kind) {
      if (kind === "rate_limited")
        return {
          ...problem(429, "TOO_MANY_REQUESTS", "Resource level throttle limit reached"),
          headers: { "retry-after": "120" },
        };
      if (kind === "revoked")
        return problem(
          401,
          "REVOKED_ACCESS_TOKEN",
          "The token used in the request has been revoked by the user",
        );
      return problem(500, "INTERNAL_SERVER_ERROR", "Internal Server Error");
    },
    async handle(req) {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const account = token ? await auth.accountOf(token) : null;
      if (!account) return problem(401, "EXPIRED_ACCESS_TOKEN", "The token used in the request has expired");
      if (req.path.startsWith("/rest/") && !/^\d{6}$/.test(req.headers["linkedin-version"] ?? ""))
        return problem(
          400,
          "VERSION_MISSING",
          "A version must be present. Please specify a version by adding the LinkedIn-Version header.",
        );
      if (req.method === "GET" && req.path === "/v2/userinfo")
        return {
          status: 200,
          body: {
            sub: memberOf(account),
            name: `${account[0]!.toUpperCase()}${account.slice(1)} Member`,
            given_name: account,
            family_name: "Member",
            locale: { country: "US", language: "en" },
          },
        };
      if (req.method === "GET" && req.path === "/rest/organizationAcls") {
        if (req.query.q !== "roleAssignee") return problem(400, "BAD_REQUEST", "q must be roleAssignee");
        return {
          status: 200,
          body: {
            paging: { count: 10, start: 0, links: [] },
            elements: (pages.get(account) ?? []).map((p) => ({
              roleAssignee: `urn:li:person:${memberOf(account)}`,
              state: "APPROVED",
              role: "ADMINISTRATOR",
              organization: `urn:li:organization:${p.id}`,
            })),
          },
        };
      }
      const org = /^\/rest\/organizations\/(\d+)$/.exec(req.path);
      if (req.method === "GET" && org) {
        const p = [...pages.values()].flat().find((x) => x.id === org[1]);
        return p
          ? { status: 200, body: { id: Number(p.id), localizedName: p.name, vanityName: p.vanity } }
          : problem(404, "NOT_FOUND", "Organization not found");
      }
      const owns = (urn: string) =>
        urn === `urn:li:person:${memberOf(account)}` ||
        (pages.get(account) ?? []).some((p) => urn === `urn:li:organization:${p.id}`);
      if (req.method === "POST" && req.path === "/rest/images") {
        if (req.query.action !== "initializeUpload") return problem(400, "BAD_REQUEST", "Unknown action");
        const owner = (req.body as { initializeUploadRequest?: { owner?: unknown } })?.initializeUploadRequest
          ?.owner;
        if (typeof owner !== "string")
          return problem(422, "FIELD_MISSING", "/initializeUploadRequest/owner is missing");
        if (!owns(owner))
          return problem(403, "ACCESS_DENIED", `Not enough permissions to upload for ${owner}`);
        const urn = `urn:li:image:C4E10AQ${++next}`;
        const key = crypto.randomUUID();
        images.set(urn, { urn, owner, bytes: null, type: null });
        uploads.set(key, urn);
        return {
          status: 200,
          body: {
            value: {
              uploadUrlExpiresAt: Date.now() + 3600_000,
              uploadUrl: `${s.url}/dms-uploads/${key}`,
              image: urn,
            },
          },
        };
      }
      if (req.method === "POST" && req.path === "/rest/videos" && req.query.action === "initializeUpload") {
        const r = (req.body as { initializeUploadRequest?: Record<string, unknown> })
          ?.initializeUploadRequest;
        const owner = r?.owner;
        const size = r?.fileSizeBytes;
        if (typeof owner !== "string")
          return problem(422, "FIELD_MISSING", "/initializeUploadRequest/owner is missing");
        if (typeof size !== "number" || !Number.isInteger(size) || size < 1)
          return problem(
            422,
            "FIELD_MISSING",
            "/initializeUploadRequest/fileSizeBytes is missing or invalid",
          );
        for (const f of ["uploadCaptions", "uploadThumbnail"])
          if (r?.[f] !== undefined && typeof r[f] !== "boolean")
            return problem(422, "INVALID_FIELD", `/initializeUploadRequest/${f} must be a boolean`);
        if (!owns(owner))
          return problem(
            403,
            "ACCESS_DENIED",
            "Accessing this video resource is forbidden. Please check your permissions for this resource",
          );
        const urn = `urn:li:video:C5F10AQ${++next}`;
        const video: LinkedInVideo = {
          urn,
          owner,
          size,
          uploadToken: crypto.randomUUID(),
          parts: [],
          bytes: null,
          status: ["WAITING_UPLOAD"],
        };
        for (let first = 0; first < size; first += PART) {
          const key = crypto.randomUUID();
          videoParts.set(key, { urn, index: video.parts.length });
          video.parts.push({
            firstByte: first,
            lastByte: Math.min(size, first + PART) - 1,
            bytes: null,
            etag: null,
          });
        }
        videos.set(urn, video);
        const keys = [...videoParts.entries()].filter(([, v]) => v.urn === urn).map(([k]) => k);
        return {
          status: 200,
          body: {
            value: {
              uploadUrlsExpireAt: Date.now() + 3600_000,
              video: urn,
              uploadInstructions: video.parts.map((p, i) => ({
                uploadUrl: `${s.url}/dms-uploads/video/${keys[i]}`,
                firstByte: p.firstByte,
                lastByte: p.lastByte,
              })),
              uploadToken: video.uploadToken,
            },
          },
        };
      }
      const videoPart = /^\/dms-uploads\/video\/([\w-]+)$/.exec(req.path);
      if (req.method === "PUT" && videoPart) {
        const at = videoParts.get(videoPart[1]!);
        const video = at ? videos.get(at.urn) : undefined;
        const file = req.body as { bytes?: Uint8Array } | undefined;
        if (!at || !video) return problem(400, "BAD_REQUEST", "Invalid upload");
        const part = video.parts[at.index]!;
        if (file?.bytes?.byteLength !== part.lastByte - part.firstByte + 1)
          return problem(
            400,
            "BAD_REQUEST",
            `Part ${at.index} takes bytes ${part.firstByte}-${part.lastByte}`,
          );
        part.bytes = file.bytes;
        part.etag = `/ambry-video/signedId/${crypto.randomUUID()}`;
        return { status: 200, headers: { etag: part.etag } };
      }
      if (req.method === "POST" && req.path === "/rest/videos" && req.query.action === "finalizeUpload") {
        const r = (req.body as { finalizeUploadRequest?: Record<string, unknown> })?.finalizeUploadRequest;
        const video = videos.get(String(r?.video));
        if (!video || !owns(video.owner)) return problem(404, "NOT_FOUND", `${String(r?.video)} not found`);
        if (r?.uploadToken !== video.uploadToken)
          return problem(422, "INVALID_FIELD", "/finalizeUploadRequest/uploadToken does not match");
        const ids = r?.uploadedPartIds;
        if (
          !Array.isArray(ids) ||
          ids.length !== video.parts.length ||
          ids.some((id, i) => id !== video.parts[i]!.etag)
        )
          return problem(
            422,
            "INVALID_FIELD",
            "/finalizeUploadRequest/uploadedPartIds must list every part's ETag in order",
          );
        const bytes = new Uint8Array(video.size);
        for (const p of video.parts) bytes.set(p.bytes!, p.firstByte);
        video.bytes = bytes;
        // LinkedIn processes the file: a few reads show PROCESSING, then AVAILABLE (or PROCESSING_FAILED).
        video.status =
          new TextDecoder().decode(bytes.subarray(4, 8)) === "ftyp"
            ? ["PROCESSING", "PROCESSING", "AVAILABLE"]
            : ["PROCESSING", "PROCESSING_FAILED"];
        return { status: 200 };
      }
      const oneVideo = /^\/rest\/videos\/(.+)$/.exec(req.path);
      if (req.method === "GET" && oneVideo) {
        const video = videos.get(decodeURIComponent(oneVideo[1]!));
        if (!video || !owns(video.owner)) return problem(404, "NOT_FOUND", "Video not found");
        const status = video.status.length > 1 ? video.status.shift()! : video.status[0]!;
        return {
          status: 200,
          body: {
            id: video.urn,
            owner: video.owner,
            status,
            ...(status === "PROCESSING_FAILED"
              ? { processingFailureReason: "Video file is not a supported format" }
              : {}),
            ...(status === "AVAILABLE" ? { duration: 2000, aspectRatioWidth: 4, aspectRatioHeight: 3 } : {}),
          },
        };
      }
      const upload = /^\/dms-uploads\/([\w-]+)$/.exec(req.path);
      if (req.method === "PUT" && upload) {
        const image = images.get(uploads.get(upload[1]!) ?? "");
        const file = req.body as { bytes?: Uint8Array; type?: string } | undefined;
        if (!image || !file?.bytes?.length) return problem(400, "BAD_REQUEST", "Invalid upload");
        uploads.delete(upload[1]!);
        image.bytes = file.bytes;
        image.type = file.type ?? null;
        return { status: 201 };
      }
      const commentsOn = /^\/rest\/socialActions\/([^/]+)\/comments(?:\/([^/]+))?$/.exec(req.path);
      if (req.method === "POST" && commentsOn && !commentsOn[2]) {
        const target = decodeURIComponent(commentsOn[1]!);
        const b = (req.body ?? {}) as Record<string, unknown>;
        for (const f of ["actor", "object", "message"])
          if (b[f] === undefined) return problem(422, "FIELD_MISSING", `/${f} is missing`);
        const text = (b.message as { text?: unknown })?.text;
        if (typeof text !== "string" || text === "")
          return problem(422, "FIELD_MISSING", "/message/text is missing");
        if (b.object !== target)
          return problem(400, "BAD_REQUEST", `/object ${String(b.object)} is not ${target} of the path`);
        const actor = String(b.actor);
        if (!owns(actor))
          return problem(403, "ACCESS_DENIED", `Not enough permissions to comment as ${actor}`);
        const post = posts.find((p) => p.urn === target && !p.deleted);
        if (!post) return problem(404, "NOT_FOUND", `${target} not found`);
        const id = String(++next);
        const urn = `urn:li:comment:(${target},${id})`;
        postComments.push({
          urn,
          id,
          post: target,
          actor,
          text,
          version: req.headers["linkedin-version"]!,
          body: b,
          deleted: false,
        });
        post.comments++;
        const at = { actor, time: Date.now() };
        return {
          status: 201,
          headers: { "x-restli-id": id },
          body: {
            actor,
            agent: `urn:li:person:${memberOf(account)}`,
            commentUrn: urn,
            id,
            object: target,
            message: { text, attributes: [] },
            created: at,
            lastModified: at,
          },
        };
      }
      if (req.method === "DELETE" && commentsOn?.[2]) {
        const target = decodeURIComponent(commentsOn[1]!);
        const id = decodeURIComponent(commentsOn[2]);
        const c = postComments.find((x) => x.post === target && x.id === id && !x.deleted);
        if (!c) return problem(404, "NOT_FOUND", `Comment ${id} on ${target} not found`);
        const actor = req.query.actor ?? `urn:li:person:${memberOf(account)}`;
        if (c.actor.startsWith("urn:li:organization:") && req.query.actor === undefined)
          return problem(400, "BAD_REQUEST", "actor is required to delete an organization's comment");
        if (actor !== c.actor || !owns(actor))
          return problem(403, "ACCESS_DENIED", `Not enough permissions to delete ${c.urn}`);
        c.deleted = true;
        const post = posts.find((p) => p.urn === target);
        if (post) post.comments--;
        return { status: 204 };
      }
      const onePost = /^\/rest\/posts\/([^/]+)$/.exec(req.path);
      if (req.method === "DELETE" && onePost) {
        const urn = decodeURIComponent(onePost[1]!);
        const post = posts.find((p) => p.urn === urn);
        if (!post) return problem(404, "NOT_FOUND", `${urn} not found`);
        if (!owns(post.author))
          return problem(403, "ACCESS_DENIED", `Not enough permissions to delete ${urn}`);
        post.deleted = true;
        return { status: 204 };
      }
      const social = /^\/rest\/socialActions\/(.+)$/.exec(req.path);
      if (req.method === "GET" && social) {
        const urn = decodeURIComponent(social[1]!);
        const post = posts.find((p) => p.urn === urn && !p.deleted);
        if (!post) return problem(404, "NOT_FOUND", `${urn} not found`);
        return {
          status: 200,
          body: {
            likesSummary: { totalLikes: post.likes, likedByCurrentUser: false },
            commentsSummary: {
              aggregatedTotalComments: post.comments,
              totalFirstLevelComments: post.comments,
            },
            target: urn,
          },
        };
      }
      if (req.method === "POST" && req.path === "/rest/posts") {
        const b = req.body as Record<string, unknown>;
        for (const f of ["author", "commentary", "visibility", "distribution", "lifecycleState"])
          if (b[f] === undefined) return problem(422, "FIELD_MISSING", `/${f} is missing`);
        const author = String(b.author);
        if (!owns(author))
          return problem(403, "ACCESS_DENIED", `Not enough permissions to post as ${author}`);
        const content = b.content as
          | { media?: { id?: string }; multiImage?: { images?: { id?: string }[] } }
          | undefined;
        const named = content?.media ? [content.media] : (content?.multiImage?.images ?? []);
        if (content?.multiImage && (named.length < 2 || named.length > 20))
          return problem(422, "INVALID_CONTENT", "A multi-image post takes 2 to 20 images");
        for (const m of named) {
          if ((m.id ?? "").startsWith("urn:li:video:") && !content?.multiImage) {
            const video = videos.get(m.id!);
            if (!video || video.owner !== author || video.status[0] !== "AVAILABLE")
              return problem(422, "INVALID_CONTENT", `Video ${m.id} is not available to ${author}`);
            continue;
          }
          const image = images.get(m.id ?? "");
          if (!image || image.owner !== author || !image.bytes)
            return problem(422, "INVALID_CONTENT", `Image ${m.id} is not available to ${author}`);
        }
        if (posts.some((p) => p.author === author && p.commentary === b.commentary))
          return problem(422, "DUPLICATE_POST", "Content is a duplicate of urn:li:share:1");
        const urn = `urn:li:share:${++next}`;
        posts.push({
          urn,
          author,
          commentary: String(b.commentary),
          version: req.headers["linkedin-version"]!,
          body: b,
          likes: 0,
          comments: 0,
          deleted: false,
        });
        return { status: 201, headers: { "x-restli-id": urn } };
      }
      return problem(404, "NOT_FOUND", "Not found");
    },
  });
  return Object.assign(s, { posts, postComments, pages, images, videos, memberOf });
}
