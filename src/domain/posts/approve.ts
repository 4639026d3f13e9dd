// Approve (reference §6): takes the slot in the same transaction (slot order = approval order) and queues the
// held targets; a failure leaves the post pending.
import type { App } from "../../app/context.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { loadBrand } from "../brands/service.ts";
import { recordEvent, scopeOf } from "../events/record.ts";
import { takeNextSlot } from "../slots/take.ts";
import { refreshPosts } from "../targets/refresh-posts.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { presentedPost } from "./load.ts";
import { notifyDue, wakeLocal } from "./notify.ts";
import { DEFAULT_WINDOW_MS } from "./publish-time.ts";
import { pendingForReview, reviewer } from "./review.ts";
import { Review } from "./schema.ts";

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
