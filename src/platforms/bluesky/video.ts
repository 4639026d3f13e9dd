// A video on a Bluesky post: the MP4 is uploaded as a blob (com.atproto.repo.uploadBlob) and referenced from an
// `app.bsky.embed.video` embed with its alt text and aspect ratio. A video is alone in its post. The bytes go from
// the bucket to the PDS as they are read, with the medium's size as Content-Length (the guarded fetch sends a
// stream of known length without holding it), so a 100 MB file is never in memory whole. Like an image, a blob no
// record ends up referencing is dropped by the PDS, so an upload followed by a crash never shows the video twice.
import type { AppBskyEmbedVideo, AtpAgent } from "@atproto/api";
import type { PublishMedia } from "../adapter.ts";
import { MP4 } from "../text/units.ts";

export const isVideo = (m: PublishMedia) => m.kind === "video" || m.mime.startsWith("video/");

/** Why this video cannot go to Bluesky, or null when it can. */
export function videoRefusal(media: PublishMedia[]): string | null {
  if (media.length > 1) return "a video is alone in a Bluesky post; this one has other media.";
  const m = media[0]!;
  if (m.mime !== MP4) return `Bluesky takes MP4 video only; this one is ${m.mime}.`;
  if (!streamable(m) && !m.read) return "the video's bytes are not available; nothing was posted.";
  return null;
}

/** Uploads the video and returns the embed that shows it. */
export async function videoEmbed(
  agent: AtpAgent,
  m: PublishMedia,
  signal: AbortSignal,
): Promise<AppBskyEmbedVideo.Main> {
  // @atproto/api passes a ReadableStream body through to fetch; its input type names only the buffered kinds.
  const r = streamable(m)
    ? await agent.com.atproto.repo.uploadBlob((await m.stream()) as unknown as Blob, {
        encoding: MP4,
        signal,
        headers: { "content-length": String(m.size) },
      })
    : await agent.com.atproto.repo.uploadBlob(await m.read!(), { encoding: MP4, signal });
  const embed: AppBskyEmbedVideo.Main = { $type: "app.bsky.embed.video", video: r.data.blob };
  if (m.alt) embed.alt = m.alt;
  // Lets clients lay the player out before the video loads; both sides must be at least 1.
  if (m.width && m.height && m.width > 0 && m.height > 0)
    embed.aspectRatio = { width: m.width, height: m.height };
  return embed;
}

/** Sent as read when its length is known; else read whole (a medium made by hand in a test). */
const streamable = (m: PublishMedia): m is PublishMedia & Required<Pick<PublishMedia, "stream" | "size">> =>
  m.stream !== undefined && m.size !== undefined;
