// What a file is, decided by its bytes (never by its name or the type a client claims): JPEG, PNG, GIF and WebP
// images; MP4 and QuickTime video. An image's facts come from decoding its header with sharp.
import { once } from "../../lib/once.ts";
import { GIF, JPEG, MP4, PNG, QUICKTIME, WEBP } from "../../platforms/units.ts";

// file-type and sharp (with libvips) load with the first medium, not at start-up (about 15 ms and 4 MiB, and
// 30 ms and 19 MiB).
const loadFileType = once(() => import("file-type"));
export const loadSharp = once(async () => (await import("sharp")).default);

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
    const img = sharp(bytes, { animated: true, limitInputPixels: false });
    const m = await img.metadata();
    if (!m.width || !m.height) return null;
    const turned = (m.orientation ?? 1) >= 5;
    const pageHeight = m.pageHeight ?? m.height;
    // An alpha channel that is everywhere opaque loses nothing as JPEG; only real transparency counts.
    let transparent = false;
    if (m.hasAlpha) transparent = !(await sharp(bytes, { limitInputPixels: false }).stats()).isOpaque;
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
