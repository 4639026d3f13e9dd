// What a post was made from, kept on the post (posts.input, migration 0026) so an edit changes only what it names
// and a draft can be scheduled later with everything it was given. A post made before the column existed is read
// back from its own columns and targets (its top-level overrides and fit were not kept then).
import type { PostsTable, PostTargetsTable } from "../../db/tables/posts.ts";
import type { Media } from "../media/present.ts";
import type { PrepareInput } from "./prepare.ts";

export type StoredInput = Omit<PrepareInput, "brand" | "metadata"> & { publish_at?: string | undefined };

export function storedInput(b: StoredInput): string {
  return JSON.stringify({
    template: b.template,
    data: b.data,
    content: b.content,
    channels: b.channels,
    media: b.media,
    overrides: b.overrides,
    fit: b.fit,
    first_comment: b.first_comment,
    publish_at: b.publish_at,
  } satisfies StoredInput);
}

export function readInput(post: PostsTable, targets: readonly PostTargetsTable[]): StoredInput {
  if (post.input) return JSON.parse(post.input) as StoredInput;
  const media = (JSON.parse(post.media) as Media[]).map((m) => m.id);
  return {
    template: post.template_key ?? undefined,
    data: post.data === null ? undefined : (JSON.parse(post.data) as unknown),
    content: post.content === null ? undefined : JSON.parse(post.content),
    channels: targets.map((t) => t.channel_id),
    first_comment: targets[0]?.first_comment ?? undefined,
    media: media.length ? media : undefined,
    publish_at: post.slot === 1 && post.publish_at === null ? "next_slot" : undefined,
  };
}
