import { JPEG, MiB, MP4, QUICKTIME } from "../text/units.ts";
import type { PlatformRules } from "../types.ts";

// Instagram business accounts through the Meta app. Every post needs media; images must be JPEG (others are
// re-encoded) and between 4:5 and 1.91:1; a video goes up as a reel. Instagram fetches media by signed link.
export const instagram: PlatformRules = {
  provider: "instagram",
  name: "Instagram",
  max_length: 2200,
  counting: "characters",
  threads: false,
  max_thread_parts: 1,
  media_required: true,
  max_media: 10,
  images: {
    max_bytes: { [JPEG]: 8_000_000 },
    min_aspect_ratio: 0.8,
    max_aspect_ratio: 1.91,
    max_width_plus_height: null,
    max_length_with_media: null,
  },
  connect_fields: [],
  video: {
    types: [MP4, QUICKTIME],
    max_bytes: 300 * MiB,
    min_seconds: 3,
    max_seconds: 15 * 60,
    max_fps: null,
    codecs: null,
    min_aspect_ratio: null,
    max_aspect_ratio: null,
  },
  idempotent: false,
  media_by_link: true,
  test_only: false,
  video_only: false,
  title_max: null,
  comments: true,
};
