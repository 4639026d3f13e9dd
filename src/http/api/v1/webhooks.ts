// Registers the outbox hook in every process that serves the API.

import { EVENT_TYPES } from "../../../domain/events/types.ts";
import { EndpointCreate, EndpointUpdate, SecretRoll } from "../../../domain/webhooks/schema.ts";
import { once } from "../../../lib/once.ts";
import { nint, nstr, ntime, obj, str, time } from "../../openapi-schemas.ts";
import { type RouteDef, reply } from "../../route.ts";

// Loaded on the first request that needs it, not at start (docs/performance.md, "Start and idle memory").
const loadWebhooks = once(() => import("../../../domain/webhooks/service.ts"));

const tag = "Webhooks";

export const webhookRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/webhook_endpoints",
    tag,
    summary: "List webhook endpoints in the caller's mode",
    scope: "webhooks:read",
    list: true,
    response: "WebhookEndpointList",
    handler: async ({ app, actor, query }) => (await loadWebhooks()).listEndpoints(app, actor, query),
  },
  {
    method: "POST",
    secretOnce: true,
    path: "/v1/webhook_endpoints",
    tag,
    summary: "Create a webhook endpoint (its whsec_ secret is shown once)",
    scope: "webhooks:write",
    body: EndpointCreate,
    response: "WebhookEndpoint",
    status: 201,
    handler: async ({ app, actor, body }) =>
      reply(201, await (await loadWebhooks()).createEndpoint(app, actor, body)),
  },
  {
    method: "GET",
    path: "/v1/webhook_endpoints/:id",
    tag,
    summary: "Get a webhook endpoint",
    scope: "webhooks:read",
    response: "WebhookEndpoint",
    handler: async ({ app, actor, params }) => (await loadWebhooks()).getEndpoint(app, actor, params.id!),
  },
  {
    method: "POST",
    secretOnce: false,
    path: "/v1/webhook_endpoints/:id",
    tag,
    summary: "Update a webhook endpoint; disabled: true or false disables or enables it",
    scope: "webhooks:write",
    body: EndpointUpdate,
    response: "WebhookEndpoint",
    handler: async ({ app, actor, params, body }) =>
      (await loadWebhooks()).updateEndpoint(app, actor, params.id!, body),
  },
  {
    method: "DELETE",
    path: "/v1/webhook_endpoints/:id",
    tag,
    summary: "Delete a webhook endpoint and its deliveries",
    scope: "webhooks:write",
    response: "Deleted",
    handler: async ({ app, actor, params }) => (await loadWebhooks()).deleteEndpoint(app, actor, params.id!),
  },
  {
    method: "POST",
    secretOnce: true,
    path: "/v1/webhook_endpoints/:id/roll_secret",
    tag,
    summary: "New secret (shown once); the old one also signs for overlap_hours (default 24, at most 168)",
    scope: "webhooks:write",
    body: SecretRoll,
    response: "WebhookEndpoint",
    handler: async ({ app, actor, params, body }) =>
      (await loadWebhooks()).rollEndpointSecret(app, actor, params.id!, body),
  },
  {
    method: "GET",
    path: "/v1/webhook_endpoints/:id/deliveries",
    tag,
    summary: "An endpoint's deliveries, newest first",
    scope: "webhooks:read",
    list: true,
    response: "WebhookDeliveryList",
    handler: async ({ app, actor, params, query }) =>
      (await loadWebhooks()).listDeliveries(app, actor, params.id!, query),
  },
  {
    method: "POST",
    path: "/v1/webhook_deliveries/:id/resend",
    tag,
    summary: "Attempt a delivery again now",
    scope: "webhooks:write",
    response: "WebhookDelivery",
    status: 202,
    handler: async ({ app, actor, params }) =>
      reply(202, await (await loadWebhooks()).resendDelivery(app, actor, params.id!)),
  },
];

const endpointFields = {
  id: str,
  object: { const: "webhook_endpoint" },
  url: str,
  description: str,
  enabled_events: { type: "array", items: { enum: ["*", ...EVENT_TYPES] } },
  status: { enum: ["enabled", "disabled"] },
  disabled_reason: { enum: [null, "requested", "failing"] },
  livemode: { type: "boolean" },
  secret: { type: "string", pattern: "^whsec_" },
  created_at: time,
};

export const webhookSchemas: Record<string, unknown> = {
  WebhookEndpoint: obj(
    endpointFields,
    Object.keys(endpointFields).filter((k) => k !== "secret"),
  ),
  WebhookDelivery: obj({
    id: str,
    object: { const: "webhook_delivery" },
    endpoint: str,
    event: str,
    event_type: str,
    livemode: { type: "boolean" },
    status: { enum: ["pending", "delivering", "succeeded", "failed"] },
    attempts: { type: "integer" },
    response_status: nint,
    response_body: nstr,
    error: nstr,
    duration_ms: nint,
    last_attempt_at: ntime,
    next_attempt_at: ntime,
    created_at: time,
  }),
};
