import { getPost, listAttempts, listPosts } from "../../../domain/posts/read.ts";
import {
  MarkPublished,
  PostCreate,
  PostPreview,
  PostUpdate,
  Reschedule,
  Review,
} from "../../../domain/posts/schema.ts";
import { POST_STATUSES, TARGET_STATUSES } from "../../../domain/targets/post-status.ts";
import { once } from "../../../lib/once.ts";
import { nstr, ntime, obj, str } from "../../openapi-schemas.ts";
import { type RouteDef, reply } from "../../route.ts";

// Each use case loads with its first request (docs/performance.md, "Start and idle memory").
const loadCreatePost = once(() => import("../../../domain/posts/create.ts"));

// The rarer actions load with their first use (listing, reading and creating are what an idle process meets first).
const loadApprovePost = once(() => import("../../../domain/posts/approve.ts"));
const loadCancelPost = once(() => import("../../../domain/posts/cancel.ts"));
const loadDeletePublished = once(() => import("../../../domain/posts/delete-published.ts"));
const loadPreviewPost = once(() => import("../../../domain/posts/preview.ts"));
const loadRejectPost = once(() => import("../../../domain/posts/reject.ts"));
const loadReschedulePost = once(() => import("../../../domain/posts/reschedule.ts"));
const loadUpdatePost = once(() => import("../../../domain/posts/update.ts"));
const loadResolve = once(() => import("../../../domain/targets/resolve.ts"));

export const postRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/posts",
    tag: "Posts",
    summary: "List posts (filters: brand, status, q, metadata[key])",
    scope: "posts:read",
    list: true,
    query: ["brand", "status", "q"],
    queryPrefixes: ["metadata["],
    response: "PostList",
    handler: ({ app, actor, query }) => listPosts(app, actor, query),
  },
  {
    method: "POST",
    path: "/v1/posts",
    tag: "Posts",
    summary: "Create a post: checked against every channel's rules; 422 lists every problem",
    scope: "posts:write",
    body: PostCreate,
    response: "Post",
    status: 201,
    answerInTx: true,
    handler: async ({ app, actor, body, idempotency }) =>
      reply(201, await (await loadCreatePost()).createPost(app, actor, body, idempotency)),
  },
  {
    method: "POST",
    path: "/v1/posts/preview",
    tag: "Posts",
    summary: "What each channel would receive and every rule it breaks",
    scope: "posts:read",
    body: PostPreview,
    response: "Preview",
    safe: true,
    handler: async ({ app, actor, body }) => (await loadPreviewPost()).previewPost(app, actor, body),
  },
  {
    method: "GET",
    path: "/v1/posts/:id",
    tag: "Posts",
    summary: "Get a post with its targets",
    scope: "posts:read",
    response: "Post",
    handler: ({ app, actor, params }) => getPost(app, actor, params.id!),
  },
  {
    method: "POST",
    path: "/v1/posts/:id",
    tag: "Posts",
    summary:
      "Edit a draft, scheduled or pending post before publishing; checked again (422 lists every problem); " +
      "409 post_not_editable once publishing started",
    scope: "posts:write",
    body: PostUpdate,
    response: "Post",
    handler: async ({ app, actor, params, body }) =>
      (await loadUpdatePost()).updatePost(app, actor, params.id!, body),
  },
  {
    method: "POST",
    path: "/v1/posts/:id/cancel",
    tag: "Posts",
    summary: "Cancel every target not yet published",
    scope: "posts:write",
    response: "Post",
    handler: async ({ app, actor, params }) => (await loadCancelPost()).cancelPost(app, actor, params.id!),
  },
  {
    method: "POST",
    path: "/v1/posts/:id/delete_published",
    tag: "Posts",
    summary:
      "Delete a published post (all its parts) from each network that allows it; a result per target " +
      "(deleted, delete_failed, delete_unsupported); asking again deletes nothing twice",
    scope: "posts:write",
    response: "PostDeletion",
    handler: async ({ app, actor, params }) =>
      (await loadDeletePublished()).deletePublished(app, actor, params.id!),
  },
  {
    method: "POST",
    path: "/v1/posts/:id/reschedule",
    tag: "Posts",
    summary: "Move a post (publish_at, publish_by) or swap times with another (swap_with)",
    scope: "posts:write",
    body: Reschedule,
    response: "Post",
    handler: async ({ app, actor, params, body }) =>
      (await loadReschedulePost()).reschedulePost(app, actor, params.id!, body),
  },
  {
    method: "POST",
    path: "/v1/posts/:id/approve",
    tag: "Posts",
    summary: "Approve a pending post (never one the key created); takes its slot",
    scope: "posts:approve",
    body: Review,
    response: "Post",
    handler: async ({ app, actor, params, body }) =>
      (await loadApprovePost()).approvePost(app, actor, params.id!, body),
  },
  {
    method: "POST",
    path: "/v1/posts/:id/reject",
    tag: "Posts",
    summary: "Reject a pending post",
    scope: "posts:approve",
    body: Review,
    response: "Post",
    handler: async ({ app, actor, params, body }) =>
      (await loadRejectPost()).rejectPost(app, actor, params.id!, body),
  },
  {
    method: "POST",
    path: "/v1/post_targets/:id/retry",
    tag: "Posts",
    summary: "Queue a failed or uncertain target again (deadline now + 24 h)",
    scope: "posts:write",
    response: "PostTarget",
    handler: async ({ app, actor, params }) => (await loadResolve()).retryTarget(app, actor, params.id!),
  },
  {
    method: "POST",
    path: "/v1/post_targets/:id/mark_published",
    tag: "Posts",
    summary: "Record that a failed or uncertain target is on the network",
    scope: "posts:write",
    body: MarkPublished,
    response: "PostTarget",
    handler: async ({ app, actor, params, body }) =>
      (await loadResolve()).markTargetPublished(app, actor, params.id!, body),
  },
  {
    method: "GET",
    path: "/v1/post_targets/:id/attempts",
    tag: "Posts",
    summary: "A target's publish attempts, oldest first",
    scope: "posts:read",
    response: "PublishAttemptList",
    handler: ({ app, actor, params }) => listAttempts(app, actor, params.id!),
  },
];

