// Opening a client review link (the public page, no account): the token's hash finds the link; a link that is
// unknown, withdrawn, expired, or whose creator may no longer approve (a member no longer an admin or owner, a
// key revoked or expired) gets the one answer review_link_invalid. A suspended org's links answer org_suspended
// (the client learns no more than that: the operator's note is not shown). The link then acts as its own actor:
// it may read and review the posts of its brand in its org and mode, nothing else.
import type { App } from "../../app/context.ts";
import type { Db, Tx } from "../../db/index.ts";
import type { BrandsTable, OrgsTable } from "../../db/schema.ts";
import type { ReviewLinksTable } from "../../db/tables/review-links.ts";
import { newId } from "../../lib/ids.ts";
import type { Actor } from "../actor.ts";
import { orgWriteRefusal } from "../orgs/status.ts";
import { type Role, roleAtLeast } from "../scopes.ts";
import { hashReviewToken, reviewLinkInvalid, tokenShaped } from "./token.ts";

export interface OpenLink {
  link: ReviewLinksTable;
  org: OrgsTable;
  brand: BrandsTable;
  actor: Actor;
}

/** Whether whoever made the link could still approve this brand's posts: the link has no more power than they. */
async function creatorMayApprove(db: Db | Tx, link: ReviewLinksTable, now: number): Promise<boolean> {
  if (link.created_by_user) {
    const m = await db
      .selectFrom("members")
      .innerJoin("users", "users.id", "members.user_id")
      .select(["members.role", "users.disabled_at"])
      .where("members.org_id", "=", link.org_id)
      .where("members.user_id", "=", link.created_by_user)
      .executeTakeFirst();
    return !!m && m.disabled_at === null && roleAtLeast(m.role as Role, "admin");
  }
  if (link.created_by_key) {
    // Any key of the creating key's roll chain that still works and still holds posts:approve.
    const keys = await db
      .selectFrom("api_keys")
      .select(["scopes", "expires_at", "brand_id"])
      .where("org_id", "=", link.org_id)
      .where((eb) =>
        eb.or([eb("id", "=", link.created_by_key!), eb("lineage_id", "=", link.created_by_key!)]),
      )
      .where("revoked_at", "is", null)
      .execute();
    return keys.some(
      (k) =>
        (k.expires_at === null || k.expires_at > now) &&
        (k.brand_id === null || k.brand_id === link.brand_id) &&
        (JSON.parse(k.scopes ?? "[]") as string[]).includes("posts:approve"),
    );
  }
  return false;
}

export async function openReviewLink(
  app: App,
  token: string,
  opts: { write?: boolean; db?: Db | Tx; requestId?: string } = {},
): Promise<OpenLink> {
  if (typeof token !== "string" || !tokenShaped(token)) throw reviewLinkInvalid();
  const db = opts.db ?? app.db;
  const now = app.clock.now();
  const link = await db
    .selectFrom("review_links")
    .selectAll()
    .where("token_hash", "=", hashReviewToken(token))
    .executeTakeFirst();
  if (!link || link.withdrawn_at !== null || link.expires_at <= now) throw reviewLinkInvalid();
  const org = await db.selectFrom("orgs").selectAll().where("id", "=", link.org_id).executeTakeFirst();
  const brand = await db.selectFrom("brands").selectAll().where("id", "=", link.brand_id).executeTakeFirst();
  if (!org || !brand) throw reviewLinkInvalid();
  if (!(await creatorMayApprove(db, link, now))) throw reviewLinkInvalid();
  // A suspended org's page is closed; a read-only org's shows what waits but takes no decision.
  if (org.status === "suspended" || (opts.write && org.status !== "active"))
    throw orgWriteRefusal(org.status, null)!;
  const actor: Actor = {
    kind: "review_link",
    orgId: link.org_id,
    livemode: link.livemode === 1,
    scopes: new Set(["posts:read", "posts:approve"]),
    brandId: link.brand_id,
    apiKeyId: null,
    keyScopes: null,
    keyExpiresAt: null,
    userId: null,
    userTokenId: null,
    role: null,
    operator: null,
    reviewLinkId: link.id,
    requestId: opts.requestId ?? newId("req"),
  };
  return { link, org, brand, actor };
}
