// List and get client review links in the caller's org and mode (never their secrets: those were shown once).
import type { App } from "../../app/context.ts";
import type { Db, Tx } from "../../db/index.ts";
import type { ReviewLinksTable } from "../../db/tables/review-links.ts";
import { notFound } from "../../lib/errors.ts";
import { type Actor, brandVisible, requireScope } from "../actor.ts";
import { loadBrand } from "../brands/service.ts";
import { listParams, page } from "../pagination.ts";
import { rowInScope } from "../scope.ts";
import { parse } from "../validate.ts";
import { presentReviewLink } from "./present.ts";
import { ReviewLinkList } from "./schema.ts";

export async function loadReviewLink(db: Db | Tx, actor: Actor, id: string): Promise<ReviewLinksTable> {
  const row = await rowInScope(db, actor, "review_links", "rvl", id);
  if (!row || !brandVisible(actor, row.brand_id)) throw notFound(`No review link ${id}.`, "id");
  return row;
}

export async function listReviewLinks(app: App, actor: Actor, query: Record<string, unknown>) {
  requireScope(actor, "posts:approve");
  const b = parse(ReviewLinkList, query);
  const p = listParams(b, "rvl");
  let q = app.db
    .selectFrom("review_links")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0);
  if (b.brand !== undefined && b.brand !== "")
    q = q.where("brand_id", "=", (await loadBrand(app.db, actor, b.brand)).id);
  if (actor.brandId) q = q.where("brand_id", "=", actor.brandId);
  const now = app.clock.now();
  return page(q, p, "/v1/review_links", (r) => presentReviewLink(r, now));
}

export async function getReviewLink(app: App, actor: Actor, id: string) {
  requireScope(actor, "posts:approve");
  return presentReviewLink(await loadReviewLink(app.db, actor, id), app.clock.now());
}
