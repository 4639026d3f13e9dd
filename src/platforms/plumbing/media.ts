// Whether an image or video can go to a platform, and whether the service will resize the image first
// (interface "Media handling"): an image too big, of a type the platform does not take, or over its width +
// height is scaled down and re-encoded as JPEG at publish time, but only where the platform takes JPEG; GIFs,
// images with transparency and images over 50 megapixels are never resized; aspect ratios are never fixed,
// since resizing does not crop.

import { GIF, JPEG } from "../text/units.ts";
import type { Notice, PlatformRules, Violation, ViolationCode } from "../types.ts";

export const MAX_RESIZE_PIXELS = 50_000_000;

export interface ImageFacts {
  id?: string | null;
  mime: string;
  bytes: number;
  /** As displayed, orientation applied. */
  width: number;
  height: number;
  /** Has an alpha channel that JPEG would lose. */
  has_alpha?: boolean;
}

export interface VideoFacts {
  id?: string | null;
  mime: string;
  bytes: number;
  duration_ms: number;
  frame_rate: number | null;
  video_codec: string | null;
  width?: number | null;
  height?: number | null;
}

export interface MediaCheck {
  violations: Violation[];
  notices: Notice[];
}

// Ratios from the rules files are written as fractions (1 / 3); a hair of slack keeps 1080x1350 at exactly 0.8.
const EPSILON = 1e-9;

function violation(
  code: ViolationCode,
  message: string,
  media: string | null,
  length: number | null = null,
  limit: number | null = null,
): Violation {
  return { code, message, part: null, media, length, limit };
}

function aspectViolation(
  rules: { min_aspect_ratio: number | null; max_aspect_ratio: number | null },
  name: string,
  width: number,
  height: number,
  media: string | null,
): Violation | undefined {
  if (width <= 0 || height <= 0) return undefined;
  const ratio = width / height;
  const { min_aspect_ratio: min, max_aspect_ratio: max } = rules;
  if ((min !== null && ratio < min - EPSILON) || (max !== null && ratio > max + EPSILON)) {
    const range = `${min === null ? "any" : min.toFixed(2)} to ${max === null ? "any" : max.toFixed(2)}`;
    return violation(
      "media_aspect_ratio",
      `${name} takes width:height from ${range}; this is ${ratio.toFixed(2)} and is never cropped.`,
      media,
    );
  }
  return undefined;
}

export function checkImage(rules: PlatformRules, image: ImageFacts): MediaCheck {
  const media = image.id ?? null;
  const accepted = rules.images.max_bytes;
  if (Object.keys(accepted).length === 0) {
    return {
      violations: [violation("media_type_unsupported", `${rules.name} takes no images.`, media)],
      notices: [],
    };
  }
  const violations: Violation[] = [];
  const aspect = aspectViolation(rules.images, rules.name, image.width, image.height, media);
  if (aspect) violations.push(aspect);

  const typeLimit = accepted[image.mime];
  const sumLimit = rules.images.max_width_plus_height;
  const problems: { code: ViolationCode; message: string; length: number | null; limit: number | null }[] =
    [];
  if (typeLimit === undefined) {
    const types = Object.keys(accepted).join(", ");
    problems.push({
      code: "media_type_unsupported",
      message: `${rules.name} takes ${types}, not ${image.mime}`,
      length: null,
      limit: null,
    });
  } else if (image.bytes > typeLimit) {
    problems.push({
      code: "media_too_large",
      message: `${rules.name} takes ${image.mime} up to ${typeLimit} bytes; this is ${image.bytes}`,
      length: image.bytes,
      limit: typeLimit,
    });
  }
  if (sumLimit !== null && image.width + image.height > sumLimit) {
    problems.push({
      code: "media_dimensions",
      message: `${rules.name} takes width + height up to ${sumLimit} px; this is ${image.width + image.height}`,
      length: image.width + image.height,
      limit: sumLimit,
    });
  }
  if (problems.length === 0) return { violations, notices: [] };

  const refusal =
    accepted[JPEG] === undefined
      ? `${rules.name} does not take JPEG, so it cannot be converted`
      : image.mime === GIF
        ? "GIFs are not resized"
        : image.has_alpha
          ? "images with transparency are not resized"
          : image.width * image.height > MAX_RESIZE_PIXELS
            ? "images over 50 megapixels are not resized"
            : undefined;
  if (refusal !== undefined) {
    for (const p of problems)
      violations.push(violation(p.code, `${p.message}, and ${refusal}.`, media, p.length, p.limit));
    return { violations, notices: [] };
  }
  // An aspect violation stands either way; a resize notice beside it would promise a post that cannot happen.
  if (violations.length > 0) return { violations, notices: [] };
  const why = problems.map((p) => p.message).join("; ");
  return {
    violations,
    notices: [{ code: "media_resized", message: `${why}: it will be scaled down and sent as JPEG.`, media }],
  };
}

