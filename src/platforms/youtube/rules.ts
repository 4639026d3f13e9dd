import { GiB, MP4, QUICKTIME } from "../text/units.ts";
import type { PlatformRules } from "../types.ts";

// A post is exactly one video: the first line is its title (at most 100, `<` and `>` replaced, cut with "..."),
// the text its description. Connected by OAuth; `privacy` is chosen per channel. The file limits are YouTube's
// published upload maximum (256 GB or 12 hours); the service's own video limit is usually the tighter one.
export const youtube: PlatformRules = {
  provider: "youtube",
  name: "YouTube",
  max_length: 5000,
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
  connect_fields: [
    {
      name: "privacy",
      label: "Privacy",
      help: "Who sees uploaded videos: public, unlisted or private.",
      secret: false,
      optional: true,
      default: "public",
    },
  ],
  video: {
    types: [MP4, QUICKTIME],
    max_bytes: 256 * GiB,
    min_seconds: null,
    max_seconds: 12 * 60 * 60,
    max_fps: null,
    codecs: null,
    min_aspect_ratio: null,
    max_aspect_ratio: null,
  },
  idempotent: false,
  media_by_link: false,
  test_only: false,
  video_only: true,
  title_max: 100,
  // A first comment is the channel's own top-level comment on its video (commentThreads.insert); YouTube takes
  // comments of up to 10,000 characters.
  comments: true,
  comment_max_length: 10_000,
};
