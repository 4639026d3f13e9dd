// Work that must happen in an event's own transaction (the webhook outbox writes one delivery per subscribed
// endpoint here), registered by the features that need it so events/ does not depend on them.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import type { RecordedEvent } from "./record.ts";

/** Called once per batch of events written together (one event, or a worker's batch of outcomes). */
export type EventHook = (tx: Tx, app: App, events: RecordedEvent[]) => Promise<void>;
export const afterEventHooks: EventHook[] = [];
