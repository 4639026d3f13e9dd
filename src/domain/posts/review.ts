// Who may review a post (reference §6): a post waiting for approval, by a credential holding posts:approve that
// did not create it, and not by the person who wrote it. Approve and reject (approve.ts, reject.ts) both start here.
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
  if (isRequester(actor, post))
    throw forbidden("forbidden", "You asked for this post's approval; another admin or owner reviews it.");
  return post;
}

/**
 * The person who wrote a post does not review it (interface.md: a post waiting for approval is for "admins and
 * owners, not the requester"; reference §6: a key cannot review a post it created). A person signed in to the
 * dashboard or the CLI is the same requester whichever of the two they used; a post one of the org's keys made is
 * reviewed by any person who may approve.
 */
export const isRequester = (actor: Actor, post: Pick<PostsTable, "created_by_user" | "created_by_key">) =>
  actor.userId !== null && post.created_by_key === null && post.created_by_user === actor.userId;

export const reviewer = (actor: Actor, now: number, note: string | undefined) => ({
  reviewed_by: actor.userId,
  reviewed_by_key: actor.apiKeyId,
  reviewed_by_link: actor.reviewLinkId ?? null,
  reviewed_at: now,
  review_note: note ?? null,
  updated_at: now,
});

/** Which of these posts (in the actor's org and mode) the acting person wrote: the approvals page offers them no review. */
export async function requestedBy(app: App, actor: Actor, ids: string[]): Promise<Set<string>> {
  if (actor.userId === null || ids.length === 0) return new Set();
  const rows = await app.db
    .selectFrom("posts")
    .select("id")
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0)
    .where("id", "in", ids)
    .where("created_by_user", "=", actor.userId)
    .where("created_by_key", "is", null)
    .execute();
  return new Set(rows.map((r) => r.id));
}
