// Inputs of the client review link API (docs/publishing.md, "Client review link").
import * as v from "valibot";
import { name, rule } from "../validate.ts";

export const ReviewLinkCreate = v.strictObject({
  /** The brand whose posts waiting for approval the link shows (ID or slug). */
  brand: v.string(),
  /** Who the link is for ("Acme's marketing lead"): shown in lists and on the page, never to other clients. */
  name: name(),
  /** When it stops working: at most 30 days ahead, 30 days when left out (as a report's share link). */
  expires_at: v.optional(
    v.pipe(
      v.string(),
      v.isoTimestamp(rule("review_link_expiry_invalid", "expires_at must be an RFC 3339 time.")),
    ),
  ),
});

export const ReviewLinkList = v.strictObject({
  brand: v.optional(v.string()),
  limit: v.optional(v.string()),
  starting_after: v.optional(v.string()),
  ending_before: v.optional(v.string()),
});
