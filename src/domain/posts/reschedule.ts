// Reschedule and swap (reference §6): only scheduled or pending posts with no attempts; a time on one of the
// brand's slots takes that slot (409 slot_taken names the holder); swap_with trades times, deadlines and slots
// atomically (same brand and mode, both with a time, no publish_by with a swap).
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import type { PostsTable } from "../../db/tables/posts.ts";
import { conflict, invalid, problem } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import type { Slot } from "../brands/schema.ts";
import { loadBrand } from "../brands/service.ts";
import { recordEvent, scopeOf } from "../events/record.ts";
import { isSlotTime } from "../slots/next.ts";
import { releaseSlots, takeExactSlot, takeNextSlot } from "../slots/take.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { loadPost, presentedPost } from "./load.ts";
import { notifyDue, wakeLocal } from "./notify.ts";
import { DEFAULT_WINDOW_MS, isProblem, parsePublishAt, parsePublishBy } from "./publish-time.ts";
import { Reschedule } from "./schema.ts";
import { updatePost } from "./update.ts";

async function movable(tx: Tx, post: PostsTable): Promise<void> {
  if (post.status !== "scheduled" && post.status !== "pending_approval")
    throw conflict("post_not_movable", "Only a scheduled or pending post can be moved.");
  const tried = await tx
    .selectFrom("post_targets")
    .select("id")
    .where("post_id", "=", post.id)
    .where("attempts", ">", 0)
    .executeTakeFirst();
  if (tried)
    throw conflict("post_not_movable", "Publishing has started for this post; it can no longer be moved.");
}

async function setTimes(
  tx: Tx,
  app: App,
  post: PostsTable,
  publishAt: number | null,
  publishBy: number | null,
  slot: boolean,
): Promise<void> {
  const now = app.clock.now();
  await tx
    .updateTable("posts")
    .set({ publish_at: publishAt, publish_by: publishBy, slot: slot ? 1 : 0, updated_at: now })
    .where("id", "=", post.id)
    .execute();
  await tx
    .updateTable("post_targets")
    .set({
      next_attempt_at: publishAt === null ? null : Math.max(publishAt, now),
      publish_by: publishBy,
      updated_at: now,
    })
    .where("post_id", "=", post.id)
    .where("status", "in", ["queued", "held"])
    .execute();
}

export async function reschedulePost(app: App, actor: Actor, id: string, input: unknown) {
  requireScope(actor, "posts:write");
  const b = parse(Reschedule, input);
  const now = app.clock.now();
  if (
    b.swap_with !== undefined &&
    (b.publish_at !== undefined || (b.publish_by !== undefined && b.publish_by !== null))
  ) {
    throw invalid([
      problem("reschedule_invalid", "Give publish_at (and publish_by), or swap_with alone.", "swap_with"),
    ]);
  }
  if (b.swap_with === undefined && b.publish_at === undefined && b.publish_by === undefined) {
    throw invalid([problem("reschedule_invalid", "Give publish_at, publish_by or swap_with.")]);
  }
  // A draft is scheduled by giving it a time: checked as a new post is (posts/update.ts).
  if (b.swap_with === undefined && b.publish_at !== undefined) {
    const post = await loadPost(app.db, actor, id);
    if (post.status === "draft")
      return updatePost(app, actor, id, {
        draft: false,
        publish_at: b.publish_at,
        ...(b.publish_by === undefined ? {} : { publish_by: b.publish_by }),
      });
  }
  const out = await inTx(app, async (tx) => {
    const post = await loadPost(tx, actor, id);
    await movable(tx, post);
    const brand = await loadBrand(tx, actor, post.brand_id);
    if (b.swap_with !== undefined) {
      const other = await loadPost(tx, actor, b.swap_with, "swap_with");
      if (other.brand_id !== post.brand_id)
        throw invalid([
          problem("swap_other_brand", "Both posts of a swap must belong to one brand.", "swap_with"),
        ]);
      await movable(tx, other);
      if (post.publish_at === null || other.publish_at === null)
        throw conflict("post_unscheduled", "Both posts of a swap need a time.", { param: "swap_with" });
      const mine = await tx.selectFrom("post_slots").selectAll().where("post_id", "=", post.id).execute();
      const theirs = await tx.selectFrom("post_slots").selectAll().where("post_id", "=", other.id).execute();
      await releaseSlots(tx, post.id);
      await releaseSlots(tx, other.id);
      for (const s of mine)
        await tx
          .insertInto("post_slots")
          .values({ ...s, post_id: other.id })
          .execute();
      for (const s of theirs)
        await tx
          .insertInto("post_slots")
          .values({ ...s, post_id: post.id })
          .execute();
      await setTimes(tx, app, post, other.publish_at, other.publish_by, other.slot === 1);
      await setTimes(tx, app, other, post.publish_at, post.publish_by, post.slot === 1);
      const otherOut = await presentedPost(tx, other.id);
      await recordEvent(tx, app, scopeOf(actor), "post.rescheduled", otherOut);
    } else {
      let publishAt = post.publish_at;
      let slot = post.slot === 1;
      const byInput = b.publish_by;
      if (b.publish_at !== undefined) {
        const at = parsePublishAt(b.publish_at, now);
        if (isProblem(at)) throw invalid([at]);
        const by = parsePublishBy(byInput, now, at.kind === "at" ? at.ms : null);
        if (isProblem(by)) throw invalid([by]);
        await releaseSlots(tx, post.id);
        if (at.kind === "next_slot") {
          slot = true;
          // A pending post holds no slot: it takes one when approved.
          publishAt =
            post.status === "pending_approval"
              ? null
              : await takeNextSlot(tx, app.dialect, brand, actor.livemode, post.id, now, by);
        } else {
          slot = false;
          publishAt = at.kind === "now" ? now : at.ms;
          if (at.kind === "at" && isSlotTime(JSON.parse(brand.slots) as Slot[], brand.timezone, at.ms)) {
            await takeExactSlot(tx, brand.id, actor.livemode, post.id, at.ms);
            slot = true;
          }
        }
        const publishBy = by ?? (publishAt === null ? null : publishAt + DEFAULT_WINDOW_MS);
        await setTimes(tx, app, post, publishAt, publishBy, slot);
      } else {
        const by = parsePublishBy(byInput, now, publishAt);
        if (isProblem(by)) throw invalid([by]);
        await setTimes(
          tx,
          app,
          post,
          publishAt,
          by ?? (publishAt === null ? null : publishAt + DEFAULT_WINDOW_MS),
          slot,
        );
      }
    }
    const out = await presentedPost(tx, post.id);
    await recordEvent(tx, app, scopeOf(actor), "post.rescheduled", out);
    await audit(tx, app, actor, { action: "post.reschedule", target: post.id, detail: { ...b } });
    await notifyDue(tx, app);
    return out;
  });
  wakeLocal(app);
  return out;
}
