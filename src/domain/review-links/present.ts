import type { ReviewLinksTable } from "../../db/tables/review-links.ts";
import { iso, isoOrNull } from "../../lib/clock.ts";

export const linkStatus = (r: ReviewLinksTable, now: number) =>
  r.withdrawn_at !== null ? "withdrawn" : r.expires_at <= now ? "expired" : "active";

/** The public shape; `url` (with the secret) only in the answer that creates the link. */
export const presentReviewLink = (r: ReviewLinksTable, now: number, url?: string) => ({
  id: r.id,
  object: "review_link" as const,
  brand: r.brand_id,
  name: r.name,
  livemode: r.livemode === 1,
  status: linkStatus(r, now) as "active" | "withdrawn" | "expired",
  ...(url ? { url } : {}),
  created_by: r.created_by_user,
  created_by_key: r.created_by_key,
  expires_at: iso(r.expires_at),
  withdrawn_at: isoOrNull(r.withdrawn_at),
  last_used_at: isoOrNull(r.last_used_at),
  created_at: iso(r.created_at),
});
export type PresentedReviewLink = ReturnType<typeof presentReviewLink>;
