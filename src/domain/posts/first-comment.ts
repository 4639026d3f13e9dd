// A target's first comment: the account's own reply right after the post. It is published as the part after the
// post's last, so it has a part's guarantees: its remote reference is saved when it is posted, a later attempt
// resumes after what was posted (the post is never sent again for a comment that failed, nor the comment twice),
// and its status reads from what was posted and the target's state.
import type { PostTargetsTable } from "../../db/tables/posts.ts";
import type { PublishedPart } from "../../platforms/adapter.ts";

/** The parts to publish: the post's, then its first comment. */
export const withFirstComment = (parts: string[], comment: string | null): string[] =>
  comment === null ? parts : [...parts, comment];

export interface PresentedFirstComment {
  text: string;
  /** pending until posted; published once on the network; else the target's own end (failed, canceled, …). */
  status: "pending" | "published" | "failed" | "needs_attention" | "canceled";
  permalink: string | null;
}

export function presentFirstComment(t: PostTargetsTable): PresentedFirstComment | null {
  if (!t.first_comment) return null;
  const index = (JSON.parse(t.parts) as string[]).length;
  const posted = (JSON.parse(t.remote_parts) as PublishedPart[]).find((p) => p.index === index);
  if (posted) return { text: t.first_comment, status: "published", permalink: posted.remote_url };
  const status =
    t.status === "failed" || t.status === "needs_attention" || t.status === "canceled" ? t.status : "pending";
  return { text: t.first_comment, status, permalink: null };
}
