import type { PlatformRules } from "../types.ts";

// A Slack incoming webhook posts one message to the channel it was made for. Slack truncates message text past
// 40,000 characters, so that is the limit. An incoming webhook cannot upload files, hence no media at all.
export const slack: PlatformRules = {
  provider: "slack",
  name: "Slack",
  max_length: 40_000,
  counting: "characters",
  threads: false,
  max_thread_parts: 1,
  media_required: false,
  max_media: 0,
  images: {
    max_bytes: {},
    min_aspect_ratio: null,
    max_aspect_ratio: null,
    max_width_plus_height: null,
    max_length_with_media: null,
  },
  connect_fields: [
    {
      name: "webhook_url",
      label: "Webhook URL",
      help: "An incoming webhook from the Slack app's settings: https://hooks.slack.com/services/…",
      secret: true,
      optional: false,
      default: null,
    },
  ],
  video: null,
  idempotent: false,
  media_by_link: false,
  test_only: false,
  video_only: false,
  title_max: null,
};
