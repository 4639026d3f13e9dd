// The outbox: in the event's own transaction, one delivery row per enabled endpoint of the event's org and mode
// that subscribes to its type. Registered at import; src/queue/registry.ts and the webhook routes import this
// module, so every process that writes events (server, worker, admin commands) writes the deliveries too.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { raw } from "../../db/raw.ts";
import type { WebhookDeliveriesTable } from "../../db/tables/webhooks.ts";
import { newId } from "../../lib/ids.ts";
import type { EventHook } from "../events/hooks.ts";
import { nudge } from "../events/nudge.ts";
import type { RecordedEvent } from "../events/types.ts";
import { type EndpointRow, endpointScope, takeKnownEndpoints } from "./known-endpoints.ts";

export const subscribes = (enabledEvents: string, type: string): boolean => {
  const list = JSON.parse(enabledEvents) as string[];
  return list.includes("*") || list.includes(type);
};

export const enqueueDeliveries: EventHook = async (tx: Tx, app: App, events: RecordedEvent[]) => {
  // One endpoint lookup per org and mode in the batch (a worker's batch is usually one org), none for those a
  // statement of this transaction read already (known-endpoints.ts).
  const endpointsOf = takeKnownEndpoints(tx) ?? new Map<string, EndpointRow[]>();
  const rows: WebhookDeliveriesTable[] = [];
  for (const event of events) {
    const scope = endpointScope(event.org_id, event.livemode);
    let endpoints = endpointsOf.get(scope);
    if (!endpoints) {
      endpoints = await raw<EndpointRow>(
        tx,
        app.dialect,
        "SELECT id, enabled_events FROM webhook_endpoints WHERE org_id = ? AND livemode = ? AND status = 'enabled'",
        [event.org_id, event.livemode ? 1 : 0],
      );
      endpointsOf.set(scope, endpoints);
    }
    for (const e of endpoints) {
      if (!subscribes(e.enabled_events, event.type)) continue;
      rows.push({
        id: newId("whdel", event.created_at),
        org_id: event.org_id,
        livemode: event.livemode ? 1 : 0,
        endpoint_id: e.id,
        event_id: event.id,
        event_type: event.type,
        status: "pending",
        attempts: 0,
        next_attempt_at: event.created_at,
        leased_until: null,
        lease_owner: null,
        response_status: null,
        response_body: null,
        error: null,
        duration_ms: null,
        last_attempt_at: null,
        created_at: event.created_at,
      });
    }
  }
  if (rows.length === 0) return;
  await tx.insertInto("webhook_deliveries").values(rows).execute();
  nudge(app, "webhooks");
};
