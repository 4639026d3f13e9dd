// Keeps a long upload's memory bounded (a video into the bucket, or from it to a network). Every 64 KiB chunk of a request body is a fresh buffer, and Bun's collector
// is lazy about memory held outside its heap: a 1 GiB upload grew the process by over 80 MiB though nothing of it
// was kept. A full collection (30-40 ms with the whole app loaded) is run when the process has grown by
// STEP_BYTES since the last one, or sooner once it is CAP_BYTES above where the upload began, so a 1 GiB upload
// sees a dozen or two. Collecting after every part also bounds memory, but costs a third of the throughput;
// younger-generation collections alone free nothing here.

const STEP_BYTES = 32 * 1024 * 1024;
const CAP_BYTES = 48 * 1024 * 1024;
/** Above the cap, still this much growth between collections: memory the allocator keeps is not chased. */
const MIN_STEP_BYTES = 8 * 1024 * 1024;
/** How often the process's size is looked at, in bytes received (reading it costs about 0.15 ms). */
const CHECK_BYTES = 2 * 1024 * 1024;

export class GrowthCollector {
  private readonly start = process.memoryUsage.rss();
  private base = this.start;
  private since = 0;
  /** Growth between collections, and the growth above the start past which they come sooner. */
  constructor(
    private readonly step = STEP_BYTES,
    private readonly cap = CAP_BYTES,
  ) {}

  /** Called with each chunk's size as it is passed on. */
  received(bytes: number): void {
    this.since += bytes;
    if (this.since < CHECK_BYTES) return;
    this.since = 0;
    const rss = process.memoryUsage.rss();
    const grown = rss - this.base;
    if (grown < this.step && (rss - this.start < this.cap || grown < MIN_STEP_BYTES)) return;
    Bun.gc(true);
    this.base = process.memoryUsage.rss();
  }
}
