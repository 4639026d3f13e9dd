// A post's status is derived from its targets (reference §3): any held → pending_approval; all published →
// published; all finished → partially_published if any published, else failed if any failed, else canceled;
// any publishing/needs_attention or some finished → publishing; else scheduled. `rejected` is final; `draft`
// lasts until the draft is scheduled.

export const TARGET_STATUSES = [
  "draft",
  "held",
  "queued",
  "publishing",
  "published",
  "failed",
  "needs_attention",
  "canceled",
] as const;
export type TargetStatus = (typeof TARGET_STATUSES)[number];
export const POST_STATUSES = [
  "draft",
  "pending_approval",
  "scheduled",
  "publishing",
  "published",
  "partially_published",
  "failed",
  "canceled",
  "rejected",
] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

const FINISHED = new Set<string>(["published", "failed", "canceled"]);

export function derivePostStatus(current: string, targets: readonly string[]): PostStatus {
  if (current === "rejected") return "rejected";
  // A draft stays one until it is scheduled (posts/update.ts): its targets are never claimed.
  if (current === "draft") return "draft";
  if (targets.length === 0) return "canceled";
  if (targets.includes("held")) return "pending_approval";
  if (targets.every((s) => s === "published")) return "published";
  if (targets.every((s) => FINISHED.has(s))) {
    if (targets.includes("published")) return "partially_published";
    if (targets.includes("failed")) return "failed";
    return "canceled";
  }
  if (targets.some((s) => s === "publishing" || s === "needs_attention" || FINISHED.has(s)))
    return "publishing";
  return "scheduled";
}

/**
 * The event a post emits when its derived status becomes final. `canceled` too: a post whose every target was
 * canceled (by cancel, or by deleting the channels it waited on) is announced, like any post that ends.
 */
export function postEventFor(status: PostStatus): string | null {
  if (status === "published") return "post.published";
  if (status === "partially_published") return "post.partially_published";
  if (status === "failed") return "post.failed";
  if (status === "canceled") return "post.canceled";
  return null;
}
