// POST /v1/posts and /v1/posts/preview input (reference §4 PostInput). Types here; rules (each with its code)
// are checked by the service so that one response lists every problem.
import * as v from "valibot";
import { rule } from "../validate.ts";

const FITS = ["error", "truncate", "thread"] as const;

export const Content = v.strictObject({
  body: v.optional(v.string()),
  parts: v.optional(v.array(v.string())),
  overrides: v.optional(v.record(v.string(), v.string())),
  fit: v.optional(
    v.record(
      v.string(),
      v.pipe(v.string(), v.picklist(FITS, rule("fit_invalid", "fit must be error, truncate or thread."))),
    ),
  ),
});
export type ContentInput = v.InferOutput<typeof Content>;

const base = {
  brand: v.string(),
  template: v.optional(v.string()),
  data: v.optional(v.unknown()),
  content: v.optional(Content),
  channels: v.optional(v.array(v.string())),
  media: v.optional(v.array(v.string())),
  overrides: v.optional(v.record(v.string(), v.string())),
  fit: v.optional(
    v.record(
      v.string(),
      v.pipe(v.string(), v.picklist(FITS, rule("fit_invalid", "fit must be error, truncate or thread."))),
    ),
  ),
  /** The account's own first reply, right after the post, where the network allows one (null: none). */
  first_comment: v.optional(v.nullable(v.string())),
};

export const PostCreate = v.strictObject({
  ...base,
  publish_at: v.optional(v.string()),
  publish_by: v.optional(v.nullable(v.string())),
  metadata: v.optional(v.record(v.string(), v.unknown())),
  /** A draft: saved with its rule problems shown, not refused; no time needed; never published until scheduled. */
  draft: v.optional(v.boolean()),
});
export type PostCreateInput = v.InferOutput<typeof PostCreate>;

/**
 * POST /v1/posts/{id}: what changes; anything left out stays as it was. `template` or `content` replaces the other
 * (and `data` goes with the template). `draft: false` schedules a draft (checked as a create is); `draft: true`
 * takes a scheduled or pending post back to a draft.
 */
export const PostUpdate = v.strictObject({
  template: base.template,
  data: base.data,
  content: base.content,
  channels: base.channels,
  media: base.media,
  overrides: base.overrides,
  fit: base.fit,
  first_comment: base.first_comment,
  publish_at: v.optional(v.string()),
  publish_by: v.optional(v.nullable(v.string())),
  metadata: v.optional(v.record(v.string(), v.unknown())),
  draft: v.optional(v.boolean()),
});
export type PostUpdateInput = v.InferOutput<typeof PostUpdate>;

export const PostPreview = v.strictObject({
  ...base,
  metadata: v.optional(v.record(v.string(), v.unknown())),
  publish_at: v.optional(v.string()),
  publish_by: v.optional(v.nullable(v.string())),
});

export const Reschedule = v.strictObject({
  publish_at: v.optional(v.string()),
  publish_by: v.optional(v.nullable(v.string())),
  swap_with: v.optional(v.string()),
});

const note = v.optional(
  v.pipe(v.string(), v.maxLength(500, rule("parameter_invalid", "note is at most 500 characters."))),
);
export const Review = v.strictObject({ note });

export const MarkPublished = v.strictObject({
  permalink: v.optional(
    v.nullable(v.pipe(v.string(), v.url(rule("url_invalid", "permalink must be an absolute URL.")))),
  ),
});
