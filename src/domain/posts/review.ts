// Approve and reject (reference §6). Approval takes the slot in the same transaction (slot order = approval
// order) and queues the held targets; a failure leaves the post pending. A key never reviews a post it created.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import type { PostsTable } from "../../db/tables/posts.ts";
import { conflict, forbidden } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { isActingCredential } from "../api-keys/service.ts";
import { audit } from "../audit/service.ts";
import { loadBrand } from "../brands/service.ts";
import { recordEvent, scopeOf } from "../events/record.ts";
import { releaseSlots, takeNextSlot } from "../slots/take.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { loadPost, presentedPost } from "./load.ts";
import { lockPosts } from "./lock.ts";
import { notifyDue, wakeLocal } from "./notify.ts";
import { DEFAULT_WINDOW_MS } from "./publish-time.ts";
import { refreshPosts } from "./refresh.ts";
import { Review } from "./schema.ts";

async function pendingForReview(tx: Tx, app: App, actor: Actor, id: string): Promise<PostsTable> {
  requireScope(actor, "posts:approve");
  let post = await loadPost(tx, actor, id);
  if (app.dialect === "postgres") {
    // Locked, then read again: two reviews of one post take turns, the second sees the first's outcome (lock.ts).
    await lockPosts(tx, app.dialect, [post.id]);
    post = await loadPost(tx, actor, id);
  }
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

const reviewer = (actor: Actor, now: number, note: string | undefined) => ({
  reviewed_by: actor.userId,
  reviewed_by_key: actor.apiKeyId,
  reviewed_at: now,
  review_note: note ?? null,
  updated_at: now,
});

export async function approvePost(app: App, actor: Actor, id: string, input: unknown) {
  const b = parse(Review, input);
  const now = app.clock.now();
  const out = await inTx(app, async (tx) => {
    const post = await pendingForReview(tx, app, actor, id);
    let publishAt = post.publish_at;
    let publishBy = post.publish_by;
    if (post.slot === 1 && publishAt === null) {
      const brand = await loadBrand(tx, actor, post.brand_id);
      publishAt = await takeNextSlot(tx, app.dialect, brand, actor.livemode, post.id, now, post.publish_by);
      publishBy = post.publish_by ?? publishAt + DEFAULT_WINDOW_MS;
    }
    await tx
      .updateTable("posts")
      .set({ ...reviewer(actor, now, b.note), publish_at: publishAt, publish_by: publishBy })
      .where("id", "=", post.id)
      .execute();
    await tx
      .updateTable("post_targets")
      .set({
        status: "queued",
        next_attempt_at: Math.max(publishAt ?? now, now),
        publish_by: publishBy,
        updated_at: now,
      })
      .where("post_id", "=", post.id)
      .where("status", "=", "held")
      .execute();
    await refreshPosts(tx, app, [post.id], actor.requestId);
    const presented = await presentedPost(tx, post.id);
    await recordEvent(tx, app, scopeOf(actor), "post.approved", presented);
    await audit(tx, app, actor, {
      action: "post.approve",
      target: post.id,
      detail: b.note ? { note: b.note } : null,
    });
    await notifyDue(tx, app);
    return presented;
  });
  wakeLocal(app);
  return out;
}

export async function rejectPost(app: App, actor: Actor, id: string, input: unknown) {
  const b = parse(Review, input);
  const now = app.clock.now();
  return inTx(app, async (tx) => {
    const post = await pendingForReview(tx, app, actor, id);
    await tx
      .updateTable("post_targets")
      .set({ status: "canceled", next_attempt_at: null, updated_at: now })
      .where("post_id", "=", post.id)
      .where("status", "=", "held")
      .execute();
    await tx
      .updateTable("posts")
      .set({ ...reviewer(actor, now, b.note), status: "rejected" })
      .where("id", "=", post.id)
      .execute();
    await releaseSlots(tx, post.id);
    const presented = await presentedPost(tx, post.id);
    await recordEvent(tx, app, scopeOf(actor), "post.rejected", presented);
    await audit(tx, app, actor, {
      action: "post.reject",
      target: post.id,
      detail: b.note ? { note: b.note } : null,
    });
    return presented;
  });
}
