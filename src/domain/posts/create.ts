// POST /v1/posts (reference §6, "Life of a post"): check every channel's text against its network's rules and
// refuse with every problem listed; else store the post and one target per channel with the text frozen, take
// its slot, hold it for approval when needed, and write post.created and the audit row, in one transaction.
import type { App } from "../../app/context.ts";
import { insertRows } from "../../db/insert-rows.ts";
import { raw } from "../../db/raw.ts";
import type { PostsTable, PostTargetsTable } from "../../db/tables/posts.ts";
import { invalid, type Problem } from "../../lib/errors.ts";
import { idAtTime, newId } from "../../lib/ids.ts";
import { serializeOnce } from "../../lib/json-text.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import type { Slot } from "../brands/schema.ts";
import { recordEvent, scopeOf } from "../events/record.ts";
import { type AnswerInTx, storeAnswer } from "../idempotency/in-tx.ts";
import { presentMedia } from "../media/present.ts";
import { assertWithinLimit } from "../orgs/limits.ts";
import { isSlotTime } from "../slots/next.ts";
import { takeExactSlot, takeNextSlot } from "../slots/take.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { needsApproval } from "./approval.ts";
import { notifyDue, wakeLocal } from "./notify.ts";
import { preparePost } from "./prepare.ts";
import { presentPost } from "./present.ts";
import { DEFAULT_WINDOW_MS, isProblem, parsePublishAt, parsePublishBy } from "./publish-time.ts";
import { PostCreate } from "./schema.ts";
import { storedInput } from "./stored-input.ts";

/** Live posts of an org from an ID on (the month's first possible ID): a range of the posts_org index. */
export const MONTH_COUNT = "SELECT COUNT(*) AS n FROM posts WHERE org_id = ? AND livemode = 1 AND id >= ?";

const monthStart = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
};

