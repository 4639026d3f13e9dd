// Wakes in-process readers (the SSE stream, the delivery worker) soon after an event is written. A hook runs
// inside the event's transaction, so the wake is deferred a moment: on SQLite any read waits for the commit
// anyway; on Postgres a wake that comes too early finds nothing and the reader's next poll (within 1 s) does.
import type { App } from "../../app/context.ts";

const pending = new WeakMap<App, Set<string>>();

export function nudge(app: App, signal: string, delayMs = 5): void {
  let set = pending.get(app);
  if (!set) {
    set = new Set();
    pending.set(app, set);
  }
  if (set.has(signal)) return;
  set.add(signal);
  setTimeout(() => {
    set.delete(signal);
    app.signals.emit(signal);
  }, delayMs);
}
