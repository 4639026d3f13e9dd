// The org notification types (reference §4 "Notification types") with their recipients and email defaults
// (interface.md "Notifications and request log"). Account notices (account.ts) are not here: they are always
// emailed at once and have no preference.
export const NOTIFICATION_TYPES = [
  "post.approval_requested",
  "newsletter.approval_requested",
  "post.needs_attention",
  "post.target_failed",
  "channel.needs_reauth",
  "member.joined",
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const isNotificationType = (s: unknown): s is NotificationType =>
  typeof s === "string" && (NOTIFICATION_TYPES as readonly string[]).includes(s);

/** The table's "Email default" column. */
export const EMAIL_DEFAULT: Record<NotificationType, boolean> = {
  "post.approval_requested": true,
  "newsletter.approval_requested": true,
  "post.needs_attention": true,
  "post.target_failed": false,
  "channel.needs_reauth": true,
  "member.joined": false,
};

/** How each type is named to people (preferences page, summary email, unsubscribe page). */
export const TYPE_LABEL: Record<NotificationType, string> = {
  "post.approval_requested": "A post waits for approval",
  "newsletter.approval_requested": "A newsletter waits for approval",
  "post.needs_attention": "A post needs attention",
  "post.target_failed": "A post failed on a channel",
  "channel.needs_reauth": "A channel must be connected again",
  "member.joined": "Someone joined the org",
};

export type Delivery = "immediate" | "daily";
export const DELIVERIES: readonly Delivery[] = ["immediate", "daily"];

/** The summary goes out at this local hour in the person's time zone. */
export const SUMMARY_HOUR = 8;

/** How long an email's unsubscribe link works (the prune task keeps used ones that long, so none is replayed). */
export const LINK_TTL_MS = 365 * 86400_000;
