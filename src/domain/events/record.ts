// Every notable change writes an event in the same transaction as the change (interface.md Events).
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
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

export async function recordEvent(
  tx: Tx,
  app: App,
  scope: EventScope,
  type: string,
  object: unknown,
): Promise<RecordedEvent> {
  const now = app.clock.now();
  const event: RecordedEvent = {
    id: newId("evt", now),
    org_id: scope.orgId,
    livemode: scope.livemode,
    type,
    request_id: scope.requestId,
    created_at: now,
    data: { object },
  };
  await tx
    .insertInto("events")
    .values({
      id: event.id,
      org_id: event.org_id,
      livemode: event.livemode ? 1 : 0,
      type,
      request_id: event.request_id,
      data: JSON.stringify(event.data),
      created_at: now,
    })
    .execute();
  for (const hook of afterEventHooks) await hook(tx, app, event);
  return event;
}
