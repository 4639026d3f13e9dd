import { GIF, JPEG, MiB, MP4, PNG } from "../text/units.ts";
import type { PlatformRules } from "../types.ts";

// Member feed. Connected by OAuth (openid profile w_member_social) or by a pasted token with the API version it
// was issued for (sent as the LinkedIn-Version header). LinkedIn states no image file size; the service's own
// 16 MiB upload limit stands in for it.
export const linkedin: PlatformRules = {
  provider: "linkedin",
  name: "LinkedIn",
  max_length: 3000,
  counting: "characters",
  threads: false,
  max_thread_parts: 1,
  media_required: false,
  max_media: 9,
  images: {
    max_bytes: { [JPEG]: 16 * MiB, [PNG]: 16 * MiB, [GIF]: 16 * MiB },
    min_aspect_ratio: null,
    max_aspect_ratio: null,
    max_width_plus_height: null,
    max_length_with_media: null,
  },
  connect_fields: [
    {
      name: "access_token",
      label: "Access token",
      help: "A member token with the w_member_social scope, when not signing in through an app.",
      secret: true,
      optional: false,
      default: null,
    },
    {
      name: "api_version",
      label: "API version",
      help: "The LinkedIn-Version to send, as YYYYMM (for example 202506).",
      secret: false,
      optional: false,
      default: null,
    },
  ],
  video: {
    types: [MP4],
    max_bytes: 500 * MiB,
    min_seconds: 3,
    max_seconds: 30 * 60,
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
