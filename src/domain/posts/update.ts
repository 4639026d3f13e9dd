// POST /v1/posts/{id}: edit a draft, scheduled or pending post before any of it is published. What the request
// names replaces what the post had (the rest stays); the whole post is checked again against every rule, as on
// create (422 lists every problem; a draft keeps them as `problems` instead). `draft: false` schedules a draft;
// `draft: true` takes a post back to a draft (its slot freed). Once a target has an attempt the post is
// `post_not_editable` (409).
//
// Racing the worker: every target is rewritten with a guarded statement (`attempts = 0` and an open status). The
// worker's claim changes a target's status and attempts in one statement, so whichever commits first wins: a claim
// first makes the edit's guard miss (the edit is refused, nothing of it written); an edit first means the claim
// reads the new text (SQLite: one writer at a time; Postgres: the claim's row lock makes the edit's update wait
// and re-check its guard on the claimed row).
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { insertRows } from "../../db/insert-rows.ts";
import type { PostsTable, PostTargetsTable } from "../../db/tables/posts.ts";
import { conflict, invalid, type Problem } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import type { Slot } from "../brands/schema.ts";
import { recordEvents, scopeOf } from "../events/record.ts";
import { presentMedia } from "../media/present.ts";
import { isSlotTime } from "../slots/next.ts";
import { releaseSlots, takeExactSlot, takeNextSlot } from "../slots/take.ts";
import { lockPosts } from "../targets/lock-posts.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { needsApproval } from "./approval.ts";
import { loadPost, presentedPost, targetsOf } from "./load.ts";
import { notifyDue, wakeLocal } from "./notify.ts";
import { preparePost } from "./prepare.ts";
import { presentPost } from "./present.ts";
import {
  DEFAULT_WINDOW_MS,
  isProblem,
  type PublishAt,
  parsePublishAt,
  parsePublishBy,
} from "./publish-time.ts";
import { PostUpdate, type PostUpdateInput } from "./schema.ts";
import { readInput, type StoredInput, storedInput } from "./stored-input.ts";

const EDITABLE = ["draft", "scheduled", "pending_approval"];
/** Target statuses an edit may rewrite: nothing of the post has gone to a network. */
const OPEN = ["draft", "held", "queued"];

const notEditable = (why: string) => conflict("post_not_editable", why);

/** The post's input with the request's changes: template or content replaces the other. */
function merge(stored: StoredInput, b: PostUpdateInput): StoredInput {
  const out: StoredInput = { ...stored };
  if (b.template !== undefined || b.content !== undefined) {
    out.template = b.template;
    out.content = b.content;
    out.data = b.data;
  } else if (b.data !== undefined) out.data = b.data;
  if (b.channels !== undefined) out.channels = b.channels;
  if (b.media !== undefined) out.media = b.media;
  if (b.overrides !== undefined) out.overrides = b.overrides;
  if (b.fit !== undefined) out.fit = b.fit;
  if (b.first_comment !== undefined) out.first_comment = b.first_comment;
  if (b.publish_at !== undefined) out.publish_at = b.publish_at;
  return out;
}

/** The fields of `after` that differ from `before`, as they were before (the event's previous_attributes). */
function changed(before: Record<string, unknown>, after: Record<string, unknown>) {
  const prev: Record<string, unknown> = {};
  const next: Record<string, unknown> = {};
  for (const k of Object.keys(after)) {
    if (k === "updated_at") continue;
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) {
      prev[k] = before[k];
      next[k] = after[k];
    }
  }
  return { prev, next };
}

/** Rewrites one target only while nothing of it has been attempted; else the whole edit is refused. */
async function rewriteTarget(tx: Tx, id: string, set: Partial<PostTargetsTable>): Promise<void> {
  const r = await tx
    .updateTable("post_targets")
    .set(set)
    .where("id", "=", id)
    .where("attempts", "=", 0)
    .where("status", "in", OPEN)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1)
    throw notEditable("Publishing has started for this post; it can no longer be edited.");
}

async function dropTarget(tx: Tx, id: string): Promise<void> {
  const r = await tx
    .deleteFrom("post_targets")
    .where("id", "=", id)
    .where("attempts", "=", 0)
    .where("status", "in", OPEN)
    .executeTakeFirst();
  if (Number(r.numDeletedRows) !== 1)
    throw notEditable("Publishing has started for this post; it can no longer be edited.");
}

