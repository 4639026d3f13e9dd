import type { PlatformRules } from "../types.ts";

// A Slack incoming webhook, or a bot token with a channel, posts messages to one channel. Slack truncates message text past
// 40,000 characters, so that is the limit. Files are not sent (an incoming webhook cannot upload them), hence no media at all.
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
  // Either an incoming webhook URL, or a bot token and a channel: each field is optional here and the adapter
  // refuses a channel given neither (or both) when it connects.
  connect_fields: [
    {
      name: "webhook_url",
      label: "Webhook URL",
      help: "An incoming webhook from the Slack app's settings: https://hooks.slack.com/services/… Leave empty when using a bot token.",
      secret: true,
      optional: true,
      default: null,
    },
    {
      name: "bot_token",
      label: "Bot token",
      help: "Instead of a webhook: the app's bot token (xoxb-…) with the chat:write scope, invited to the channel.",
      secret: true,
      optional: true,
      default: null,
    },
    {
      name: "channel",
      label: "Channel",
      help: "With a bot token: the channel's ID (for example C0123ABCD), from the channel's details.",
      secret: false,
      optional: true,
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
