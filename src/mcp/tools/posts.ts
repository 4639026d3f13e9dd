// Posts: preview, create, find, cancel and move. The inputs are the API's own post schemas (src/domain/posts/
// schema.ts) with `body` standing for `content.body`, so an agent writes one text and svc fits it per network.
import * as v from "valibot";
import { PostCreate, PostPreview, PostUpdate, Reschedule } from "../../domain/posts/schema.ts";
import { type ApiCall, segment } from "../api.ts";
import { BRAND, described, describedEntries, FIT_DOC, OVERRIDES_DOC, POST } from "../fields.ts";
import { READ, type Tool } from "../tool.ts";

const body = v.optional(v.string());

/** What an agent reads about each argument of the post tools. */
const POST_DOCS = {
  brand: `${BRAND} The post belongs to it.`,
  body:
    "The post's text (give it or `template`). A line holding only {{thread}} starts a new thread part. Links to " +
    "the brand's UTM domains get utm_ parameters before the length is measured.",
  template:
    "A template instead of `body`: its id (tmpl_…), key (latest version) or `key@N`; its text is made from `data`.",
  data: "With `template`: the values its variables schema asks for (get_template shows the schema and examples).",
  channels:
    "The channel ids (chan_…) to post to; default every active channel of the brand in this credential's mode.",
  media:
    "Media ids (media_…) from upload_media_from_url, in order; at most 10 per post, and a video is alone.",
  overrides: OVERRIDES_DOC,
  fit: FIT_DOC,
  publish_at: [
    "When to publish: `now` (default), `next_slot` (the brand's next free posting slot) or an RFC 3339 time at " +
      "most a year ahead.",
    { examples: ["now", "next_slot", "2026-03-02T09:00:00Z"] },
  ],
  publish_by: [
    "The deadline (RFC 3339, after publish_at): a channel not published by then fails `expired`. Default " +
      "publish_at + 24 hours; null for the default.",
    { format: "date-time" },
  ],
  metadata:
    "Your own string pairs kept with the post (at most 50; keys 1-40 characters, values at most 500).",
  first_comment:
    "The account's own first reply, posted right after the post (a link, hashtags, a call to action), on " +
    "networks that take replies (Bluesky, Mastodon, Gab, X, Threads) or the account's comment on its own post " +
    "(Facebook Pages, Instagram, LinkedIn Pages, YouTube); a channel whose network cannot is refused with " +
    "first_comment_unsupported. At most the network's text limit (LinkedIn Pages 1,250, YouTube 10,000).",
  draft:
    "true: save as a draft (status draft): no time needed, rule problems are shown in the post's `problems` " +
    "instead of refused, never published until scheduled with update_post (draft: false).",
  idempotency_key:
    "Reuse the same value when you retry after an error or a timeout, so a retry cannot create a second post " +
    "(at most 255 characters). One is generated when you give none, and returned.",
} as const;

/** The post tools' input: the API's schema without `content` (and what a preview does not take), plus `body`. */
const previewEntries = {
  ...v.omit(PostPreview, ["content", "publish_at", "publish_by", "metadata"]).entries,
  body,
};
const PreviewInput = v.strictObject(
  describedEntries(previewEntries, {
    brand: POST_DOCS.brand,
    body: POST_DOCS.body,
    template: POST_DOCS.template,
    data: POST_DOCS.data,
    channels: POST_DOCS.channels,
    media: POST_DOCS.media,
    overrides: POST_DOCS.overrides,
    fit: POST_DOCS.fit,
    first_comment: POST_DOCS.first_comment,
  }),
);
const createEntries = {
  ...v.omit(PostCreate, ["content"]).entries,
  body,
  idempotency_key: v.optional(v.string()),
};
const CreateInput = v.strictObject(describedEntries(createEntries, POST_DOCS));

