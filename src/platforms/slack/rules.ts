import { GIF, GiB, JPEG, MP4, PNG, QUICKTIME, WEBP } from "../text/units.ts";
import type { PlatformRules } from "../types.ts";

// A Slack incoming webhook, or a bot token with a channel, posts messages to one channel. Slack truncates message
// text past 40,000 characters, so that is the limit. A bot token shares images and video as files (Slack takes files
// up to 1 GB; a workspace may refuse some types); an incoming webhook cannot carry files at all, which
// `slackCarriesFiles` tells the preview, per channel.
export const slack: PlatformRules = {
  provider: "slack",
  name: "Slack",
  max_length: 40_000,
  counting: "characters",
  threads: false,
  max_thread_parts: 1,
  media_required: false,
  max_media: 10,
  images: {
    max_bytes: { [JPEG]: GiB, [PNG]: GiB, [GIF]: GiB, [WEBP]: GiB },
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
      help: "Instead of a webhook: the app's bot token (xoxb-…) with the chat:write scope (and files:write to post images and video), invited to the channel.",
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
  video: {
    types: [MP4, QUICKTIME],
    max_bytes: GiB,
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

/**
 * Whether a Slack channel can carry files: one connected with a bot token can (files.getUploadURLExternal), one
 * connected with an incoming webhook cannot. Connecting records which (`via`); a channel connected before that
 * has a `channel` setting exactly when it uses a bot token.
 */
export function slackCarriesFiles(settings: Record<string, unknown>): boolean {
  if (settings.via === "webhook") return false;
  if (settings.via === "bot") return true;
  return typeof settings.channel === "string" && settings.channel !== "";
}