const error = { oneOf: [{ type: "null" }, obj({ code: str, message: str })] };

export const postSchemas: Record<string, unknown> = {
  PostTarget: obj({
    id: str,
    object: { const: "post_target" },
    post: str,
    channel: str,
    channel_name: str,
    provider: str,
    livemode: { type: "boolean" },
    parts: { type: "array", items: str },
    status: { enum: [...TARGET_STATUSES] },
    attempts: { type: "integer" },
    next_attempt_at: ntime,
    publish_by: ntime,
    permalink: nstr,
    error,
    published_at: ntime,
    first_comment: {
      oneOf: [
        { type: "null" },
        obj({
          text: str,
          status: { enum: ["pending", "published", "failed", "needs_attention", "canceled"] },
          permalink: nstr,
        }),
      ],
    },
    engagement: { oneOf: [{ type: "null" }, { $ref: "#/components/schemas/Engagement" }] },
    deleted_at: ntime,
  }),
  PostDeletion: obj({
    object: { const: "post_deletion" },
    post: str,
    results: {
      type: "array",
      items: obj({
        target: str,
        channel: str,
        provider: str,
        result: { enum: ["deleted", "delete_failed", "delete_unsupported"] },
        message: nstr,
      }),
    },
  }),
  Post: obj({
    id: str,
    object: { const: "post" },
    brand: str,
    livemode: { type: "boolean" },
    status: { enum: [...POST_STATUSES] },
    template: nstr,
    template_version: { type: ["integer", "null"] },
    data: {},
    content: {},
    publish_at: ntime,
    publish_by: ntime,
    slot: { type: "boolean" },
    metadata: { type: "object", additionalProperties: str },
    approval: obj({
      required: { type: "boolean" },
      reviewed_by: nstr,
      reviewed_by_key: nstr,
      reviewed_by_link: nstr,
      reviewed_at: ntime,
      note: nstr,
    }),
    media: { type: "array", items: { $ref: "#/components/schemas/Media" } },
    problems: {
      type: "array",
      items: obj({ code: str, message: str, param: str, detail: {} }, ["code", "message"]),
    },
    targets: { type: "array", items: { $ref: "#/components/schemas/PostTarget" } },
    created_at: { type: "string", format: "date-time" },
    updated_at: { type: "string", format: "date-time" },
  }),
  PublishAttempt: obj({
    object: { const: "publish_attempt" },
    attempt: { type: "integer" },
    started_at: { type: "string", format: "date-time" },
    finished_at: ntime,
    outcome: {
      enum: [
        "published",
        "rate_limited",
        "auth_revoked",
        "rejected",
        "transient",
        "uncertain",
        "unknown",
        "running",
      ],
    },
    error,
  }),
};
