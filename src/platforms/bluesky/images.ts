// Images on a Bluesky post: each is uploaded as a blob (com.atproto.repo.uploadBlob), then referenced from an
// `app.bsky.embed.images` embed with its alt text and aspect ratio. A blob that no record ends up referencing is
// dropped by the PDS after a while, so uploading before the look-up-then-create of the record is harmless.
import type { AtpAgent } from "@atproto/api";
import type { PublishMedia } from "../adapter.ts";

/** At most four images per post (app.bsky.embed.images). */
export const MAX_IMAGES = 4;

/** Why these images cannot go to Bluesky, or null when they can. */
export function imageRefusal(media: PublishMedia[]): string | null {
  if (media.length > MAX_IMAGES)
    return `Bluesky takes at most ${MAX_IMAGES} images per post; this one has ${media.length}.`;
  if (media.some((m) => !m.read)) return "an image's bytes are not available; nothing was posted.";
  return null;
}

/** Uploads every image and returns the embed that shows them, in order. */
export async function imagesEmbed(agent: AtpAgent, media: PublishMedia[]): Promise<Record<string, unknown>> {
  const images: Record<string, unknown>[] = [];
  for (const m of media) {
    const bytes = await m.read!();
    const r = await agent.com.atproto.repo.uploadBlob(bytes, { encoding: m.mime });
    const image: Record<string, unknown> = { image: r.data.blob, alt: m.alt ?? "" };
    // The aspect ratio lets clients lay the image out before it loads; both sides must be at least 1.
    if (m.width && m.height && m.width > 0 && m.height > 0)
      image.aspectRatio = { width: m.width, height: m.height };
    images.push(image);
  }
  return { $type: "app.bsky.embed.images", images };
}
