// Publish-time resizing (interface "Media handling"): an image too big for a network (bytes or width + height)
// or of a type it does not take is scaled down only as far as needed and re-encoded as JPEG, orientation
// applied, never cropped. Which images qualify is decided by checkImage (GIFs, transparency and images over
// 50 megapixels never do); this only does the work.
import { JPEG } from "../../platforms/text/units.ts";
import type { PlatformRules } from "../../platforms/types.ts";
import { loadSharp } from "./sniff.ts";

const QUALITY = 85;
const MAX_TRIES = 8;

export interface Resized {
  bytes: Uint8Array;
  width: number;
  height: number;
}

/**
 * `width` and `height` as displayed. The first size tried is the largest the width + height limit allows, made
 * smaller at once when the bytes are over the limit (JPEG size grows with the pixel count); each further try
 * shrinks by the square root of how far over it still is, so a 24-megapixel photo usually fits at the first try.
 */
export async function resizeForNetwork(
  original: Uint8Array,
  size: { width: number; height: number; bytes: number },
  rules: PlatformRules,
): Promise<Resized> {
  const limit = rules.images.max_bytes[JPEG];
  if (limit === undefined) throw new Error(`${rules.name} does not take JPEG`);
  const sum = rules.images.max_width_plus_height;
  const ceiling = sum === null ? 1 : Math.min(1, sum / (size.width + size.height));
  // Re-encoding at quality 85 rarely makes a file bigger per pixel than it was, so aiming a tenth under the
  // limit almost always fits at the first try: one decode and one encode.
  let scale = Math.min(ceiling, size.bytes > limit ? Math.sqrt(limit / size.bytes) * 0.9 : 1);
  const sharp = await loadSharp();
  for (let i = 0; i < MAX_TRIES; i++) {
    const width = Math.max(1, Math.floor(size.width * scale));
    const height = Math.max(1, Math.floor(size.height * scale));
    const bytes = await sharp(original, { limitInputPixels: false })
      .autoOrient()
      .resize(width, height, { fit: "fill" })
      .jpeg({ quality: QUALITY })
      .toBuffer();
    if (bytes.byteLength <= limit) return { bytes, width, height };
    scale *= Math.sqrt(limit / bytes.byteLength) * 0.97;
  }
  throw new Error(`could not bring the image under ${limit} bytes`);
}
