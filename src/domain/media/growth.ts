// Keeps a long upload's memory bounded. Every 64 KiB chunk of a request body is a fresh buffer, and Bun's collector
// is lazy about memory held outside its heap: a 1 GiB upload grew the process by over 80 MiB though nothing of it
// was kept. A full collection (30-40 ms with the whole app loaded) is run when the process has grown by
// GROWTH_BYTES since the last one, so a 1 GiB upload sees about a dozen of them. Collecting after every part also
// bounds memory, but costs a third of the throughput; younger-generation collections alone free nothing here.

const GROWTH_BYTES = 40 * 1024 * 1024;
/** How often the process's size is looked at, in bytes received (reading it costs about 0.15 ms). */
const CHECK_BYTES = 4 * 1024 * 1024;

export class GrowthCollector {
  private base = process.memoryUsage.rss();
  private since = 0;

  /** Called with each chunk's size as it is passed on. */
  received(bytes: number): void {
    this.since += bytes;
    if (this.since < CHECK_BYTES) return;
    this.since = 0;
    if (process.memoryUsage.rss() - this.base < GROWTH_BYTES) return;
    Bun.gc(true);
    // Measured again after, not reset to the start: memory the allocator keeps is not garbage to chase.
    this.base = process.memoryUsage.rss();
  }
}
