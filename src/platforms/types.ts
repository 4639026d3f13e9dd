// What a platform allows, as data. The public part is the Platform resource of the API (GET /v1/platforms);
// PlatformRules adds what only the service needs (video limits, idempotency, how media reach the network).
// `null` always means "no limit" (or, for `video`, "takes no video").

export const providers = [
  "sandbox",
  "bluesky",
  "mastodon",
  "gab",
  "x",
  "threads",
  "linkedin",
  "linkedin_pages",
  "facebook",
  "instagram",
  "pinterest",
  "youtube",
  "tiktok",
  "discord",
  "telegram",
  "slack",
] as const;

export type Provider = (typeof providers)[number];

/** How a network measures text; see counting.ts. */
export type Counting = "characters" | "graphemes" | "x_weighted" | "mastodon" | "bluesky";

export type Fit = "error" | "truncate" | "thread";

export interface ImageRules {
  /** Accepted image MIME types and the largest file each may be; a type not listed is not taken. */
  max_bytes: Record<string, number>;
  /** width / height */
  min_aspect_ratio: number | null;
  max_aspect_ratio: number | null;
  max_width_plus_height: number | null;
  /** A shorter text limit for the part that carries media (a Telegram caption). */
  max_length_with_media: number | null;
}

export interface ConnectField {
  name: string;
  label: string;
  help: string;
  /** Sealed at rest and never shown again; non-secret fields appear in the channel's `settings`. */
  secret: boolean;
  optional: boolean;
  default: string | null;
}

/** The public Platform resource (reference §4). */
export interface Platform {
  provider: Provider;
  name: string;
  max_length: number | null;
  counting: Counting;
  threads: boolean;
  /** Most parts in one thread; 1 where the network has no threads. */
  max_thread_parts: number | null;
  media_required: boolean;
  max_media: number;
  images: ImageRules;
  /** The video it takes, stated as `images` is; null: the network takes no video. */
  video: VideoRules | null;
  connect_fields: ConnectField[];
}

export interface VideoRules {
  /** Accepted containers by MIME type. */
  types: string[];
  max_bytes: number | null;
  min_seconds: number | null;
  max_seconds: number | null;
  max_fps: number | null;
  /** Accepted video codecs ("h264", "hevc"); null takes any. */
  codecs: string[] | null;
  min_aspect_ratio: number | null;
  max_aspect_ratio: number | null;
}

export interface PlatformRules extends Platform {
  /**
   * The adapter can repeat a publish whose outcome is unknown without posting twice (ARCHITECTURE rule 5);
   * when false an uncertain attempt becomes needs_attention instead of a retry.
   */
  idempotent: boolean;
  /** The network fetches media from a signed link to /v1, so the install must be reachable from the internet. */
  media_by_link: boolean;
  /** Only test-mode credentials reach it (the sandbox); every other platform is live only. */
  test_only: boolean;
  /** A post is exactly one video and nothing else (video networks). */
  video_only: boolean;
  /** The first line becomes a title of at most this many characters; null when the network has no title. */
  title_max: number | null;
  /**
   * The account can comment on its own post though the network has no threads (Facebook, Instagram): a first
   * comment is taken. Service-only, not in the public Platform resource.
   */
  comments?: boolean;
  /**
   * The longest first comment the network takes, where its comments are limited otherwise than its posts (LinkedIn
   * 1,250, YouTube 10,000); else `max_length`. Service-only.
   */
  comment_max_length?: number;
}

export type ViolationCode =
  | "too_long"
  | "threads_unsupported"
  | "thread_too_long"
  | "empty"
  | "media_required"
  | "too_much_media"
  | "media_too_large"
  | "media_type_unsupported"
  | "media_aspect_ratio"
  | "media_dimensions"
  | "video_unsupported"
  | "video_too_short"
  | "video_too_long"
  | "video_frame_rate"
  | "video_codec_unsupported"
  | "first_comment_unsupported";

/** One broken platform rule, as listed in a preview rendition's `violations`. */
export interface Violation {
  code: ViolationCode;
  message: string;
  /** Index of the thread part (0-based), or null when the rule is about the post as a whole. */
  part: number | null;
  /** Media ID when the rule is about one medium. */
  media: string | null;
  length: number | null;
  limit: number | null;
}

/**
 * Something the service will do to make the post fit (media_resized), or a fact of the network the person should
 * know before publishing (private_only: TikTok posts only privately until the app is audited), shown in a
 * preview's `notices`.
 */
export interface Notice {
  code: "media_resized" | "private_only";
  message: string;
  media: string | null;
}
