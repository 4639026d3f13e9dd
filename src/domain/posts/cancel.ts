// Cancel: every target not yet published, failed, publishing or canceled becomes canceled; nothing left to
// cancel is 409 post_not_cancelable.
import type { App } from "../../app/context.ts";
import { conflict } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { recordEvent, scopeOf } from "../events/record.ts";
import { releaseSlots } from "../slots/take.ts";
import { lockPosts } from "../targets/lock-posts.ts";
import { refreshPosts } from "../targets/refresh-posts.ts";
import { inTx } from "../tx.ts";
import { loadPost, presentedPost } from "./load.ts";

const CANCELABLE = ["draft", "held", "queued", "needs_attention"];

export async function cancelPost(app: App, actor: Actor, id: string) {
  requireScope(actor, "posts:write");
  const now = app.clock.now();
  return inTx(app, async (tx) => {
    const post = await loadPost(tx, actor, id);
    // The post before its targets (lock.ts).
    await lockPosts(tx, app.dialect, [post.id]);
    const r = await tx
      .updateTable("post_targets")
      .set({ status: "canceled", next_attempt_at: null, updated_at: now })
      .where("post_id", "=", post.id)
      .where("status", "in", CANCELABLE)
      .executeTakeFirst();
    // A draft stays a draft in the derived status (post-status.ts) and may have no target at all (saved before it
    // had text or channels): canceling one sets it canceled outright.
    if (post.status === "draft")
      await tx
        .updateTable("posts")
        .set({ status: "canceled", updated_at: now })
        .where("id", "=", post.id)
        .execute();
    else if (Number(r.numUpdatedRows) === 0)
      throw conflict("post_not_cancelable", "Nothing in this post is left to cancel.");
    await releaseSlots(tx, post.id);
    const became = await refreshPosts(tx, app, [post.id], actor.requestId);
    const presented = await presentedPost(tx, post.id);
    // A post now wholly canceled was announced by the refresh; one that goes on (a target still publishing) or
    // ended otherwise (partially published) is announced as canceled here: the cancel itself happened.
    if (became.get(post.id) !== "canceled")
      await recordEvent(tx, app, scopeOf(actor), "post.canceled", presented);
    await audit(tx, app, actor, { action: "post.cancel", target: post.id });
    return presented;
  });
}
