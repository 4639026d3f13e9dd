// A stream whose small chunks (the bucket's, tens of KiB each) are joined into pieces of about `bytes` before
// they are written to a network: each write to the socket costs a wait for it to drain, so fewer, larger writes
// move a video faster. At most one piece is held; each piece is a fresh buffer, and Bun's collector is lazy about
// memory outside its heap, so the process's growth is watched and collected as an upload into the bucket is
// (lib/growth.ts).
import { GrowthCollector } from "../../lib/growth.ts";

export function coalesce(source: ReadableStream<Uint8Array>, bytes: number): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  // Sending holds less than receiving into the bucket does (no part buffers): collections can wait longer.
  const growth = new GrowthCollector(40 * 1024 * 1024, 52 * 1024 * 1024);
  let held: Uint8Array[] = [];
  let length = 0;
  const take = () => {
    growth.received(length);
    const out = new Uint8Array(length);
    let at = 0;
    for (const b of held) {
      out.set(b, at);
      at += b.byteLength;
    }
    held = [];
    length = 0;
    return out;
  };
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          if (length) c.enqueue(take());
          c.close();
          return;
        }
        if (value.byteLength >= bytes && length === 0) {
          growth.received(value.byteLength);
          c.enqueue(value);
          return;
        }
        held.push(value);
        length += value.byteLength;
        if (length >= bytes) {
          c.enqueue(take());
          return;
        }
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
