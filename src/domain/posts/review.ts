// Who may review a post (reference §6): a post waiting for approval, by a credential holding posts:approve that
// did not create it. Approve and reject (approve.ts, reject.ts) both start here.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import type { PostsTable } from "../../db/tables/posts.ts";
import { conflict, forbidden } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { isActingCredential } from "../identity/api-keys/service.ts";
import { lockPosts } from "../targets/lock-posts.ts";
import { loadPost } from "./load.ts";

export async function pendingForReview(tx: Tx, app: App, actor: Actor, id: string): Promise<PostsTable> {
  requireScope(actor, "posts:approve");
  // Found (in the actor's org and mode), locked, then read again: two reviews of one post take turns, the second
  // sees the first's outcome (lock.ts). On SQLite the lock is nothing and the second read finds the same row.
  await lockPosts(tx, app.dialect, [(await loadPost(tx, actor, id)).id]);
  const post = await loadPost(tx, actor, id);
  if (post.status !== "pending_approval")
    throw conflict("post_not_pending", "Only a post waiting for approval can be approved or rejected.");
  // A rolled key is the same credential as the key it replaced: neither may review what the other created.
  if (await isActingCredential(tx, actor, post.created_by_key))
    throw forbidden(
      "forbidden",
      "A key cannot review a post it (or a key it was rolled from or to) created.",
    );
  return post;
}

export const reviewer = (actor: Actor, now: number, note: string | undefined) => ({
  reviewed_by: actor.userId,
  reviewed_by_key: actor.apiKeyId,
  reviewed_at: now,
  review_note: note ?? null,
  updated_at: now,
});
