// Media, their bytes when stored in the database, which posts use them, and what the sandbox received
// (migrations/0014_media.ts).
import type { Bool } from "./bool.ts";

export interface MediaTable {
  id: string;
  org_id: string;
  brand_id: string;
  livemode: Bool;
  kind: "image" | "video";
  /** MIME type decided by the bytes. */
  type: string;
  size: number;
  /** As displayed: EXIF orientation applied. */
  width: number | null;
  height: number | null;
  has_alpha: Bool;
  animated: Bool;
  alt: string | null;
  filename: string | null;
  sha256: string;
  /** JSON {duration_ms, frame_rate, video_codec, audio_codec} for a video. */
  video: string | null;
  /** Where the bytes are: "database" (media_blobs) or "s3" (bucket + object_key). */
  storage: "database" | "s3";
  bucket: string | null;
  object_key: string | null;
  created_at: number;
  updated_at: number;
}

export interface MediaBlobsTable {
  media_id: string;
  bytes: Uint8Array;
}

export interface PostMediaTable {
  post_id: string;
  media_id: string;
  position: number;
}

export interface SandboxMediaTable {
  target_id: string;
  attempt: number;
  part_index: number;
  position: number;
  org_id: string;
  media_id: string;
  type: string;
  size: number;
  width: number | null;
  height: number | null;
  bytes: Uint8Array | null;
}

export interface MediaTables {
  media: MediaTable;
  media_blobs: MediaBlobsTable;
  post_media: PostMediaTable;
  sandbox_media: SandboxMediaTable;
}
