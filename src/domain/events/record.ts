// Every notable change writes an event in the same transaction as the change (interface.md Events).
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { flushPending, type PendingWrites, pendingWrites } from "../../db/raw.ts";
import { type EventRow, insertEvents } from "../../db/sql/insert-events.ts";
import { bindRows, writeTogether } from "../../db/sql/statement.ts";
import { newId } from "../../lib/ids.ts";
import type { Actor } from "../actor.ts";
import { afterEventHooks } from "./hooks.ts";
import type { RecordedEvent } from "./types.ts";

export type { RecordedEvent };

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

export interface NewEvent {
  scope: EventScope;
  type: string;
  object: unknown;
  /** `object` as JSON, when the caller has serialized it already (a create's answer is the same object). */
  json?: string;
  /** What an update changed, as it was before (`post.updated`): carried as `data.previous_attributes`. */
  previous?: Record<string, unknown>;
}

/** The stored data column: `{"object": …}`, reusing the object's JSON when the caller has it. */
const dataText = (e: NewEvent): string =>
  e.previous !== undefined
    ? JSON.stringify({ object: e.object, previous_attributes: e.previous })
    : e.json === undefined
      ? JSON.stringify({ object: e.object })
      : `{"object":${e.json}}`;

/**
 * Writes several events in one statement (a worker's batch of outcomes), then runs the hooks once. On Postgres,
 * `alongside` is a data-modifying statement of the same change run in the same statement (one round trip less).
 */
export async function recordEvents(
  tx: Tx,
  app: App,
  items: NewEvent[],
  alongside?: { text: string; params: unknown[] },
  /** Postgres: hand the writes to the transaction's next statement instead of running them now. */
  pending?: PendingWrites,
): Promise<RecordedEvent[]> {
  const now = app.clock.now();
  const events: RecordedEvent[] = items.map((e) => ({
    id: newId("evt", now),
    org_id: e.scope.orgId,
    livemode: e.scope.livemode,
    type: e.type,
    request_id: e.scope.requestId,
    created_at: now,
    data:
      e.previous === undefined ? { object: e.object } : { object: e.object, previous_attributes: e.previous },
  }));
  // The change's writes and the events' insert go together: on Postgres in one statement, run here or handed on
  // in `pending`; on SQLite one after the other.
  const writes = alongside ? [alongside] : [];
  if (events.length) {
    const rows: EventRow[] = events.map((e, i) => ({
      id: e.id,
      org_id: e.org_id,
      livemode: e.livemode ? 1 : 0,
      type: e.type,
      request_id: e.request_id,
      data: dataText(items[i]!),
      created_at: now,
    }));
    writes.push(bindRows(app.dialect, insertEvents, rows));
  }
  // On Postgres the writes wait for the hooks when there are any: a hook's own statement can carry them (raising
  // notifications does), one round trip less; whatever no hook took runs after them (or goes on in `pending`).
  const own = app.dialect === "postgres" && !pending && events.length ? pendingWrites() : undefined;
  const into = pending ?? own;
  await writeTogether(tx, app.dialect, writes, into);
  if (events.length) for (const hook of afterEventHooks) await hook(tx, app, events, into);
  if (own) await flushPending(tx, app.dialect, own);
  return events;
}

export async function recordEvent(
  tx: Tx,
  app: App,
  scope: EventScope,
  type: string,
  object: unknown,
  /** `object` as JSON, when the caller has it already. */
  json?: string,
): Promise<RecordedEvent> {
  const [event] = await recordEvents(tx, app, [
    json === undefined ? { scope, type, object } : { scope, type, object, json },
  ]);
  return event!;
}
