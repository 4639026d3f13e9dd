import { JPEG, MP4, PNG, WEBP } from "../text/units.ts";
import type { PlatformRules } from "../types.ts";

// A bot posts to a chat or channel. Text alone may be 4096 characters, but with media it becomes a caption of
// at most 1024; up to 10 media go as one album. Photos must stay within 20:1 and 10,000 px width + height.
export const telegram: PlatformRules = {
  provider: "telegram",
  name: "Telegram",
  max_length: 4096,
  counting: "characters",
  threads: false,
  max_thread_parts: 1,
  media_required: false,
  max_media: 10,
  images: {
    max_bytes: { [JPEG]: 10_000_000, [PNG]: 10_000_000, [WEBP]: 10_000_000 },
    min_aspect_ratio: 1 / 20,
    max_aspect_ratio: 20,
    max_width_plus_height: 10_000,
    max_length_with_media: 1024,
  },
  connect_fields: [
    {
      name: "bot_token",
      label: "Bot token",
      help: "From @BotFather, for a bot that is an administrator of the chat.",
      secret: true,
      optional: false,
      default: null,
    },
    {
      name: "chat_id",
      label: "Chat",
      help: "The chat's numeric ID, or @channelname for a public channel.",
      secret: false,
      optional: false,
      default: null,
    },
  ],
  video: {
    types: [MP4],
    max_bytes: 50_000_000,
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
