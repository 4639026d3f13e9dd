// Power-loss durability for the SQLite commits that need it, without paying for it on every commit and without
// stopping the event loop. With synchronous = NORMAL a COMMIT hands its WAL frames to the OS and syncs them only
// at checkpoints, so a power loss or an OS crash (not a crash of the process) can undo what was committed since.
// An fdatasync of the WAL file makes everything committed so far durable, which is what synchronous = FULL does
// inside each COMMIT; here it runs on the thread pool, and callers arriving while one runs share the next one.
// (A checkpoint that copies frames into the database file syncs that file before the WAL is reused, so frames
// already moved there stay durable.)
// node:fs/promises (and the stream modules it brings) loads with the first sync, not with every process that
// opens a database.
import type { FileHandle } from "node:fs/promises";

export interface WalSync {
  /** Resolves once everything this process committed before the call is on disk. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export function walSync(dbPath: string): WalSync {
  let handle: Promise<FileHandle> | null = null;
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;

  async function once(): Promise<void> {
    handle ??= import("node:fs/promises").then(({ open }) => open(`${dbPath}-wal`, "r"));
    try {
      await (await handle).datasync();
    } catch (e) {
      handle = null; // opened again next time (the WAL file may not have existed yet)
      throw e;
    }
  }

  function sync(): Promise<void> {
    if (!running) {
      running = once().finally(() => {
        running = null;
      });
      return running;
    }
    // The sync under way may have started before the caller's commit reached the file: it needs the next one.
    queued ??= running
      .catch(() => {})
      .then(() => {
        queued = null;
        return sync();
      });
    return queued;
  }

  return {
    sync,
    async close() {
      const h = handle;
      handle = null;
      if (h) await (await h.catch(() => null))?.close();
    },
  };
}
