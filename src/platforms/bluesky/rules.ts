import { GIF, JPEG, MP4, PNG, WEBP } from "../text/units.ts";
import type { PlatformRules } from "../types.ts";

// Limits: 300 graphemes after link shortening; blobs of at most 1,000,000 bytes per image; video up to 100 MB and
// 3 minutes. Idempotent because record keys are derived from the target and part, so a retry finds the record.
export const bluesky: PlatformRules = {
  provider: "bluesky",
  name: "Bluesky",
  max_length: 300,
  counting: "bluesky",
  threads: true,
  max_thread_parts: 25,
  media_required: false,
  max_media: 4,
  images: {
    max_bytes: { [JPEG]: 1_000_000, [PNG]: 1_000_000, [WEBP]: 1_000_000, [GIF]: 1_000_000 },
    min_aspect_ratio: null,
    max_aspect_ratio: null,
    max_width_plus_height: null,
    max_length_with_media: null,
  },
  connect_fields: [
    {
      name: "identifier",
      label: "Handle or email",
      help: "The account's handle (for example alice.bsky.social) or its sign-in email.",
      secret: false,
      optional: false,
      default: null,
    },
    {
      name: "app_password",
      label: "App password",
      help: "Create one under Settings → Privacy and security → App passwords; never the account password.",
      secret: true,
      optional: false,
      default: null,
    },
    {
      name: "service",
      label: "PDS",
      help: "The account's server, for a self-hosted PDS.",
      secret: false,
      optional: true,
      default: "https://bsky.social",
    },
  ],
  video: {
    types: [MP4],
    max_bytes: 100_000_000,
    min_seconds: null,
    max_seconds: 180,
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
