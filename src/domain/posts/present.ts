// The public Post and PostTarget shapes (reference §4). A post embeds its targets.
import type { TargetEngagementTable } from "../../db/tables/engagement.ts";
import type { PostAttemptsTable, PostsTable, PostTargetsTable } from "../../db/tables/posts.ts";
import { iso, isoOrNull } from "../../lib/clock.ts";
import { presentEngagement } from "../engagement/present.ts";
import type { Media } from "../media/present.ts";
import { presentFirstComment } from "./first-comment.ts";

/** A target; its engagement is shown where the caller loaded it (reads), else null (events, actions). */
export const presentTarget = (t: PostTargetsTable, engagement?: TargetEngagementTable) => ({
  id: t.id,
  object: "post_target" as const,
  post: t.post_id,
  channel: t.channel_id,
  channel_name: t.channel_name,
  provider: t.provider,
  livemode: t.livemode === 1,
  parts: JSON.parse(t.parts) as string[],
  status: t.status,
  attempts: t.attempts,
  next_attempt_at: t.status === "queued" ? isoOrNull(t.next_attempt_at) : null,
  publish_by: isoOrNull(t.publish_by),
  permalink: t.permalink,
  error: t.error_code ? { code: t.error_code, message: t.error_message ?? "" } : null,
  published_at: isoOrNull(t.published_at),
  first_comment: presentFirstComment(t),
  /** When svc deleted the post from the network (delete_published); null while it is there. */
  deleted_at: isoOrNull(t.deleted_at ?? null),
  engagement: engagement ? presentEngagement(engagement) : null,
});
export type PresentedTarget = ReturnType<typeof presentTarget>;

export const presentPost = (
  p: PostsTable,
  targets: PostTargetsTable[],
  engagement?: ReadonlyMap<string, TargetEngagementTable>,
) => ({
  id: p.id,
  object: "post" as const,
  brand: p.brand_id,
  livemode: p.livemode === 1,
  status: p.status,
  template: p.template_key,
  template_version: p.template_version,
  data: p.data === null ? null : (JSON.parse(p.data) as unknown),
  content: p.content === null ? null : (JSON.parse(p.content) as unknown),
  publish_at: isoOrNull(p.publish_at),
  publish_by: isoOrNull(p.publish_by),
  slot: p.slot === 1,
  metadata: JSON.parse(p.metadata) as Record<string, string>,
  approval: {
    required: p.approval_required === 1,
    reviewed_by: p.reviewed_by,
    reviewed_by_key: p.reviewed_by_key,
    reviewed_by_link: p.reviewed_by_link ?? null,
    reviewed_at: isoOrNull(p.reviewed_at),
    note: p.review_note,
  },
  media: JSON.parse(p.media) as Media[],
  /** A draft's rule problems at its last save (shown, not refused); empty for any other post. */
  problems: p.problems ? (JSON.parse(p.problems) as PostProblem[]) : [],
  targets: targets.map((t) => presentTarget(t, engagement?.get(t.id))),
  created_at: iso(p.created_at),
  updated_at: iso(p.updated_at),
});
export interface PostProblem {
  code: string;
  message: string;
  param?: string | undefined;
  detail?: unknown;
}
export type PresentedPost = ReturnType<typeof presentPost>;

export const presentAttempt = (a: PostAttemptsTable) => ({
  object: "publish_attempt" as const,
  attempt: a.attempt,
  started_at: iso(a.started_at),
  finished_at: isoOrNull(a.finished_at),
  outcome: a.outcome,
  error: a.error_code ? { code: a.error_code, message: a.error_message ?? "" } : null,
  settlement: a.settlement ? (JSON.parse(a.settlement) as Settlement) : null,
});

/** How an uncertain attempt was settled by looking for the post on the network (src/queue/publish/settle.ts). */
export interface Settlement {
  /** found: published with what was found; not_found: queued again; unknown: left to the usual rule. */
  decision: "found" | "not_found" | "unknown";
  /** What made the attempt uncertain. */
  uncertain: string;
  detail: string;
  looked_at: string;
}
