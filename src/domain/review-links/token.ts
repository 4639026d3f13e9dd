// A review link's secret: `svc_review_` and 32 random characters, shown once in its URL; only its SHA-256 is kept,
// so the database alone cannot open a link. The page's forms carry a token made from the link's ID with a key of
// the install's own (the CSRF check of a page no session backs): a form is accepted only from a page this server
// rendered for that link.
import type { App } from "../../app/context.ts";
import { randomBase62, safeEqual, sha256hex } from "../../crypto/hash.ts";
import { nodeCrypto } from "../../crypto/node.ts";
import { ServiceError } from "../../lib/errors.ts";

export const TOKEN_PREFIX = "svc_review_";
const FORM_PURPOSE = "review-link-form";

export const newReviewToken = () => `${TOKEN_PREFIX}${randomBase62(32)}`;
export const hashReviewToken = (token: string) => sha256hex(token);

/** A token of the right shape; anything else is refused before any lookup. */
export const tokenShaped = (token: string) => /^svc_review_[0-9A-Za-z]{32}$/.test(token);

export const reviewUrl = (app: App, token: string) =>
  `${app.config.baseUrl.replace(/\/$/, "")}/review/${token}`;

/**
 * One answer for an unknown, changed, withdrawn or expired link, and for one whose creator may no longer approve:
 * whoever holds a dead link learns nothing about why.
 */
export const reviewLinkInvalid = () =>
  new ServiceError(
    404,
    "review_link_invalid",
    "This review link does not work: it may have been withdrawn or have expired. Ask for a new one.",
  );

export async function formToken(app: App, linkId: string): Promise<string> {
  const key = await app.keys.derived(FORM_PURPOSE);
  return nodeCrypto().createHmac("sha256", key).update(linkId).digest("base64url");
}

export async function formTokenValid(app: App, linkId: string, sent: string | null): Promise<boolean> {
  if (!sent) return false;
  return safeEqual(sent, await formToken(app, linkId));
}
