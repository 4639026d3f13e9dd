// A video's length, frame rate and codecs, read from its index (the `moov` box) with mp4box. Only the index is
// read: the top-level box headers are walked with byte-range reads, then the `ftyp` and `moov` boxes are fetched
// and parsed. The media data (`mdat`), which is nearly all of the file, is never read, wherever the index sits.
import { once } from "../../lib/once.ts";

// mp4box loads with the first video probed, not at start-up (about 10 ms and 4 MiB).
const loadMp4box = once(async () => {
  const mp4box = await import("mp4box");
  // mp4box logs boxes it does not know (vendor metadata) as warnings; only its errors matter here.
  mp4box.Log.setLogLevel(mp4box.Log.error);
  return mp4box;
});

export interface VideoFacts {
  duration_ms: number;
  frame_rate: number | null;
  video_codec: string | null;
  audio_codec: string | null;
  width: number | null;
  height: number | null;
}

/** Reads bytes [start, end] inclusive of the stored file. */
export type RangeReader = (start: number, end: number) => Promise<Uint8Array>;

const MAX_INDEX_BYTES = 64 * 1024 * 1024;

/**
 * The most samples (video frames and audio packets, all tracks) an index may describe: about 2.7 hours at 60 frames
 * a second with AAC audio, past what any network takes. mp4box builds an object per sample, so this bounds its
 * memory and the time it holds the event loop (an index claiming 15 million samples cost 3.3 GiB and 2.9 s).
 */
export const MAX_INDEX_SAMPLES = 1_000_000;

/** An index whose sample tables claim more than MAX_INDEX_SAMPLES: refused before mp4box parses it. */
export class IndexTooLarge extends Error {
  constructor(readonly samples: number) {
    super(`the index describes ${samples} samples, more than ${MAX_INDEX_SAMPLES}`);
  }
}

export async function probeVideo(read: RangeReader, size: number): Promise<VideoFacts | null> {
  const wanted: { offset: number; bytes: Uint8Array }[] = [];
  let offset = 0;
  let sawMoov = false;
  for (let boxes = 0; offset + 8 <= size && boxes < 64; boxes++) {
    const head = await read(offset, Math.min(offset + 15, size - 1));
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    let length = view.getUint32(0);
    const type = String.fromCharCode(head[4]!, head[5]!, head[6]!, head[7]!);
    if (length === 1) {
      if (head.byteLength < 16) return null;
      length = Number(view.getBigUint64(8));
    } else if (length === 0) length = size - offset;
    if (length < 8 || offset + length > size) return null;
    if (type === "ftyp" || type === "moov") {
      if (length > MAX_INDEX_BYTES) return null;
      wanted.push({ offset, bytes: await read(offset, offset + length - 1) });
      if (type === "moov") sawMoov = true;
    }
    if (sawMoov && wanted.some((w) => w.offset === 0)) break;
    offset += length;
  }
  if (!sawMoov) return null;
  // The sample counts from the box headers first: a few numbers read, nothing built.
  for (const w of wanted) {
    const samples = indexSamples(w.bytes);
    if (samples > MAX_INDEX_SAMPLES) throw new IndexTooLarge(samples);
  }

  const { createFile, MP4BoxBuffer } = await loadMp4box();
  const file = createFile();
  let info: ReturnType<typeof movieOf> | null = null;
  file.onReady = (movie) => {
    info = movieOf(movie);
  };
  file.onError = () => {};
  // The boxes are parsed as one contiguous file (ftyp, then moov): only the track descriptions are read, not the
  // chunk offsets, which is all a moov moved in front of the media data would change.
  const joined = new Uint8Array(wanted.reduce((n, w) => n + w.bytes.byteLength, 0));
  let at = 0;
  for (const w of wanted.sort((x, y) => x.offset - y.offset)) {
    joined.set(w.bytes, at);
    at += w.bytes.byteLength;
  }
  file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(joined.buffer, 0));
  file.flush();
  return info;
}

// biome-ignore lint/suspicious/noExplicitAny: mp4box's Movie type is loose about track details
function movieOf(movie: any): VideoFacts {
  const v = movie.videoTracks?.[0];
  const a = movie.audioTracks?.[0];
  const durationMs = movie.timescale ? Math.round((movie.duration / movie.timescale) * 1000) : 0;
  let fps: number | null = null;
  if (v?.nb_samples && v.duration && v.timescale) {
    fps = Math.round((v.nb_samples / (v.duration / v.timescale)) * 100) / 100;
  }
  return {
    duration_ms: durationMs,
    frame_rate: fps,
    video_codec: v?.codec ?? null,
    audio_codec: a?.codec ?? null,
    width: v?.video?.width ?? v?.track_width ?? null,
    height: v?.video?.height ?? v?.track_height ?? null,
  };
}

// Boxes that only hold other boxes, on the way from `moov` to each track's sample table.
const CONTAINERS = new Set(["moov", "trak", "mdia", "minf", "stbl", "edts", "mvex"]);

/**
 * The samples the sample tables in `bytes` (whole top-level boxes) describe, summed over tracks: for each track the
 * largest of its sample-size count (`stsz`/`stz2`) and its time-to-sample total (`stts`), either of which mp4box
 * expands into one entry per sample. Box headers are walked without parsing anything else.
 */
export function indexSamples(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  const walk = (start: number, end: number, depth: number): number => {
    let most = 0;
    for (let at = start; at + 8 <= end; ) {
      let length = view.getUint32(at);
      const type = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!, bytes[at + 6]!, bytes[at + 7]!);
      let header = 8;
      if (length === 1) {
        if (at + 16 > end) break;
        length = Number(view.getBigUint64(at + 8));
        header = 16;
      } else if (length === 0) length = end - at;
      if (length < header || at + length > end) break;
      const body = at + header;
      if ((type === "stsz" || type === "stz2") && body + 12 <= at + length) {
        // Full box: version and flags, then (stsz) sample_size or (stz2) reserved and field_size, then sample_count.
        most = Math.max(most, view.getUint32(body + 8));
      } else if (type === "stts" && body + 8 <= at + length) {
        const entries = view.getUint32(body + 4);
        let sum = 0;
        for (let i = 0, e = body + 8; i < entries && e + 8 <= at + length; i++, e += 8)
          sum += view.getUint32(e);
        most = Math.max(most, sum);
      } else if (CONTAINERS.has(type) && depth < 8) {
        const inner = walk(body, at + length, depth + 1);
        // Each track's count adds up; within a track (its boxes below `trak`) the largest claim counts.
        if (type === "trak" || type === "moov") total += type === "trak" ? inner : 0;
        else most = Math.max(most, inner);
      }
      at += length;
    }
    return most;
  };
  walk(0, bytes.byteLength, 0);
  return total;
}