export async function createPost(
  app: App,
  actor: Actor,
  input: unknown,
  idempotency: AnswerInTx | null = null,
) {
  requireScope(actor, "posts:write");
  const b = parse(PostCreate, input);
  const now = app.clock.now();
  const postId = newId("post", now);
  const out = await inTx(app, async (tx) => {
    const prep = await preparePost(tx, app, actor, b, postId);
    const problems: Problem[] = [...prep.problems, ...prep.violations];
    const at = parsePublishAt(b.publish_at, now);
    if (isProblem(at)) problems.push(at);
    const by = parsePublishBy(b.publish_by, now, !isProblem(at) && at.kind === "at" ? at.ms : now);
    if (isProblem(by)) problems.push(by);
    // A draft is saved with its problems shown, not refused (posts/update.ts schedules it, checked then).
    const draft = b.draft === true;
    if (problems.length && !draft) throw invalid(problems);
    const publishAtKind: Exclude<typeof at, Problem> = isProblem(at) ? { kind: "now" } : at;
    const deadline = isProblem(by) ? null : by;

    if (actor.livemode) {
      const from = monthStart(now);
      await assertWithinLimit(tx, actor.orgId, "posts_per_month", async () => {
        // Plain text: a live create with a monthly limit counts on every request. IDs sort by creation time, so
        // the month's posts are those from its first possible ID on (the org index, no index of its own).
        const [r] = await raw<{ n: number | string }>(tx, app.dialect, MONTH_COUNT, [
          actor.orgId,
          idAtTime("post", from),
        ]);
        return Number(r!.n) + 1;
      });
    }

    // A draft asks for approval when it is scheduled, not before.
    const approval =
      !draft && needsApproval(prep.template?.template.approval ?? null, prep.brand.approval_policy, actor);
    // The post row exists before its slot: the slot row refers to it.
    const post: PostsTable = {
      id: postId,
      org_id: actor.orgId,
      brand_id: prep.brand.id,
      livemode: actor.livemode ? 1 : 0,
      status: draft ? "draft" : approval ? "pending_approval" : "scheduled",
      template_id: prep.template?.template.id ?? null,
      template_key: prep.template?.template.key ?? null,
      template_version: prep.template?.version ?? null,
      data: prep.template ? JSON.stringify(prep.data ?? {}) : null,
      content: prep.content ? JSON.stringify(prep.content) : null,
      publish_at: null,
      publish_by: null,
      slot: 0,
      metadata: JSON.stringify(prep.metadata),
      // A post embeds its media as they were when it was made (reference §3: no expand).
      media: JSON.stringify(prep.mediaRows.map(presentMedia)),
      approval_required: approval ? 1 : 0,
      reviewed_by: null,
      reviewed_by_key: null,
      reviewed_at: null,
      review_note: null,
      created_by_key: actor.apiKeyId,
      created_by_user: actor.userId,
      search_text: prep.renditions
        .flatMap((r) => r.rendition.parts)
        .join("\n")
        .toLowerCase(),
      created_at: now,
      updated_at: now,
      input: storedInput(b),
      problems: draft ? JSON.stringify(problems) : null,
    };
    // Times are settled before the row is written, so it is written once; only a next_slot post learns its time
    // after insert (the slot row refers to the post).
    const onSlot =
      publishAtKind.kind === "at" &&
      isSlotTime(JSON.parse(prep.brand.slots) as Slot[], prep.brand.timezone, publishAtKind.ms);
    if (draft) {
      // A draft keeps the time it was given but takes no slot and is never due.
      post.publish_at = publishAtKind.kind === "at" ? publishAtKind.ms : null;
      post.slot = publishAtKind.kind === "next_slot" ? 1 : 0;
    } else if (publishAtKind.kind === "next_slot") post.slot = 1;
    else {
      post.publish_at = publishAtKind.kind === "now" ? now : Math.max(publishAtKind.ms, now);
      post.slot = onSlot ? 1 : 0;
    }
    post.publish_by =
      deadline ?? (post.publish_at === null || draft ? null : post.publish_at + DEFAULT_WINDOW_MS);
    await insertRows(tx, app.dialect, "posts", [post]);
    if (prep.mediaRows.length)
      await tx
        .insertInto("post_media")
        .values(prep.mediaRows.map((m, position) => ({ post_id: post.id, media_id: m.id, position })))
        .execute();

    // A draft takes no slot: it is not on the brand's slots until it is scheduled.
    if (!draft && publishAtKind.kind === "next_slot" && !approval) {
      // A post waiting for approval holds no slot; approval takes the next free one (slot order = approval order).
      post.publish_at = await takeNextSlot(
        tx,
        app.dialect,
        prep.brand,
        actor.livemode,
        post.id,
        now,
        deadline,
      );
      post.publish_by = deadline ?? post.publish_at + DEFAULT_WINDOW_MS;
      await tx
        .updateTable("posts")
        .set({ publish_at: post.publish_at, publish_by: post.publish_by })
        .where("id", "=", post.id)
        .execute();
    } else if (onSlot && publishAtKind.kind === "at" && !draft) {
      await takeExactSlot(tx, prep.brand.id, actor.livemode, post.id, publishAtKind.ms);
    }

    const targets: PostTargetsTable[] = prep.renditions.map(({ channel, rendition }) => ({
      id: newId("ptgt", now),
      org_id: actor.orgId,
      livemode: actor.livemode ? 1 : 0,
      post_id: post.id,
      channel_id: channel.id,
      provider: channel.provider,
      channel_name: channel.display_name ?? channel.provider,
      parts: JSON.stringify(rendition.parts),
      status: draft ? "draft" : approval ? "held" : "queued",
      attempts: 0,
      next_attempt_at: draft ? null : post.publish_at,
      publish_by: post.publish_by,
      permalink: null,
      error_code: null,
      error_message: null,
      published_at: null,
      leased_until: null,
      lease_owner: null,
      remote_parts: "[]",
      created_at: now,
      updated_at: now,
      first_comment: prep.firstComment,
    }));
    await insertRows(tx, app.dialect, "post_targets", targets);

    const presented = presentPost(post, targets);
    // Serialized once: the events' data, the stored answer and the response body all carry this text.
    const json = serializeOnce(presented);
    const scope = scopeOf(actor);
    await recordEvent(tx, app, scope, "post.created", presented, json);
    // One event per fact: the specification names `approval.requested` (interface.md, Events).
    if (approval) await recordEvent(tx, app, scope, "approval.requested", presented, json);
    await audit(tx, app, actor, {
      action: "post.create",
      target: post.id,
      detail: { channels: targets.length, approval, ...(draft ? { draft } : {}) },
    });
    if (!approval && !draft) await notifyDue(tx, app);
    if (idempotency) await storeAnswer(tx, app, idempotency, presented, json);
    return presented;
  });
  wakeLocal(app);
  return out;
}