const updateEntries = { post: v.string(), ...v.omit(PostUpdate, ["content"]).entries, body };
const UpdateInput = v.strictObject(
  describedEntries(updateEntries, {
    post: POST,
    body: "The new text (replaces the text or template the post had).",
    template: "A template instead of the text: its id (tmpl_…), key or `key@N`, with `data`.",
    data: POST_DOCS.data,
    channels: "The channel ids (chan_…) to post to instead of the ones the post has.",
    media: "Media ids (media_…) instead of the ones the post has ([] for none).",
    overrides: OVERRIDES_DOC,
    fit: FIT_DOC,
    publish_at: POST_DOCS.publish_at,
    publish_by: POST_DOCS.publish_by,
    metadata: "Your string pairs instead of the ones the post has.",
    first_comment: `${POST_DOCS.first_comment} null removes it.`,
    draft:
      "false: schedule a draft (checked then like a new post; it takes its time, else `now`). true: take a " +
      "scheduled or pending post back to a draft.",
  }),
);

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
    name: "update_post",
    description:
      "Edit a draft, scheduled or pending post before any of it is published: give only what changes (`body` or " +
      "`template` + `data`, `channels`, `media`, `overrides`, `fit`, `publish_at`, `publish_by`, `metadata`); the " +
      "rest stays. The whole post is checked again like create_post (on 422 the error lists every problem). " +
      "`draft: false` schedules a draft. An approved post of a brand that requires approval goes back to " +
      "pending_approval. Fails with post_not_editable (409) once publishing started: then cancel_post or leave it. " +
      "Needs posts:write.",
    annotations: {
      title: "Edit a post",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    input: UpdateInput,
    run: (api, a: { post: string } & Record<string, unknown>) => {
      const { post, ...rest } = a;
      return api({ method: "POST", path: `/v1/posts/${segment(post)}`, body: postBody(rest) });
    },
  },
  {
    name: "list_posts",
    description:
      "List posts, newest first: optionally of one `brand`, with one `status` (draft, pending_approval, scheduled, " +
      "publishing, published, partially_published, failed, canceled, rejected) or whose text contains `q` (at most " +
      "200 characters). `limit` 1-100, default 20. Each post embeds its targets with their status, permalink and " +
      "error. Needs posts:read.",
    annotations: { title: "List posts", ...READ },
    input: v.strictObject(
      describedEntries(
        {
          brand: v.optional(v.string()),
          status: v.optional(v.string()),
          q: v.optional(v.string()),
          limit: v.optional(v.pipe(v.number(), v.integer())),
        },
        {
          brand: `${BRAND} Without it, the posts of every brand.`,
          status: [
            "Only posts with this status.",
            {
              enum: [
                "draft",
                "pending_approval",
                "scheduled",
                "publishing",
                "published",
                "partially_published",
                "failed",
                "canceled",
                "rejected",
              ],
            },
          ],
          q: "Only posts whose text (on any channel) contains these words; at most 200 characters.",
          limit: ["How many posts, 1 to 100 (default 20).", { minimum: 1, maximum: 100 }],
        },
      ),
    ),
    run: (api, a: { brand?: string; status?: string; q?: string; limit?: number }) =>
      api({ method: "GET", path: "/v1/posts", query: a }),
  },
  {
    name: "get_post",
    description:
      "Get one post by id (post_…) with its targets: per channel the status (draft, queued, publishing, published, " +
      "failed, needs_attention, held, canceled), permalink once published, and the error when it failed. A " +
      "target in needs_attention may or may not have been posted: look at the network, then call " +
      "mark_target_published or retry_target. Needs posts:read.",
    annotations: { title: "Get a post", ...READ },
    input: v.strictObject({ post: described(v.string(), POST) }),
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
    input: v.strictObject({ post: described(v.string(), POST) }),
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
    input: v.strictObject(
      describedEntries(
        { post: v.string(), ...Reschedule.entries },
        {
          post: POST,
          publish_at: [
            "The new time: an RFC 3339 time (on one of the brand's slots it takes that slot) or `next_slot`.",
            { examples: ["next_slot", "2026-03-02T09:00:00Z"] },
          ],
          publish_by: [
            "A new deadline (RFC 3339, after publish_at); not with swap_with.",
            { format: "date-time" },
          ],
          swap_with:
            "Another post's id (post_…) of the same brand: the two trade times, deadlines and slots.",
        },
      ),
    ),
    run: (api, a: { post: string } & Record<string, unknown>) => {
      const { post, ...rest } = a;
      return api({ method: "POST", path: `/v1/posts/${segment(post)}/reschedule`, body: rest });
    },
  },
];
