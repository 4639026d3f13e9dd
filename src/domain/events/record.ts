// Every notable change writes an event in the same transaction as the change (interface.md Events).
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { flushPending, type PendingWrites, pendingWrites, raw, rowMarks } from "../../db/raw.ts";
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
}

/** The stored data column: `{"object": …}`, reusing the object's JSON when the caller has it. */
const dataText = (e: NewEvent): string =>
  e.json === undefined ? JSON.stringify({ object: e.object }) : `{"object":${e.json}}`;

/** The Postgres insert: arrays rather than rows, so one prepared text serves any number of events. */
const INSERT_PG = `INSERT INTO events (id, org_id, livemode, type, request_id, data, created_at)
  SELECT * FROM unnest(?::text[], ?::text[], ?::int[], ?::text[], ?::text[], ?::text[], ?::bigint[])`;

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
    data: { object: e.object },
  }));
  // Plain SQL text: the publish worker writes a batch of these for every batch of outcomes.
  if (app.dialect === "postgres") {
    // The writes go in one statement: handed on in `pending`, or run here as one.
    const writes = pending ?? pendingWrites();
    if (alongside) {
      writes.texts.push(alongside.text);
      writes.params.push(...alongside.params);
    }
    if (events.length) {
      const cols: unknown[][] = [[], [], [], [], [], [], []];
      for (let i = 0; i < events.length; i++) {
        const e = events[i]!;
        cols[0]!.push(e.id);
        cols[1]!.push(e.org_id);
        cols[2]!.push(e.livemode ? 1 : 0);
        cols[3]!.push(e.type);
        cols[4]!.push(e.request_id);
        cols[5]!.push(dataText(items[i]!));
        cols[6]!.push(now);
      }
      writes.texts.push(INSERT_PG);
      writes.params.push(...cols);
    }
    if (!pending) await flushPending(tx, app.dialect, writes);
  } else {
    if (alongside) await raw(tx, app.dialect, alongside.text, alongside.params);
    if (events.length) {
      const params: unknown[] = [];
      for (let i = 0; i < events.length; i++) {
        const e = events[i]!;
        params.push(e.id, e.org_id, e.livemode ? 1 : 0, e.type, e.request_id, dataText(items[i]!), now);
      }
      await raw(
        tx,
        app.dialect,
        `INSERT INTO events (id, org_id, livemode, type, request_id, data, created_at) VALUES ${rowMarks(events.length, 7)}`,
        params,
      );
    }
  }
  if (events.length) for (const hook of afterEventHooks) await hook(tx, app, events);
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
