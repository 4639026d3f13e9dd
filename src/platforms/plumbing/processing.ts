// Waiting while a network processes an uploaded video (X's media STATUS, YouTube's processing details, TikTok's
// publish status): ask, wait what the network suggests, ask again, until it says done or failed, the wait's
// limit passes, or the publish is stopped. The worker gives a video publish 20 minutes and renews its lease
// meanwhile (reference §6), and a video publish holds no slot, so other posts keep going out while this waits.
/** The longest a network's processing is waited for within one attempt (the worker's video deadline). */
export const PROCESSING_LIMIT_MS = 20 * 60_000;

/** What one look at the network's processing found. */
export type ProcessingState<T> =
  | { state: "done"; value: T }
  | { state: "failed"; reason: string }
  /** Still processing: ask again after `afterMs` (the network's hint, else the caller's default). */
  | { state: "pending"; afterMs?: number }
  /** The look itself failed in a way that ends the wait (a refusal, an expired token): the caller's outcome. */
  | { state: "stop"; outcome: unknown };

export type ProcessingResult<T> =
  | { state: "done"; value: T }
  | { state: "failed"; reason: string }
  | { state: "stop"; outcome: unknown }
  /** The limit passed, or the publish was stopped, while the network was still processing. */
  | { state: "timed_out" };

export interface ProcessingWait<T> {
  /** Asks the network once. */
  look(): Promise<ProcessingState<T>>;
  /** The publish's signal: the wait ends when it aborts. */
  signal: AbortSignal;
  /** Default PROCESSING_LIMIT_MS; a network may give up sooner. */
  limitMs?: number;
  /** Between looks when the network gives no hint (default 5 s). */
  everyMs?: number;
  /** The first look is made at once unless this is set (a network that says when to look first). */
  firstAfterMs?: number;
}

/** Asks until the network has processed the video (or failed it), within the limit. */
export async function waitForProcessing<T>(w: ProcessingWait<T>): Promise<ProcessingResult<T>> {
  const until = Date.now() + (w.limitMs ?? PROCESSING_LIMIT_MS);
  let wait = w.firstAfterMs ?? 0;
  for (;;) {
    if (wait > 0) {
      if (Date.now() + wait > until || w.signal.aborted) return { state: "timed_out" };
      await sleep(wait, w.signal);
      if (w.signal.aborted) return { state: "timed_out" };
    }
    const s = await w.look();
    if (s.state !== "pending") return s;
    wait = Math.max(1, s.afterMs ?? w.everyMs ?? 5000);
  }
}

/** Sleeps `ms`, or less when the signal aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
