// Whether rendered parts fit a platform, and making them fit when the post asks for it (fit "truncate" or
// "thread"). The checks return every broken rule, as a preview lists them and a 422 refuses with them.

import type { Fit, PlatformRules, Violation, ViolationCode } from "../types.ts";
import { measure } from "./counting.ts";
import { splitToFit, truncateToFit } from "./cut.ts";

export type { ImageFacts, MediaCheck, VideoFacts } from "../plumbing/media.ts";
export { checkImage, checkVideo } from "../plumbing/media.ts";

/** The text limit of one part: the part carrying media (the first) may have a shorter one, as a caption. */
export function partLimit(rules: PlatformRules, part: number, mediaCount: number): number | null {
  const withMedia = rules.images.max_length_with_media;
  if (part === 0 && mediaCount > 0 && withMedia !== null) {
    return rules.max_length === null ? withMedia : Math.min(withMedia, rules.max_length);
  }
  return rules.max_length;
}

function violation(
  code: ViolationCode,
  message: string,
  part: number | null,
  length: number | null = null,
  limit: number | null = null,
): Violation {
  return { code, message, part, media: null, length, limit };
}

/**
 * Every rule the parts (with this many media on the first) break on this platform. `lengths`: each part's
 * measure(text, rules.counting), when the caller has it already (measuring is most of a check's work).
 */
export function checkParts(
  rules: PlatformRules,
  parts: string[],
  mediaCount: number,
  lengths?: readonly number[],
): Violation[] {
  const out: Violation[] = [];
  const name = rules.name;
  if (parts.length > 1 && !rules.threads) {
    out.push(
      violation(
        "threads_unsupported",
        `${name} has no threads; this post has ${parts.length} parts.`,
        null,
        parts.length,
        1,
      ),
    );
  } else if (rules.max_thread_parts !== null && parts.length > rules.max_thread_parts) {
    out.push(
      violation(
        "thread_too_long",
        `${name} takes at most ${rules.max_thread_parts} parts in a thread; this post needs ${parts.length}. Shorten it, or choose fit "truncate" to cut it.`,
        null,
        parts.length,
        rules.max_thread_parts,
      ),
    );
  }
  if (rules.media_required && mediaCount === 0) {
    out.push(
      violation(
        "media_required",
        `${name} needs ${rules.video_only ? "a video" : "an image or a video"}.`,
        null,
      ),
    );
  }
  if (mediaCount > rules.max_media) {
    out.push(
      violation(
        "too_much_media",
        `${name} takes at most ${rules.max_media} media; this post has ${mediaCount}.`,
        null,
        mediaCount,
        rules.max_media,
      ),
    );
  }
  if (parts.length === 0 && mediaCount === 0) {
    out.push(violation("empty", "The post has no text and no media.", null));
  }
  parts.forEach((text, i) => {
    if (text.trim() === "") {
      if (!(i === 0 && mediaCount > 0))
        out.push(
          violation(
            "empty",
            parts.length > 1 ? `Part ${i + 1} is empty.` : "The post has no text and no media.",
            parts.length > 1 ? i : null,
          ),
        );
      return;
    }
    const limit = partLimit(rules, i, mediaCount);
    if (limit === null) return;
    const length = lengths?.[i] ?? measure(text, rules.counting);
    if (length > limit) {
      const where = parts.length > 1 ? `Part ${i + 1} measures` : "The text measures";
      const caption = limit !== rules.max_length ? " with media" : "";
      out.push(
        violation(
          "too_long",
          `${where} ${length}; ${name} takes at most ${limit}${caption} (counting ${rules.counting}).`,
          i,
          length,
          limit,
        ),
      );
    }
  });
  return out;
}

/**
 * The parts made to fit as the post asks. "error" changes nothing (the check then reports what is too long);
 * "truncate" cuts each part that is too long, the only fit that ever drops text, because the person chose it;
 * "thread" splits such parts into as many parts as the text needs, and when that is more than the platform's
 * thread limit the check reports thread_too_long with the count, so nothing is silently cut. A platform without
 * threads is not threaded: its parts stay as they are and the check reports them.
 */
export function applyFit(parts: string[], rules: PlatformRules, fit: Fit, mediaCount = 0): string[] {
  if (fit === "error" || rules.max_length === null) return [...parts];
  if (fit === "truncate") {
    return parts.map((text, i) => {
      const limit = partLimit(rules, i, mediaCount);
      return limit === null ? text : truncateToFit(text, limit, rules.counting);
    });
  }
  if (!rules.threads) return [...parts];
  const out: string[] = [];
  for (const text of parts) {
    // Parts the author split by hand stay parts (an empty one is kept for the check to name).
    if (text.trim() === "") {
      out.push(text);
      continue;
    }
    const first = out.length;
    out.push(
      ...splitToFit(
        text,
        (k) => partLimit(rules, first + k, mediaCount) ?? Number.POSITIVE_INFINITY,
        rules.counting,
      ),
    );
  }
  return out;
}
