import type { MediaTable } from "../../db/tables/media.ts";
import { iso } from "../../lib/clock.ts";

/** The public Media resource (reference §4). */
export const presentMedia = (m: MediaTable) => ({
  id: m.id,
  object: "media" as const,
  brand: m.brand_id,
  livemode: m.livemode === 1,
  type: m.type,
  size: Number(m.size),
  width: m.width,
  height: m.height,
  alt: m.alt,
  filename: m.filename,
  sha256: m.sha256,
  video: m.video
    ? (JSON.parse(m.video) as {
        duration_ms: number;
        frame_rate: number | null;
        video_codec: string | null;
        audio_codec: string | null;
      })
    : null,
  created_at: iso(m.created_at),
});
export type Media = ReturnType<typeof presentMedia>;
