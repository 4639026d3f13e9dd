// What a part's media become on Bluesky: up to four images (images.ts) or one video (video.ts), as the post's
// embed. Checked before anything is sent, so a post is never published without the media it was written with.
import type { AtpAgent } from "@atproto/api";
import type { PublishMedia } from "../adapter.ts";
import { imageRefusal, imagesEmbed } from "./images.ts";
import { isVideo, videoEmbed, videoRefusal } from "./video.ts";

/** Why this part's media cannot go to Bluesky, or null when they can. */
export function refusal(media: PublishMedia[]): string | null {
  if (media.length === 0) return null;
  return media.some(isVideo) ? videoRefusal(media) : imageRefusal(media);
}

/** Uploads the part's media and returns the embed that shows them. */
export async function mediaEmbed(
  agent: AtpAgent,
  media: PublishMedia[],
  signal: AbortSignal,
): Promise<object> {
  if (media.some(isVideo)) return videoEmbed(agent, media[0]!, signal);
  return imagesEmbed(agent, media);
}
