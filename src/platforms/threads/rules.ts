import { GiB, JPEG, MP4, PNG, QUICKTIME } from "../text/units.ts";
import type { PlatformRules } from "../types.ts";

// Threads (Meta) connects by OAuth and fetches every medium itself from a signed link, so the install's /v1 must
// be reachable from the internet.
export const threads: PlatformRules = {
  provider: "threads",
  name: "Threads",
  max_length: 500,
  counting: "characters",
  threads: true,
  max_thread_parts: 25,
  media_required: false,
  max_media: 10,
  images: {
    max_bytes: { [JPEG]: 8_000_000, [PNG]: 8_000_000 },
    min_aspect_ratio: 0.1,
    max_aspect_ratio: 10,
    max_width_plus_height: null,
    max_length_with_media: null,
  },
  connect_fields: [],
  video: {
    types: [MP4, QUICKTIME],
    max_bytes: 1 * GiB,
    min_seconds: null,
    max_seconds: 300,
    max_fps: 60,
    codecs: ["h264", "hevc"],
    min_aspect_ratio: null,
    max_aspect_ratio: null,
  },
  idempotent: false,
  media_by_link: true,
  test_only: false,
  video_only: false,
  title_max: null,
};
