// Work that must happen in an event's own transaction (the webhook outbox writes one delivery per subscribed
// endpoint here). The composition root (src/boot.ts) registers every hook, so events/ depends on no feature.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import type { PendingWrites } from "../../db/raw.ts";
import type { RecordedEvent } from "./types.ts";

/**
 * Called once per batch of events written together (one event, or a worker's batch of outcomes). On Postgres the
 * events' insert (and the change's writes with it) may still be in `pending`, for the transaction's next statement
 * to run: a hook may run its own statement with them (one round trip less, as the notifications hook does), and
 * a hook that reads the events' rows back must flush them first (flushPending). On SQLite they are written.
 */
export type EventHook = (tx: Tx, app: App, events: RecordedEvent[], pending?: PendingWrites) => Promise<void>;
export const afterEventHooks: EventHook[] = [];

/** Adds a hook once (registering twice is harmless). */
export function onEvents(hook: EventHook): void {
  if (!afterEventHooks.includes(hook)) afterEventHooks.push(hook);
}