export async function updatePost(app: App, actor: Actor, id: string, input: unknown) {
  requireScope(actor, "posts:write");
  const b = parse(PostUpdate, input);
  const now = app.clock.now();
  const out = await inTx(app, async (tx) => {
    const found = await loadPost(tx, actor, id);
    // The post before its targets (lock-posts.ts); read again under the lock.
    await lockPosts(tx, app.dialect, [found.id]);
    const post = await loadPost(tx, actor, id);
    if (!EDITABLE.includes(post.status))
      throw notEditable(`A ${post.status.replace("_", " ")} post can no longer be edited.`);
    const targets = (await targetsOf(tx, [post.id])).get(post.id) ?? [];
    if (targets.some((t) => t.attempts > 0 || !OPEN.includes(t.status)))
      throw notEditable("Publishing has started for this post; it can no longer be edited.");
    const before = presentPost(post, targets);

    const stored = readInput(post, targets);
    const merged = merge(stored, b);
    const wasDraft = post.status === "draft";
    const draft = b.draft ?? wasDraft;
    // A scheduled post keeps the channels it was made for unless the edit names others; a draft that named none
    // takes the brand's active channels when it is saved.
    const channels = merged.channels ?? (wasDraft ? undefined : targets.map((t) => t.channel_id));
    const metadata = b.metadata ?? (JSON.parse(post.metadata) as Record<string, unknown>);
    const prep = await preparePost(
      tx,
      app,
      actor,
      {
        brand: post.brand_id,
        template: merged.template,
        data: merged.data,
        content: merged.content,
        channels,
        media: merged.media,
        overrides: merged.overrides,
        fit: merged.fit,
        first_comment: merged.first_comment,
        metadata,
      },
      post.id,
    );
    const problems: Problem[] = [...prep.problems, ...prep.violations];

    // The time: the one the request gives; a draft being scheduled takes the one it was saved with (else
    // next_slot if it asked for that, else now); otherwise the post keeps its time.
    let when: PublishAt | null = null;
    if (b.publish_at !== undefined) {
      const at = parsePublishAt(b.publish_at, now);
      if (isProblem(at)) problems.push(at);
      else when = at;
    } else if (wasDraft && !draft) {
      when =
        post.publish_at !== null
          ? { kind: "at", ms: Math.max(post.publish_at, now) }
          : post.slot === 1
            ? { kind: "next_slot" }
            : { kind: "now" };
    }
    let by: number | null | undefined;
    if (b.publish_by !== undefined) {
      const p = parsePublishBy(b.publish_by, now, when?.kind === "at" ? when.ms : (post.publish_at ?? now));
      if (isProblem(p)) problems.push(p);
      else by = p;
    }
    if (problems.length && !draft) throw invalid(problems);

    const approval = needsApproval(
      prep.template?.template.approval ?? null,
      prep.brand.approval_policy,
      actor,
    );
    const status = draft
      ? "draft"
      : post.status === "pending_approval" || approval
        ? "pending_approval"
        : "scheduled";
    const backToPending = post.status === "scheduled" && status === "pending_approval";

    let publishAt = post.publish_at;
    let slot = post.slot === 1;
    if (status === "draft") {
      // A draft holds no slot; it keeps the time it was given for when it is scheduled.
      await releaseSlots(tx, post.id);
      if (when) {
        publishAt = when.kind === "at" ? when.ms : null;
        slot = when.kind === "next_slot";
      }
    } else if (when) {
      await releaseSlots(tx, post.id);
      if (when.kind === "next_slot") {
        slot = true;
        // A pending post holds no slot: it takes one when approved (approve.ts).
        publishAt =
          status === "pending_approval"
            ? null
            : await takeNextSlot(tx, app.dialect, prep.brand, actor.livemode, post.id, now, by ?? null);
      } else {
        publishAt = when.kind === "now" ? now : when.ms;
        slot =
          when.kind === "at" &&
          isSlotTime(JSON.parse(prep.brand.slots) as Slot[], prep.brand.timezone, when.ms);
        if (slot) await takeExactSlot(tx, prep.brand.id, actor.livemode, post.id, publishAt);
      }
    } else if (backToPending && merged.publish_at === "next_slot") {
      // Back to waiting for approval: the slot next_slot took is freed; approval takes the next free one again.
      await releaseSlots(tx, post.id);
      publishAt = null;
    }
    // The deadline: the one given; else a moved post's default (publish_at + 24 h); else the one it had.
    const defaultBy = publishAt === null ? null : publishAt + DEFAULT_WINDOW_MS;
    let publishBy: number | null;
    if (by !== undefined && by !== null) publishBy = by;
    else if (status === "draft") publishBy = by === null ? null : post.publish_by;
    else if (by === null || post.publish_by === null || (when && !wasDraft)) publishBy = defaultBy;
    else publishBy = post.publish_by;

    const row: Partial<PostsTable> = {
      status,
      template_id: prep.template?.template.id ?? null,
      template_key: prep.template?.template.key ?? null,
      template_version: prep.template?.version ?? null,
      data: prep.template ? JSON.stringify(prep.data ?? {}) : null,
      content: prep.content ? JSON.stringify(prep.content) : null,
      publish_at: publishAt,
      publish_by: publishBy,
      slot: slot ? 1 : 0,
      metadata: JSON.stringify(prep.metadata),
      media: JSON.stringify(prep.mediaRows.map(presentMedia)),
      approval_required: status === "pending_approval" ? 1 : status === "draft" ? 0 : post.approval_required,
      search_text: prep.renditions
        .flatMap((r) => r.rendition.parts)
        .join("\n")
        .toLowerCase(),
      input: storedInput(merged),
      problems: status === "draft" ? JSON.stringify(problems) : null,
      updated_at: now,
    };
    // An approval is of what was approved: an edit that needs approval again clears the review.
    if (status !== "scheduled")
      Object.assign(row, {
        reviewed_by: null,
        reviewed_by_key: null,
        reviewed_by_link: null,
        reviewed_at: null,
        review_note: null,
      });
    await tx.updateTable("posts").set(row).where("id", "=", post.id).execute();
    await tx.deleteFrom("post_media").where("post_id", "=", post.id).execute();
    if (prep.mediaRows.length)
      await tx
        .insertInto("post_media")
        .values(prep.mediaRows.map((m, position) => ({ post_id: post.id, media_id: m.id, position })))
        .execute();

    // Targets: a channel the post keeps keeps its target (its ID); a channel dropped loses it; a new one gains one.
    const targetStatus = status === "draft" ? "draft" : status === "pending_approval" ? "held" : "queued";
    const nextAt = status === "draft" || publishAt === null ? null : Math.max(publishAt, now);
    const byChannel = new Map(targets.map((t) => [t.channel_id, t]));
    const kept = new Set<string>();
    const added: PostTargetsTable[] = [];
    for (const { channel, rendition } of prep.renditions) {
      const old = byChannel.get(channel.id);
      const fields = {
        parts: JSON.stringify(rendition.parts),
        status: targetStatus,
        next_attempt_at: nextAt,
        publish_by: publishBy,
        channel_name: channel.display_name ?? channel.provider,
        first_comment: prep.firstComment,
        updated_at: now,
      };
      if (old) {
        kept.add(old.id);
        await rewriteTarget(tx, old.id, fields);
      } else {
        added.push({
          id: newId("ptgt", now),
          org_id: actor.orgId,
          livemode: actor.livemode ? 1 : 0,
          post_id: post.id,
          channel_id: channel.id,
          provider: channel.provider,
          attempts: 0,
          permalink: null,
          error_code: null,
          error_message: null,
          published_at: null,
          leased_until: null,
          lease_owner: null,
          remote_parts: "[]",
          created_at: now,
          ...fields,
        });
      }
    }
    for (const t of targets) if (!kept.has(t.id)) await dropTarget(tx, t.id);
    if (added.length) await insertRows(tx, app.dialect, "post_targets", added);

    const after = await presentedPost(tx, post.id);
    const { prev, next } = changed(before, after);
    const scope = scopeOf(actor);
    await recordEvents(tx, app, [
      { scope, type: "post.updated", object: after, previous: prev },
      ...(status === "pending_approval" && post.status !== "pending_approval"
        ? [{ scope, type: "approval.requested", object: after }]
        : []),
    ]);
    await audit(tx, app, actor, {
      action: "post.update",
      target: post.id,
      detail: { before: prev, after: next },
    });
    if (status === "scheduled") await notifyDue(tx, app);
    return after;
  });
  wakeLocal(app);
  return out;
}
