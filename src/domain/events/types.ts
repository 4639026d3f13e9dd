// Every event type the specification names ("Events"): what endpoints subscribe to and the stream filters by.
// The OpenAPI document and the webhook schemas read it from here. One type per fact: a post waiting for approval
// is `approval.requested`, the name interface.md gives (reference.md's `post.approval_requested` said the same
// thing a second time, and every subscriber to `*` got both).
export const EVENT_TYPES = [
  "post.created",
  "post.approved",
  "post.rescheduled",
  "post.rejected",
  "post.updated",
  "post.published",
  "post.partially_published",
  "post.failed",
  "post.canceled",
  "post_target.published",
  "post_target.failed",
  "post_target.needs_attention",
  "post_target.uncertain",
  "post_target.deleted",
  "channel.connected",
  "channel.needs_reauth",
  "template.version_created",
  "template.version_published",
  "approval.requested",
  "newsletter.created",
  "newsletter.updated",
  "newsletter.approval_requested",
  "newsletter.approved",
  "newsletter.rejected",
  "newsletter.scheduled",
  "newsletter.rescheduled",
  "newsletter.unscheduled",
  "newsletter.canceled",
  "newsletter.sent",
  "newsletter.failed",
  "webhook_endpoint.disabled",
] as const;

/** An event as written (the hooks and the outbox see it in the transaction that wrote it). */
export interface RecordedEvent {
  id: string;
  org_id: string;
  livemode: boolean;
  type: string;
  request_id: string | null;
  created_at: number;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
}
