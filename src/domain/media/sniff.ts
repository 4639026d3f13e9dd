// What a file is, decided by its bytes (never by its name or the type a client claims): JPEG, PNG, GIF and WebP
// images; MP4 and QuickTime video. An image's facts come from decoding its header with sharp.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { once } from "../../lib/once.ts";
import { GIF, JPEG, MP4, PNG, QUICKTIME, WEBP } from "../../platforms/text/units.ts";

// file-type and sharp (with libvips) load with the first medium, not at start-up (about 15 ms and 4 MiB, and
// 30 ms and 19 MiB).
const loadFileType = once(() => import("file-type"));
export const loadSharp = once(async (): Promise<typeof import("sharp").default> => {
  if (import.meta.path.startsWith("/$bunfs/")) {
    // Inside an executable built by `bun build --compile` sharp's native part cannot load from the embedded file
    // system: `bun run build` ships sharp and libvips in dist/node_modules beside the executable (scripts/build.ts).
    const dir = join(dirname(process.execPath), "node_modules", "sharp");
    const main = join(dir, JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).main);
    return createRequire(main)(main);
  }
  return (await import("sharp")).default;
});

export const IMAGE_TYPES = [JPEG, PNG, GIF, WEBP] as const;
export const VIDEO_TYPES = [MP4, QUICKTIME] as const;
/** Enough leading bytes to recognise every accepted type. */
export const SNIFF_BYTES = 4100;

export type Sniffed = { kind: "image" | "video"; type: string } | { kind: "other"; type: string | null };

export async function sniff(head: Uint8Array): Promise<Sniffed> {
  const { fileTypeFromBuffer } = await loadFileType();
  const found = await fileTypeFromBuffer(head);
  const mime = found?.mime ?? null;
  if (mime && (IMAGE_TYPES as readonly string[]).includes(mime)) return { kind: "image", type: mime };
  if (mime && (VIDEO_TYPES as readonly string[]).includes(mime)) return { kind: "video", type: mime };
  // MP4 files of other brands (M4V, ISO base media) are MP4 video all the same.
  if (mime === "video/x-m4v" || mime === "video/iso.segment") return { kind: "video", type: MP4 };
  return { kind: "other", type: mime };
}

/**
 * The most pixels (all frames of an animation together) an upload may have: twice the 50 megapixels publishing
 * still resizes, so every image a network could take as it is stays accepted. Decoding costs memory and time by the
 * pixel, not by the byte: a 1.5 MB PNG of 20000 x 20000 cost 23 s and 1.5 GiB to check.
 */
export const MAX_IMAGE_PIXELS = 100_000_000;

/** The pixel count the image's header declares (all frames), read without decoding; null when it has none. */
export async function imagePixels(bytes: Uint8Array): Promise<number | null> {
  const sharp = await loadSharp();
  try {
    const m = await sharp(bytes, { animated: true, limitInputPixels: false }).metadata();
    return m.width && m.height ? m.width * m.height : null;
  } catch {
    return null;
  }
}

export interface ImageInfo {
  width: number;
  height: number;
  has_alpha: boolean;
  animated: boolean;
}

/** Size as displayed (EXIF orientation 5-8 turns the picture a quarter), real transparency, animation. */
export async function imageInfo(bytes: Uint8Array): Promise<ImageInfo | null> {
  const sharp = await loadSharp();
  try {
    // sharp refuses past the limit from the header, before decoding, should a caller not have asked imagePixels.
    const img = sharp(bytes, { animated: true, limitInputPixels: MAX_IMAGE_PIXELS });
    const m = await img.metadata();
    if (!m.width || !m.height) return null;
    const turned = (m.orientation ?? 1) >= 5;
    const pageHeight = m.pageHeight ?? m.height;
    // Every frame decoded to the end: the header alone says nothing of a file cut short, which would be accepted
    // here and fail only at publish. A truncated or corrupt image throws, and is refused as unreadable.
    const stats = await sharp(bytes, {
      animated: true,
      limitInputPixels: MAX_IMAGE_PIXELS,
      failOn: "truncated",
    }).stats();
    // An alpha channel that is everywhere opaque loses nothing as JPEG; only real transparency counts.
    const transparent = !!m.hasAlpha && !stats.isOpaque;
    return {
      width: turned ? pageHeight : m.width,
      height: turned ? m.width : pageHeight,
      has_alpha: transparent,
      animated: (m.pages ?? 1) > 1,
    };
  } catch {
    return null;
  }
}
