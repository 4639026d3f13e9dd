// Real video files for tests, made with Debian's ffmpeg (installed by scripts/test.sh): a test pattern and a tone.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface VideoSpec {
  seconds: number;
  fps?: number;
  width?: number;
  height?: number;
  /** libx264 (H.264, the default) or mpeg4 (MPEG-4 Part 2). */
  codec?: "libx264" | "mpeg4";
  /** mp4 or mov (QuickTime). */
  container?: "mp4" | "mov";
  /** Index (moov) before the media data; by default ffmpeg writes it after. */
  faststart?: boolean;
  audio?: boolean;
}

export function makeVideo(spec: VideoSpec): Buffer {
  const dir = mkdtempSync(join(tmpdir(), "svc-video-"));
  const out = join(dir, `v.${spec.container ?? "mp4"}`);
  const size = `${spec.width ?? 160}x${spec.height ?? 120}`;
  const args = [
    "-v",
    "error",
    "-f",
    "lavfi",
    "-i",
    `testsrc=size=${size}:rate=${spec.fps ?? 25}:duration=${spec.seconds}`,
    ...(spec.audio === false
      ? []
      : ["-f", "lavfi", "-i", `sine=frequency=440:sample_rate=44100:duration=${spec.seconds}`]),
    "-c:v",
    spec.codec ?? "libx264",
    ...(spec.codec === "mpeg4" ? [] : ["-preset", "ultrafast", "-pix_fmt", "yuv420p"]),
    ...(spec.audio === false ? [] : ["-c:a", "aac"]),
    ...(spec.faststart ? ["-movflags", "+faststart"] : []),
    out,
  ];
  const r = Bun.spawnSync(["ffmpeg", ...args], { stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`ffmpeg failed: ${r.stderr.toString()}`);
  const bytes = readFileSync(out);
  rmSync(dir, { recursive: true, force: true });
  return bytes;
}

/** The start of a real MP4 (its index in front) whose media data box says it runs to exactly `size` bytes: the
 * rest is zeros, written by the caller, and the index still reads as the original's. Uploads of any size can so
 * be tested and measured without encoding them. */
export function paddedVideoHead(size: number, spec: VideoSpec = { seconds: 4 }): Buffer {
  const head = makeVideo({ ...spec, faststart: true });
  if (size < head.length)
    throw new Error(`paddedVideo: ${size} bytes is less than the video's ${head.length}`);
  let mdat = -1;
  for (let at = 0; at < head.length; ) {
    const len = head.readUInt32BE(at);
    if (head.toString("latin1", at + 4, at + 8) === "mdat") mdat = at;
    at += len;
  }
  if (mdat < 0) throw new Error("paddedVideo: no mdat box");
  head.writeUInt32BE(size - mdat, mdat);
  return head;
}

/** paddedVideoHead, padded: the whole file in memory. */
export function paddedVideo(size: number, spec?: VideoSpec): Buffer {
  const out = Buffer.alloc(size);
  paddedVideoHead(size, spec).copy(out);
  return out;
}

/** A hex SHA-256 of bytes: received bytes equal sent ones when their hashes and sizes do. */
export function sha256(bytes: Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
}

/**
 * A video as the worker hands it to an adapter (PublishMedia), for calling an adapter directly: its bytes come
 * from `open` (default: the file itself as a stream), its facts from the file as made.
 */
export function videoMedia(
  bytes: Uint8Array,
  facts: { width: number; height: number; duration_ms: number },
  open: () => ReadableStream<Uint8Array> = () => new Blob([bytes as Uint8Array<ArrayBuffer>]).stream(),
) {
  return {
    id: "media_000000000000000000000000vd",
    mime: "video/mp4",
    alt: null,
    kind: "video" as const,
    size: bytes.byteLength,
    width: facts.width,
    height: facts.height,
    // A resumed upload asks for the rest from a byte on: the file itself from there.
    stream: async (from = 0) =>
      from > 0 ? new Blob([bytes.subarray(from) as Uint8Array<ArrayBuffer>]).stream() : open(),
    video: { duration_ms: facts.duration_ms, frame_rate: 25, video_codec: "avc1.42C00D" },
  };
}
