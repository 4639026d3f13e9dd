// Reject (reference §6): the held targets are canceled, the post is rejected and its slot is freed.
import type { App } from "../../app/context.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { recordEvent, scopeOf } from "../events/record.ts";
import { releaseSlots } from "../slots/take.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { presentedPost } from "./load.ts";
import { pendingForReview, reviewer } from "./review.ts";
import { Review } from "./schema.ts";

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
