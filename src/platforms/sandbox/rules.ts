import { GIF, JPEG, MiB, MP4, PNG, QUICKTIME, WEBP } from "../text/units.ts";
import type { PlatformRules } from "../types.ts";

// The sandbox's own rules are permissive on purpose: a sandbox channel is checked against the provider it
// `emulates` (registry.rulesFor), so these apply only to a sandbox that emulates nothing but itself. The image
// ceiling is the service's own upload limit.
export const sandbox: PlatformRules = {
  provider: "sandbox",
  name: "Sandbox",
  max_length: null,
  counting: "graphemes",
  threads: true,
  max_thread_parts: null,
  media_required: false,
  max_media: 10,
  images: {
    max_bytes: { [JPEG]: 16 * MiB, [PNG]: 16 * MiB, [GIF]: 16 * MiB, [WEBP]: 16 * MiB },
    min_aspect_ratio: null,
    max_aspect_ratio: null,
    max_width_plus_height: null,
    max_length_with_media: null,
  },
  connect_fields: [
    {
      name: "display_name",
      label: "Display name",
      help: "Shown for the channel; made up when left out.",
      secret: false,
      optional: true,
      default: null,
    },
    {
      name: "handle",
      label: "Handle",
      help: "A pretend account handle for the channel.",
      secret: false,
      optional: true,
      default: null,
    },
  ],
  video: {
    types: [MP4, QUICKTIME],
    max_bytes: null,
    min_seconds: null,
    max_seconds: null,
    max_fps: null,
    codecs: null,
    min_aspect_ratio: null,
    max_aspect_ratio: null,
  },
  idempotent: false,
  media_by_link: false,
  test_only: true,
  video_only: false,
  title_max: null,
};
