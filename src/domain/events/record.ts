// Every notable change writes an event in the same transaction as the change (interface.md Events).
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { raw, rowMarks } from "../../db/raw.ts";
import { newId } from "../../lib/ids.ts";
import type { Actor } from "../actor.ts";
import { afterEventHooks } from "./hooks.ts";

export interface EventScope {
  orgId: string;
  livemode: boolean;
  requestId: string | null;
}

export const scopeOf = (actor: Actor): EventScope => ({
  orgId: actor.orgId,
  livemode: actor.livemode,
  requestId: actor.requestId,
});

export interface RecordedEvent {
  id: string;
  org_id: string;
  livemode: boolean;
  type: string;
  request_id: string | null;
  created_at: number;
  data: { object: unknown };
}

export interface NewEvent {
  scope: EventScope;
  type: string;
  object: unknown;
}

/** Writes several events in one statement (a worker's batch of outcomes), then runs the hooks once. */
export async function recordEvents(tx: Tx, app: App, items: NewEvent[]): Promise<RecordedEvent[]> {
  if (items.length === 0) return [];
  const now = app.clock.now();
  const events: RecordedEvent[] = items.map((e) => ({
    id: newId("evt", now),
    org_id: e.scope.orgId,
    livemode: e.scope.livemode,
    type: e.type,
    request_id: e.scope.requestId,
    created_at: now,
    data: { object: e.object },
  }));
  // Plain SQL text: the publish worker writes a batch of these for every batch of outcomes.
  const params: unknown[] = [];
  for (const e of events)
    params.push(e.id, e.org_id, e.livemode ? 1 : 0, e.type, e.request_id, JSON.stringify(e.data), now);
  await raw(
    tx,
    app.dialect,
    `INSERT INTO events (id, org_id, livemode, type, request_id, data, created_at) VALUES ${rowMarks(events.length, 7)}`,
    params,
  );
  for (const hook of afterEventHooks) await hook(tx, app, events);
  return events;
}

export async function recordEvent(
  tx: Tx,
  app: App,
  scope: EventScope,
  type: string,
  object: unknown,
): Promise<RecordedEvent> {
  const [event] = await recordEvents(tx, app, [{ scope, type, object }]);
  return event!;
}
