// Posts: preview, create, find, cancel and move. The inputs are the API's own post schemas (src/domain/posts/
// schema.ts) with `body` standing for `content.body`, so an agent writes one text and svc fits it per network.
import * as v from "valibot";
import { PostCreate, PostPreview, Reschedule } from "../../domain/posts/schema.ts";
import { type ApiCall, segment } from "../api.ts";
import { READ, type Tool } from "../tool.ts";

const body = v.optional(v.string());

/** The post tools' input: the API's schema without `content` (and what a preview does not take), plus `body`. */
const PreviewInput = v.strictObject({
  ...v.omit(PostPreview, ["content", "publish_at", "publish_by", "metadata"]).entries,
  body,
});
const CreateInput = v.strictObject({
  ...v.omit(PostCreate, ["content"]).entries,
  body,
  idempotency_key: v.optional(v.string()),
});

/** The API's post input from a tool's: `body` goes into `content`. */
function postBody(a: Record<string, unknown>): Record<string, unknown> {
  const { body: text, idempotency_key: _, ...rest } = a;
  return text === undefined ? rest : { ...rest, content: { body: text } };
}

const preview = (api: ApiCall, a: Record<string, unknown>) =>
  api({ method: "POST", path: "/v1/posts/preview", body: postBody(a) });

export const postTools: Tool[] = [
  {
    name: "preview_post",
    description:
      "Check a post before creating it: what each channel would receive and EVERY rule it breaks (`valid`, and " +
      "per channel `violations` such as too_long with the measured length and the limit). Give `brand` and either " +
      "`body` (your text; a line holding only {{thread}} starts a new thread part) or `template` + `data`. " +
      "`channels` defaults to every active channel of the brand. Fix each violation (shorten, split into a " +
      "thread, or set `fit` per network: truncate or thread) and preview again until `valid` is true, then call " +
      "create_post with the same input. Changes nothing. Needs posts:read.",
    annotations: { title: "Preview a post", ...READ },
    input: PreviewInput,
    run: preview,
  },
  {
    name: "create_post",
    description:
      "Create a post on the brand's channels; svc publishes it at `publish_at` (`now` by default, `next_slot` for " +
      "the brand's next free slot, or an RFC 3339 time within a year) and never publishes it twice. Same input as " +
      "preview_post plus `publish_at`, `publish_by` (deadline), `metadata` (string pairs) and `idempotency_key`: " +
      "reuse the same key when you retry after an error or a timeout, so a retry cannot create a second post (one " +
      "is generated when you give none, and returned). Returns the post with one target per channel; it may be " +
      "`pending_approval` when the brand requires a person's approval. On 422 the error lists every problem per " +
      "channel: fix them (preview_post helps) and retry. Needs posts:write.",
    annotations: {
      title: "Create a post",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    input: CreateInput,
    run: async (api, a: Record<string, unknown>) => {
      const key = typeof a.idempotency_key === "string" ? a.idempotency_key : `mcp_${crypto.randomUUID()}`;
      const r = await api({ method: "POST", path: "/v1/posts", body: postBody(a), idempotencyKey: key });
      return { ...r, note: `Idempotency-Key: ${key}` };
    },
  },
  {
    name: "list_posts",
    description:
      "List posts, newest first: optionally of one `brand`, with one `status` (pending_approval, scheduled, " +
      "publishing, published, partially_published, failed, canceled, rejected) or whose text contains `q` (at most " +
      "200 characters). `limit` 1-100, default 20. Each post embeds its targets with their status, permalink and " +
      "error. Needs posts:read.",
    annotations: { title: "List posts", ...READ },
    input: v.strictObject({
      brand: v.optional(v.string()),
      status: v.optional(v.string()),
      q: v.optional(v.string()),
      limit: v.optional(v.pipe(v.number(), v.integer())),
    }),
    run: (api, a: { brand?: string; status?: string; q?: string; limit?: number }) =>
      api({ method: "GET", path: "/v1/posts", query: a }),
  },
  {
    name: "get_post",
    description:
      "Get one post by id (post_…) with its targets: per channel the status (queued, publishing, published, " +
      "failed, needs_attention, held, canceled), permalink once published, and the error when it failed. A " +
      "target in needs_attention may or may not have been posted: look at the network, then call " +
      "mark_target_published or retry_target. Needs posts:read.",
    annotations: { title: "Get a post", ...READ },
    input: v.strictObject({ post: v.string() }),
    run: (api, a: { post: string }) => api({ method: "GET", path: `/v1/posts/${segment(a.post)}` }),
  },
  {
    name: "cancel_post",
    description:
      "Cancel every target of a post that is not yet published or publishing. What was already published stays " +
      "published (svc deletes nothing from networks). Fails with post_not_cancelable when nothing is left to " +
      "cancel. Needs posts:write.",
    annotations: {
      title: "Cancel a post",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    },
    input: v.strictObject({ post: v.string() }),
    run: (api, a: { post: string }) => api({ method: "POST", path: `/v1/posts/${segment(a.post)}/cancel` }),
  },
  {
    name: "reschedule_post",
    description:
      "Move a scheduled or pending post that has no publish attempt yet: a new `publish_at` (an RFC 3339 time or " +
      "`next_slot`) and optionally `publish_by`, or trade times with another post of the same brand with " +
      "`swap_with` (a post id). Fails with post_not_movable once publishing started, slot_taken when the time is " +
      "a slot another post holds. Needs posts:write.",
    annotations: {
      title: "Reschedule a post",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    input: v.strictObject({ post: v.string(), ...Reschedule.entries }),
    run: (api, a: { post: string } & Record<string, unknown>) => {
      const { post, ...rest } = a;
      return api({ method: "POST", path: `/v1/posts/${segment(post)}/reschedule`, body: rest });
    },
  },
];
