// One delivery attempt: POST the Event JSON, signed, through the guarded client (ARCHITECTURE rule 7), then log
// the attempt and schedule what comes next, in one transaction. Any 2xx succeeds; redirects are not followed
// (a POST turned into a GET, or sent on to another address, is no delivery), so a 3xx counts as a failure.
import type { App } from "../../app/context.ts";
import { columns, marks, raw } from "../../db/raw.ts";
import type { EventsTable } from "../../db/schema.ts";
import {
  WEBHOOK_ENDPOINT_COLUMNS,
  type WebhookDeliveriesTable,
  type WebhookEndpointsTable,
} from "../../db/tables/webhooks.ts";
import { guardedRequest, OutboundError } from "../../net/guarded.ts";
import { signPayload } from "../../net/signature.ts";
import { presentEvent } from "../events/present.ts";
import { webhookAllow } from "./allow.ts";
import { signingSecrets } from "./secrets.ts";

export const DELIVERY_TIMEOUT_MS = 10_000;
export const LOGGED_BODY_BYTES = 1024;
export const USER_AGENT = "svc-webhooks/1";

export interface Outcome {
  startedAt: number;
  status: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
}

export interface DeliveryJob {
  delivery: WebhookDeliveriesTable;
  /** The request body, or null when the event is gone (pruned): the delivery then fails at once. */
  payload: string | null;
  url: string;
  secrets: string[];
}

const decoder = new TextDecoder("utf-8", { fatal: false });
// Invalid UTF-8 becomes U+FFFD; NUL too, since Postgres text cannot hold it.
const logText = (bytes: Uint8Array) => decoder.decode(bytes).replaceAll(String.fromCharCode(0), "\uFFFD");

/** Loads what a batch of claimed deliveries needs: event bodies and endpoint secrets, once each. */
export async function prepareJobs(app: App, rows: WebhookDeliveriesTable[]): Promise<DeliveryJob[]> {
  if (rows.length === 0) return [];
  const now = app.clock.now();
  const eventIds = [...new Set(rows.map((r) => r.event_id))];
  const events = await raw<
    Pick<EventsTable, "id" | "type" | "livemode" | "request_id" | "created_at" | "data">
  >(
    app.db,
    app.dialect,
    `SELECT id, type, livemode, request_id, created_at, data FROM events WHERE id IN (${marks(eventIds.length)})`,
    eventIds,
  );
  const payloads = new Map(events.map((e) => [e.id, JSON.stringify(presentEvent(e))]));
  const endpointIds = [...new Set(rows.map((r) => r.endpoint_id))];
  const endpoints = await raw<WebhookEndpointsTable>(
    app.db,
    app.dialect,
    `SELECT ${columns(WEBHOOK_ENDPOINT_COLUMNS)} FROM webhook_endpoints WHERE id IN (${marks(endpointIds.length)})`,
    endpointIds,
  );
  const byId = new Map<string, { e: WebhookEndpointsTable; secrets: string[] }>();
  for (const e of endpoints) byId.set(e.id, { e, secrets: await signingSecrets(app.db, app, e, now) });
  return rows.map((d) => {
    const ep = byId.get(d.endpoint_id);
    return {
      delivery: d,
      payload: ep ? (payloads.get(d.event_id) ?? null) : null,
      url: ep?.e.url ?? "",
      secrets: ep?.secrets ?? [],
    };
  });
}

/** Sends one attempt; never throws. */
export async function send(app: App, job: DeliveryJob, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<Outcome> {
  const startedAt = app.clock.now();
  const t0 = performance.now();
  const done = (status: number | null, body: string | null, error: string | null): Outcome => ({
    startedAt,
    status,
    body,
    error,
    durationMs: Math.round(performance.now() - t0),
  });
  if (job.payload === null || job.secrets.length === 0) {
    return done(null, null, "the event is no longer stored (kept 30 days); nothing to send");
  }
  try {
    const res = await guardedRequest({
      method: "POST",
      url: job.url,
      headers: {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        "svc-signature": signPayload(job.payload, job.secrets, Math.floor(startedAt / 1000)),
        "svc-event-id": job.delivery.event_id,
        "svc-delivery-id": job.delivery.id,
      },
      body: job.payload,
      timeoutMs,
      maxResponseBytes: LOGGED_BODY_BYTES,
      allow: webhookAllow(app),
      followRedirects: false,
    });
    const redirect =
      res.status >= 300 && res.status < 400
        ? `answered ${res.status} (a redirect); webhook deliveries do not follow redirects`
        : null;
    return done(res.status, logText(res.body), redirect);
  } catch (e) {
    if (e instanceof OutboundError) return done(null, null, `${e.kind}: ${e.message}`);
    return done(null, null, `internal: ${String(e)}`);
  }
}
