// Create a client review link (docs/publishing.md): for one brand in the caller's mode, by a credential that may
// approve (the link hands a client that power for this brand's posts, so only its holders may give it). The URL,
// holding the secret, is in this answer only; the row keeps the token's SHA-256.
import type { App } from "../../app/context.ts";
import type { ReviewLinksTable } from "../../db/tables/review-links.ts";
import { ServiceError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { loadBrand } from "../brands/service.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { presentReviewLink } from "./present.ts";
import { ReviewLinkCreate } from "./schema.ts";
import { hashReviewToken, newReviewToken, reviewUrl } from "./token.ts";

/** As long as a report's share link lives (interface.md Limits), and the most a link may be given. */
export const REVIEW_LINK_TTL_MS = 30 * 86400_000;

function expiryOf(now: number, given: string | undefined): number {
  if (given === undefined) return now + REVIEW_LINK_TTL_MS;
  const at = Date.parse(given);
  if (!Number.isFinite(at) || at <= now || at > now + REVIEW_LINK_TTL_MS)
    throw new ServiceError(
      422,
      "review_link_expiry_invalid",
      "expires_at must be in the future and at most 30 days ahead.",
      { param: "expires_at" },
    );
  return at;
}

export async function createReviewLink(app: App, actor: Actor, input: unknown) {
  requireScope(actor, "posts:approve");
  const b = parse(ReviewLinkCreate, input);
  const now = app.clock.now();
  const expires = expiryOf(now, b.expires_at);
  return inTx(app, async (tx) => {
    const brand = await loadBrand(tx, actor, b.brand);
    const token = newReviewToken();
    const row: ReviewLinksTable = {
      id: newId("rvl", now),
      org_id: actor.orgId,
      livemode: actor.livemode ? 1 : 0,
      brand_id: brand.id,
      name: b.name,
      token_hash: hashReviewToken(token),
      created_by_user: actor.kind === "user" ? actor.userId : null,
      created_by_key: actor.kind === "api_key" ? (actor.keyLineageId ?? actor.apiKeyId) : null,
      expires_at: expires,
      withdrawn_at: null,
      last_used_at: null,
      created_at: now,
    };
    await tx.insertInto("review_links").values(row).execute();
    await audit(tx, app, actor, {
      action: "review_link.create",
      target: row.id,
      detail: { brand: brand.id, name: row.name, expires_at: new Date(expires).toISOString() },
    });
    return presentReviewLink(row, now, reviewUrl(app, token));
  });
}
