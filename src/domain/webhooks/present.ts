import type { WebhookDeliveriesTable, WebhookEndpointsTable } from "../../db/tables/webhooks.ts";
import { iso, isoOrNull } from "../../lib/clock.ts";

/** The public WebhookEndpoint (reference §4); `secret` only on create and roll. */
export const presentEndpoint = (e: WebhookEndpointsTable, secret?: string) => ({
  id: e.id,
  object: "webhook_endpoint" as const,
  url: e.url,
  description: e.description,
  enabled_events: JSON.parse(e.enabled_events) as string[],
  status: e.status,
  disabled_reason: e.disabled_reason,
  livemode: e.livemode === 1,
  ...(secret === undefined ? {} : { secret }),
  created_at: iso(e.created_at),
});
export type WebhookEndpoint = ReturnType<typeof presentEndpoint>;

/** The public WebhookDelivery: the last attempt's outcome and the next attempt's time. */
export const presentDelivery = (d: WebhookDeliveriesTable) => ({
  id: d.id,
  object: "webhook_delivery" as const,
  endpoint: d.endpoint_id,
  event: d.event_id,
  event_type: d.event_type,
  livemode: d.livemode === 1,
  status: d.status,
  attempts: d.attempts,
  response_status: d.response_status,
  response_body: d.response_body,
  error: d.error,
  duration_ms: d.duration_ms,
  last_attempt_at: isoOrNull(d.last_attempt_at),
  next_attempt_at: isoOrNull(d.next_attempt_at),
  created_at: iso(d.created_at),
});
export type WebhookDelivery = ReturnType<typeof presentDelivery>;
