import { GiB, MP4, QUICKTIME } from "../text/units.ts";
import type { PlatformRules } from "../types.ts";

// A post is one video, uploaded in 10 MiB chunks. Until the app passes TikTok's audit it may post only private
// videos to private accounts. Connected by OAuth with PKCE.
export const tiktok: PlatformRules = {
  provider: "tiktok",
  name: "TikTok",
  max_length: 2200,
  counting: "characters",
  threads: false,
  max_thread_parts: 1,
  media_required: true,
  max_media: 1,
  images: {
    max_bytes: {},
    min_aspect_ratio: null,
    max_aspect_ratio: null,
    max_width_plus_height: null,
    max_length_with_media: null,
  },
  connect_fields: [],
  video: {
    types: [MP4, QUICKTIME],
    max_bytes: 4 * GiB,
    min_seconds: null,
    max_seconds: 10 * 60,
    max_fps: null,
    codecs: null,
    min_aspect_ratio: null,
    max_aspect_ratio: null,
  },
  idempotent: false,
  media_by_link: false,
  test_only: false,
  video_only: true,
  title_max: null,
};
