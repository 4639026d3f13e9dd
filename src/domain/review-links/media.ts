// The pictures a client review link's page shows: an image's thumbnail, or a video's bytes for the page's <video>
// (the browser shows its first frame as the poster). The link's token is the permission, and it reaches only the
// media of its brand's posts that wait for approval in its org and mode: any other medium, a decided post's, or a
// link that no longer works is the same 404 (review_link_invalid for the link itself).
import type { App } from "../../app/context.ts";
import type { MediaTable } from "../../db/tables/media.ts";
import { notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import type { Actor } from "../actor.ts";
import { loadMedia } from "../media/service.ts";
import { fromJson } from "../tx.ts";
import { openReviewLink } from "./open.ts";

const missing = () => notFound("No such picture on this review page.");

/** The medium if the link's page shows it (one of its pending posts carries it), else a 404. */
export async function reviewLinkMedia(
  app: App,
  token: string,
  id: string,
): Promise<{ row: MediaTable; actor: Actor }> {
  const { link, actor } = await openReviewLink(app, token);
  if (!isId("media", id)) throw missing();
  // An ID has no LIKE wildcard (checked above); each match is confirmed by reading the post's media list.
  const posts = await app.db
    .selectFrom("posts")
    .select("media")
    .where("org_id", "=", link.org_id)
    .where("livemode", "=", link.livemode)
    .where("brand_id", "=", link.brand_id)
    .where("status", "=", "pending_approval")
    .where("media", "like", `%"${id}"%`)
    .execute();
  if (!posts.some((p) => fromJson<{ id: string }[]>(p.media, []).some((m) => m.id === id))) throw missing();
  return { row: await loadMedia(app.db, actor, id), actor };
}

/** The image's thumbnail (WebP, as the media library's), or null for a video. */
export async function reviewLinkThumbnail(
  app: App,
  token: string,
  id: string,
): Promise<{ type: string; bytes: Uint8Array } | null> {
  const { actor } = await reviewLinkMedia(app, token, id);
  const { mediaThumbnail } = await import("../media/thumbnail.ts");
  return mediaThumbnail(app, actor, id);
}
