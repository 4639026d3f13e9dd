import { GIF, JPEG, MiB, MP4, PNG, QUICKTIME, WEBP } from "../text/units.ts";
import type { PlatformRules } from "../types.ts";

// A channel webhook: one message of up to 2000 characters with up to 10 attachments of 10 MiB each. Mentions
// are disabled when sending, so text cannot ping @everyone.
export const discord: PlatformRules = {
  provider: "discord",
  name: "Discord",
  max_length: 2000,
  counting: "characters",
  threads: false,
  max_thread_parts: 1,
  media_required: false,
  max_media: 10,
  images: {
    max_bytes: { [JPEG]: 10 * MiB, [PNG]: 10 * MiB, [GIF]: 10 * MiB, [WEBP]: 10 * MiB },
    min_aspect_ratio: null,
    max_aspect_ratio: null,
    max_width_plus_height: null,
    max_length_with_media: null,
  },
  connect_fields: [
    {
      name: "webhook_url",
      label: "Webhook URL",
      help: "From the channel's Integrations → Webhooks: https://discord.com/api/webhooks/…",
      secret: true,
      optional: false,
      default: null,
    },
  ],
  video: {
    types: [MP4, QUICKTIME],
    max_bytes: 10 * MiB,
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
