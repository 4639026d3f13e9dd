import { GIF, JPEG, MiB, MP4, PNG, QUICKTIME, WEBP } from "../text/units.ts";
import type { PlatformRules } from "../types.ts";

// Gab runs a Mastodon fork on one server, so it counts like Mastodon but has no server field. It makes no
// idempotency promise. Its media limits are not published; Mastodon's are used as the closest known figures.
export const gab: PlatformRules = {
  provider: "gab",
  name: "Gab",
  max_length: 3000,
  counting: "mastodon",
  threads: true,
  max_thread_parts: 25,
  media_required: false,
  max_media: 4,
  images: {
    max_bytes: { [JPEG]: 16 * MiB, [PNG]: 16 * MiB, [GIF]: 16 * MiB, [WEBP]: 16 * MiB },
    min_aspect_ratio: null,
    max_aspect_ratio: null,
    max_width_plus_height: null,
    max_length_with_media: null,
  },
  connect_fields: [
    {
      name: "access_token",
      label: "Access token",
      help: "A personal access token from the account's developer settings.",
      secret: true,
      optional: false,
      default: null,
    },
  ],
  video: {
    types: [MP4, QUICKTIME],
    max_bytes: 99 * MiB,
    min_seconds: null,
    max_seconds: null,
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
};
