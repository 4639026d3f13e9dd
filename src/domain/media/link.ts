// Signed media links, for networks that fetch media from a URL instead of taking an upload:
// GET /v1/media/{id}/content?expires=<unix s>&for=<provider>&signature=<base64url HMAC-SHA256>. The key is derived
// from the primary master key; a link is valid one hour and names who it was made for. No credential is needed:
// the signature is the permission, compared in constant time.
import type { App } from "../../app/context.ts";
import { safeEqual } from "../../crypto/hash.ts";
import { nodeCrypto } from "../../crypto/node.ts";

export const LINK_TTL_S = 3600;
const PURPOSE = "media-links";

function signature(app: App, mediaId: string, expires: number, forWhom: string): string {
  return nodeCrypto()
    .createHmac("sha256", app.keys.derivedNow(PURPOSE))
    .update(`${mediaId}\n${expires}\n${forWhom}`)
    .digest("base64url");
}

/**
 * Whether the networks can reach this install at SVC_BASE_URL: not a loopback, private or link-local address,
 * nor a name that only resolves inside (localhost, .local, .internal, .lan, a bare host name).
 */
export function reachableFromInternet(app: App): boolean {
  const host = new URL(app.config.baseUrl).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  // The address library loads when the first media link is made, not with the routes that may make one.
  const { classify, parseIp } = require("../../net/address.ts") as typeof import("../../net/address.ts");
  const ip = parseIp(host);
  if (ip) return classify(ip) === "public";
  if (!host.includes(".")) return false;
  return !/(^|\.)(localhost|local|internal|lan|home|intranet|corp|test|invalid|example)$/.test(host);
}

/**
 * Loads the signing key (one unwrap with the master key in a key service, the first time only), so the links
 * below can be made synchronously where an adapter asks for one.
 */
export async function prepareMediaLinks(app: App): Promise<void> {
  await app.keys.derived(PURPOSE);
}

/** A link to a medium's bytes for `forWhom` (a provider), valid one hour; null when the install is not public. */
export function signedMediaUrl(app: App, mediaId: string, forWhom: string, nowMs = app.clock.now()) {
  if (!reachableFromInternet(app)) return null;
  return mediaUrl(app, mediaId, forWhom, nowMs);
}

/** The link itself, whether or not the networks could reach it (tests, a local preview). */
export function mediaUrl(app: App, mediaId: string, forWhom: string, nowMs = app.clock.now()): string {
  const expires = Math.floor(nowMs / 1000) + LINK_TTL_S;
  const q = new URLSearchParams({
    expires: String(expires),
    for: forWhom,
    signature: signature(app, mediaId, expires, forWhom),
  });
  return `${app.config.baseUrl}/v1/media/${mediaId}/content?${q}`;
}

// Newsletter links (reference §5): an email is read for years, so its images' links never expire. They are
// signed with a key of their own, over the medium and the word "newsletter", so such a signature opens that
// medium for newsletters only: it cannot be turned into an hour's link for a network or for another medium.
const NEWSLETTER_PURPOSE = "newsletter-media-links";
export const NEWSLETTER_FOR = "newsletter";

function newsletterSignature(app: App, mediaId: string): string {
  return nodeCrypto()
    .createHmac("sha256", app.keys.derivedNow(NEWSLETTER_PURPOSE))
    .update(`${mediaId}\n${NEWSLETTER_FOR}`)
    .digest("base64url");
}

/** Loads the newsletter links' key, so newsletterMediaUrl can be called synchronously while rendering. */
export async function prepareNewsletterLinks(app: App): Promise<void> {
  await app.keys.derived(NEWSLETTER_PURPOSE);
}

/** A link to a library image for a newsletter: no expiry, valid for newsletters only. */
export function newsletterMediaUrl(app: App, mediaId: string): string {
  const q = new URLSearchParams({ for: NEWSLETTER_FOR, signature: newsletterSignature(app, mediaId) });
  return `${app.config.baseUrl}/v1/media/${mediaId}/content?${q}`;
}

/** True when the query carries a valid, unexpired signature for this medium. */
export async function verifyMediaLink(app: App, mediaId: string, query: URLSearchParams): Promise<boolean> {
  const forWhom = query.get("for") ?? "";
  const given = query.get("signature") ?? "";
  if (forWhom === NEWSLETTER_FOR && !query.has("expires")) {
    if (given === "") return false;
    await prepareNewsletterLinks(app);
    return safeEqual(given, newsletterSignature(app, mediaId));
  }
  const expires = Number(query.get("expires"));
  if (!Number.isSafeInteger(expires) || forWhom === "" || given === "") return false;
  const now = Math.floor(app.clock.now() / 1000);
  // Never longer than one hour from now, whatever a link claims.
  if (expires < now || expires > now + LINK_TTL_S) return false;
  await prepareMediaLinks(app);
  return safeEqual(given, signature(app, mediaId, expires, forWhom));
}
