import { GIF, GiB, JPEG, MP4, PNG, QUICKTIME } from "../text/units.ts";
import type { PlatformRules } from "../types.ts";

// Facebook Pages, through the org's Meta app (OAuth); Page tokens do not expire.
export const facebook: PlatformRules = {
  provider: "facebook",
  name: "Facebook",
  max_length: 63_206,
  counting: "characters",
  threads: false,
  max_thread_parts: 1,
  media_required: false,
  max_media: 10,
  images: {
    max_bytes: { [JPEG]: 4_000_000, [PNG]: 4_000_000, [GIF]: 4_000_000 },
    min_aspect_ratio: null,
    max_aspect_ratio: null,
    max_width_plus_height: null,
    max_length_with_media: null,
  },
  connect_fields: [],
  video: {
    types: [MP4, QUICKTIME],
    max_bytes: 1 * GiB,
    min_seconds: null,
    max_seconds: 20 * 60,
    max_fps: null,
    codecs: null,
    min_aspect_ratio: null,
    max_aspect_ratio: null,
  },
  idempotent: false,
  media_by_link: false,
  test_only: false,
  video_only: false,
  title_max: null,
  comments: true,
};
