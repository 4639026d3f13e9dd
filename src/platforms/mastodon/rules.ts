import { GIF, JPEG, MiB, MP4, PNG, QUICKTIME, WEBP } from "../text/units.ts";
import type { PlatformRules } from "../types.ts";

// 500 is Mastodon's default; a server may raise it, which this table does not know. Idempotent because the
// API honours an Idempotency-Key (per target and part) for about an hour.
export const mastodon: PlatformRules = {
  provider: "mastodon",
  name: "Mastodon",
  max_length: 500,
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
      name: "instance",
      label: "Server",
      help: "The server the account lives on, for example https://mastodon.social.",
      secret: false,
      optional: false,
      default: null,
    },
    {
      name: "access_token",
      label: "Access token",
      help: "From Preferences → Development → New application, with the read:accounts, read:statuses, write:statuses and write:media scopes.",
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
  idempotent: true,
  media_by_link: false,
  test_only: false,
  video_only: false,
  title_max: null,
};