// Codec names as MP4 sample entries spell them, mapped to the names the rules use.
const CODEC_ALIASES: Record<string, string> = {
  avc1: "h264",
  avc3: "h264",
  avc: "h264",
  "h.264": "h264",
  hvc1: "hevc",
  hev1: "hevc",
  h265: "hevc",
  "h.265": "hevc",
};

function codecName(codec: string): string {
  const lower = codec.toLowerCase();
  return CODEC_ALIASES[lower.split(".")[0] ?? lower] ?? CODEC_ALIASES[lower] ?? lower;
}

export function checkVideo(rules: PlatformRules, video: VideoFacts): MediaCheck {
  const media = video.id ?? null;
  const v = rules.video;
  if (v === null)
    return {
      violations: [violation("video_unsupported", `${rules.name} takes no video.`, media)],
      notices: [],
    };
  if (!v.types.includes(video.mime)) {
    return {
      violations: [
        violation(
          "video_unsupported",
          `${rules.name} takes video as ${v.types.join(", ")}, not ${video.mime}.`,
          media,
        ),
      ],
      notices: [],
    };
  }
  const out: Violation[] = [];
  if (v.max_bytes !== null && video.bytes > v.max_bytes) {
    out.push(
      violation(
        "media_too_large",
        `${rules.name} takes video up to ${v.max_bytes} bytes; this is ${video.bytes}.`,
        media,
        video.bytes,
        v.max_bytes,
      ),
    );
  }
  const seconds = video.duration_ms / 1000;
  if (v.min_seconds !== null && seconds < v.min_seconds) {
    out.push(
      violation(
        "video_too_short",
        `${rules.name} takes video of at least ${v.min_seconds} s; this is ${seconds} s.`,
        media,
        video.duration_ms,
        v.min_seconds * 1000,
      ),
    );
  }
  if (v.max_seconds !== null && seconds > v.max_seconds) {
    out.push(
      violation(
        "video_too_long",
        `${rules.name} takes video of at most ${v.max_seconds} s; this is ${seconds} s.`,
        media,
        video.duration_ms,
        v.max_seconds * 1000,
      ),
    );
  }
  if (v.max_fps !== null && video.frame_rate !== null && video.frame_rate > v.max_fps + EPSILON) {
    out.push(
      violation(
        "video_frame_rate",
        `${rules.name} takes at most ${v.max_fps} frames per second; this has ${video.frame_rate}.`,
        media,
        video.frame_rate,
        v.max_fps,
      ),
    );
  }
  if (v.codecs !== null && (video.video_codec === null || !v.codecs.includes(codecName(video.video_codec)))) {
    out.push(
      violation(
        "video_codec_unsupported",
        `${rules.name} takes ${v.codecs.join(", ")} video; this is ${video.video_codec ?? "unknown"}.`,
        media,
      ),
    );
  }
  if (video.width && video.height) {
    const aspect = aspectViolation(v, rules.name, video.width, video.height, media);
    if (aspect) out.push(aspect);
  }
  return { violations: out, notices: [] };
}
