// A video cut into TikTok's chunks (developers.tiktok.com/doc/content-posting-api-media-transfer-guide): 10 MiB
// each, the count the size divided by it rounded down, the last chunk taking the trailing bytes (so it is under
// 20 MiB, within TikTok's 128 MB for a last chunk); a video of 10 MiB or less goes as one chunk of its own size.
// Each chunk is a stream over the one read from the bucket: at most one read buffer is held, never a chunk.
export const CHUNK_BYTES = 10 * 1024 * 1024;

export interface ChunkPlan {
  chunkSize: number;
  count: number;
  /** [first, last] byte of each chunk, inclusive. */
  ranges: [number, number][];
}

export function planChunks(size: number): ChunkPlan {
  if (size <= CHUNK_BYTES) return { chunkSize: size, count: 1, ranges: [[0, size - 1]] };
  const count = Math.floor(size / CHUNK_BYTES);
  const ranges: [number, number][] = [];
  for (let i = 0; i < count; i++)
    ranges.push([i * CHUNK_BYTES, i === count - 1 ? size - 1 : (i + 1) * CHUNK_BYTES - 1]);
  return { chunkSize: CHUNK_BYTES, count, ranges };
}

/**
 * Reads a stream in consecutive slices: `next(n)` is a stream of the next n bytes. A slice must be read to its
 * end (or the reader abandoned) before the next is asked for.
 */
export function slicer(source: ReadableStream<Uint8Array>) {
  const reader = source.getReader();
  let left: Uint8Array | null = null;
  return {
    next(n: number): ReadableStream<Uint8Array> {
      let want = n;
      return new ReadableStream<Uint8Array>({
        async pull(c) {
          if (want === 0) return c.close();
          let chunk = left;
          left = null;
          if (!chunk) {
            const r = await reader.read();
            if (r.done) return c.error(new Error(`the video ended ${want} bytes early`));
            chunk = r.value;
          }
          if (chunk.byteLength > want) {
            left = chunk.subarray(want);
            chunk = chunk.subarray(0, want);
          }
          want -= chunk.byteLength;
          c.enqueue(chunk);
          if (want === 0) c.close();
        },
      });
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}
