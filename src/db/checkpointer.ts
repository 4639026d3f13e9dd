// WAL checkpoints on a thread of their own. SQLite copies the write-ahead log back into the database file inside
// whichever COMMIT crosses wal_autocheckpoint (1,000 pages): that commit waits for the copy and its fsyncs (10–15 ms
// on a small server) on the thread that serves requests and publishes, and a queue drain spent a third of its time
// there. A process that commits often starts this thread; it checkpoints PASSIVE (never blocking a writer) as the
// log grows, and the connection's own auto-checkpoint stays as a backstop at a larger size. The thread costs about
// 9 MiB, so it starts only when commits come quickly and stops after a minute without any.
import type { Database } from "bun:sqlite";

// Plain JavaScript, not a module file: it runs from a Blob URL, which also works inside a compiled executable.
const THREAD = `
const { Database } = require("bun:sqlite");
let db = null;
let wait = 50;
let timer = null;
let last = { log: 0, checkpointed: 0 };
function tick() {
  timer = null;
  if (!db) return;
  try {
    const r = db.query("PRAGMA wal_checkpoint(PASSIVE)").get();
    // Reported only when this call copied pages: the counts stay the same while nothing new was written.
    const copied = r.checkpointed > 0 && (r.log !== last.log || r.checkpointed !== last.checkpointed);
    last = r;
    if (copied) postMessage({ log: r.log, checkpointed: r.checkpointed });
    // Check sooner while the log grows fast, less often while it is quiet. Under a steady load the log is never
    // all copied when a write begins, so SQLite cannot start it over and it grows to the backstop; the COMMIT that
    // crosses it copies whatever this thread has not yet, with the event loop stopped. Every 2 ms (not 10) that
    // tail is a fifth as long: POST /v1/posts p99 11-14 ms instead of 18-23, for a little more of this thread's CPU.
    wait = r.log > 2000 ? Math.max(2, wait / 2) : r.log < 500 ? Math.min(1000, wait * 2) : wait;
  } catch (e) {
    postMessage({ error: String(e) });
    wait = 1000;
  }
  timer = setTimeout(tick, wait);
}
self.onmessage = (e) => {
  const m = e.data;
  if (m.open) {
    db = new Database(m.open);
    db.run("PRAGMA busy_timeout = 1000");
    tick();
  } else if (m.stop) {
    if (timer) clearTimeout(timer);
    db?.close();
    db = null;
    postMessage({ stopped: true });
  }
};
`;

/** Commits within this window that make a process count as busy. */
const BUSY_COMMITS = 200;
const WINDOW_MS = 10_000;
const IDLE_STOP_MS = 60_000;
/**
 * The connection's own auto-checkpoint while the thread runs. Under a steady load it is reached anyway (see tick),
 * and each time it stops the event loop for the tail's copy and sync (5–10 ms): 20,000 pages (an 80 MiB log) make
 * that half as often as 10,000 did (POST /v1/posts p99 9.4–14 ms against 11.5–14 ms).
 */
const BACKSTOP_PAGES = 20_000;
const DEFAULT_PAGES = 1000;

// One Blob URL for the process, never revoked: the thread loads it asynchronously after `new Worker` returns, and
// revoking it at once left the thread failing with "Blob URL is missing" (the copy never ran).
let url: string | null = null;
function threadUrl(): string {
  url ??= URL.createObjectURL(new Blob([THREAD], { type: "application/javascript" }));
  return url;
}

export class Checkpointer {
  private worker: Worker | null = null;
  private idleCheck: ReturnType<typeof setInterval> | null = null;
  private commits = 0;
  private windowStart = 0;
  private lastCommit = 0;
  /** Checkpoints the thread made that copied pages, and the last error it met (for tests and diagnosis). */
  checkpoints = 0;
  lastError: string | null = null;

  constructor(
    private readonly path: string,
    private readonly db: Database,
  ) {}

  get running(): boolean {
    return this.worker !== null;
  }

  /** Called after every COMMIT on the connection. */
  committed(): void {
    const now = Date.now();
    this.lastCommit = now;
    if (this.worker) return;
    if (now - this.windowStart > WINDOW_MS) {
      this.windowStart = now;
      this.commits = 0;
    }
    if (++this.commits >= BUSY_COMMITS) this.start();
  }

  private start(): void {
    const worker = new Worker(threadUrl());
    worker.onmessage = (e: MessageEvent) => {
      const m = e.data as { checkpointed?: number; error?: string };
      if (m.error) this.lastError = m.error;
      else if (m.checkpointed) this.checkpoints++;
    };
    // A thread that fails to start (or dies) must not leave the connection on the backstop setting.
    worker.onerror = (e: ErrorEvent) => {
      this.lastError = e.message || String(e);
      if (this.worker === worker) this.stop();
    };
    worker.unref();
    worker.postMessage({ open: this.path });
    this.worker = worker;
    this.db.run(`PRAGMA wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    this.idleCheck = setInterval(() => {
      if (Date.now() - this.lastCommit > IDLE_STOP_MS) this.stop();
    }, IDLE_STOP_MS / 4);
    (this.idleCheck as { unref?: () => void }).unref?.();
  }

  /** Stops the thread (idle, or the database closing); the connection checkpoints for itself again. */
  stop(): void {
    if (!this.worker) return;
    if (this.idleCheck) clearInterval(this.idleCheck);
    this.idleCheck = null;
    this.worker.postMessage({ stop: true });
    const w = this.worker;
    setTimeout(() => w.terminate(), 100).unref?.();
    this.worker = null;
    this.commits = 0;
    try {
      this.db.run(`PRAGMA wal_autocheckpoint = ${DEFAULT_PAGES}`);
    } catch {
      // The connection is already closed.
    }
  }
}
