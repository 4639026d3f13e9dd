import type { EngagementReadingsTable, TargetEngagementTable } from "../../db/tables/engagement.ts";
import { iso, isoOrNull } from "../../lib/clock.ts";

type Counts = Pick<TargetEngagementTable, "likes" | "reposts" | "replies" | "quotes" | "views">;

/** Likes, reposts, replies and quotes; views are a different kind of figure and stay out of the total. */
export const totalOf = (c: Counts) =>
  Number(c.likes) + Number(c.reposts) + Number(c.replies) + Number(c.quotes);

const counts = (c: Counts) => ({
  likes: Number(c.likes),
  reposts: Number(c.reposts),
  replies: Number(c.replies),
  quotes: Number(c.quotes),
  views: c.views === null ? null : Number(c.views),
  total: totalOf(c),
});

/** A target's Engagement (reference §4): its latest counts, state, and when it was and will be read. */
export const presentEngagement = (e: TargetEngagementTable) => ({
  ...counts(e),
  state: e.state,
  read_at: isoOrNull(e.read_at),
  next_read_at: e.state === "collecting" ? isoOrNull(e.next_read_at) : null,
});
export type Engagement = ReturnType<typeof presentEngagement>;

export const presentReading = (r: EngagementReadingsTable) => ({
  object: "engagement_reading" as const,
  ...counts(r),
  read_at: iso(r.read_at),
});
