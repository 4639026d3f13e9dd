// Client review links: an agent that drafts posts for a client can hand the client a link to approve or reject
// them (docs/publishing.md, "Client review link"). Needs a key holding posts:approve; the link dies with the key.
import * as v from "valibot";
import { segment } from "../api.ts";
import { BRAND, described } from "../fields.ts";
import { READ, type Tool } from "../tool.ts";

const LINK = "The review link's id (rvl_…), as list_review_links gives it.";

export const reviewLinkTools: Tool[] = [
  {
    name: "create_review_link",
    description:
      "Make a client review link: an address where someone without an account sees the brand's posts waiting " +
      "for approval (in this credential's mode) as each network will show them, and approves or rejects each with " +
      "a note. The answer's `url` holds the link's secret and is shown only this once: give it to the client. It " +
      "works 30 days unless `expires_at` is earlier. Needs posts:approve.",
    annotations: {
      title: "Create a client review link",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
    input: v.strictObject({
      brand: described(v.string(), BRAND),
      name: described(v.string(), "Who the link is for (1-100 characters), shown on the page and in lists."),
      expires_at: described(
        v.optional(v.string()),
        "When it stops working: an RFC 3339 time at most 30 days ahead (default 30 days).",
      ),
    }),
    run: (api, a: { brand: string; name: string; expires_at?: string }) =>
      api({
        method: "POST",
        path: "/v1/review_links",
        body: a,
        idempotencyKey: `mcp_${crypto.randomUUID()}`,
      }),
  },
  {
    name: "list_review_links",
    description:
      "List client review links in this credential's mode, newest first (at most 100), optionally of one brand: " +
      "who each is for, `status` (active, withdrawn, expired), when it expires and was last used. Never the " +
      "address itself. Needs posts:approve.",
    annotations: { title: "List client review links", ...READ },
    input: v.strictObject({ brand: described(v.optional(v.string()), `${BRAND} Only that brand's links.`) }),
    run: (api, a: { brand?: string }) =>
      api({
        method: "GET",
        path: "/v1/review_links",
        query: { limit: 100, ...(a.brand ? { brand: a.brand } : {}) },
      }),
  },
  {
    name: "withdraw_review_link",
    description:
      "Withdraw a client review link: it stops working at once (the page then says the link does not work). " +
      "Withdrawing twice changes nothing. Needs posts:approve.",
    annotations: {
      title: "Withdraw a client review link",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
    input: v.strictObject({ link: described(v.string(), LINK) }),
    run: (api, a: { link: string }) =>
      api({ method: "POST", path: `/v1/review_links/${segment(a.link)}/withdraw` }),
  },
];
