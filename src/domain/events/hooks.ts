// Work that must happen in an event's own transaction (the webhook outbox writes one delivery per subscribed
// endpoint here). The composition root (src/boot.ts) registers every hook, so events/ depends on no feature.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import type { RecordedEvent } from "./types.ts";

/** Called once per batch of events written together (one event, or a worker's batch of outcomes). */
export type EventHook = (tx: Tx, app: App, events: RecordedEvent[]) => Promise<void>;
export const afterEventHooks: EventHook[] = [];

/** Adds a hook once (registering twice is harmless). */
export function onEvents(hook: EventHook): void {
  if (!afterEventHooks.includes(hook)) afterEventHooks.push(hook);
}
