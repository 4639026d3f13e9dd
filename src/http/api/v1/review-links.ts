// Client review links (docs/publishing.md): an admin's account-free link to one brand's posts waiting for
// approval. The URL with its secret is answered once, at creation.
import { ReviewLinkCreate } from "../../../domain/review-links/schema.ts";
import { once } from "../../../lib/once.ts";
import { nstr, ntime, obj, str, time } from "../../openapi-schemas.ts";
import { type RouteDef, reply } from "../../route.ts";

// Loaded on the first request that needs it, not at start (docs/performance.md, "Start and idle memory").
const loadCreate = once(() => import("../../../domain/review-links/create.ts"));
const loadList = once(() => import("../../../domain/review-links/list.ts"));
const loadWithdraw = once(() => import("../../../domain/review-links/withdraw.ts"));

const tag = "Review links";

export const reviewLinkRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/review_links",
    tag,
    summary:
      "List client review links in the caller's mode (optionally of one brand); secrets are never shown",
    scope: "posts:approve",
    list: true,
    query: ["brand"],
    response: "ReviewLinkList",
    handler: async ({ app, actor, query }) => (await loadList()).listReviewLinks(app, actor, query),
  },
  {
    method: "POST",
    secretOnce: true,
    path: "/v1/review_links",
    tag,
    summary:
      "Create a client review link for a brand's posts waiting for approval (its url is shown once; at most 30 days)",
    scope: "posts:approve",
    body: ReviewLinkCreate,
    response: "ReviewLink",
    status: 201,
    handler: async ({ app, actor, body }) =>
      reply(201, await (await loadCreate()).createReviewLink(app, actor, body)),
  },
  {
    method: "GET",
    path: "/v1/review_links/:id",
    tag,
    summary: "Get a client review link",
    scope: "posts:approve",
    response: "ReviewLink",
    handler: async ({ app, actor, params }) => (await loadList()).getReviewLink(app, actor, params.id!),
  },
  {
    method: "POST",
    secretOnce: false,
    path: "/v1/review_links/:id/withdraw",
    tag,
    summary: "Withdraw a client review link: it stops working at once",
    scope: "posts:approve",
    response: "ReviewLink",
    handler: async ({ app, actor, params }) =>
      (await loadWithdraw()).withdrawReviewLink(app, actor, params.id!),
  },
];

const fields = {
  id: str,
  object: { const: "review_link" },
  brand: str,
  name: str,
  livemode: { type: "boolean" },
  status: { enum: ["active", "withdrawn", "expired"] },
  url: { type: "string", format: "uri" },
  created_by: nstr,
  created_by_key: nstr,
  expires_at: time,
  withdrawn_at: ntime,
  last_used_at: ntime,
  created_at: time,
};

export const reviewLinkSchemas: Record<string, unknown> = {
  ReviewLink: obj(
    fields,
    Object.keys(fields).filter((k) => k !== "url"),
  ),
};
