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
