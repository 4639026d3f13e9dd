// Webhook endpoints, the delivery outbox and its attempt log (migrations/0004_webhooks.ts).
import type { Bool } from "./bool.ts";

export interface WebhookEndpointsTable {
  id: string;
  org_id: string;
  livemode: Bool;
  url: string;
  description: string;
  /** JSON array of event types, or ["*"]. */
  enabled_events: string;
  status: "enabled" | "disabled";
  /** "requested" (through the API) or "failing" (every delivery failed for 72 h). */
  disabled_reason: string | null;
  /** Sealed with the org's data key, bound to this table, row and column. */
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
  /** Start of the current run of failed attempts; null after a success. */
  failing_since: number | null;
  created_at: number;
  updated_at: number;
}

export type DeliveryStatus = "pending" | "delivering" | "succeeded" | "failed";

export interface WebhookDeliveriesTable {
  id: string;
  org_id: string;
  livemode: Bool;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number | null;
  leased_until: number | null;
  lease_owner: string | null;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number | null;
  last_attempt_at: number | null;
  created_at: number;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  org_id: string;
  attempt: number;
  started_at: number;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
}

export interface WebhookTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

/** Column list for plain SQL text (see POST_COLUMNS). */
export const WEBHOOK_ENDPOINT_COLUMNS = [
  "id",
  "org_id",
  "livemode",
  "url",
  "description",
  "enabled_events",
  "status",
  "disabled_reason",
  "secret",
  "previous_secret",
  "previous_secret_until",
  "failing_since",
  "created_at",
  "updated_at",
] as const satisfies readonly (keyof WebhookEndpointsTable)[];
