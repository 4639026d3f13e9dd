// Webhook endpoints: create (secret shown once), list, get, update (also disable and enable), delete, roll the
// secret; list an endpoint's deliveries and resend one. Scoped by org and mode; brand-limited keys are refused.
import type { App } from "../../app/context.ts";
import type { Db, Tx } from "../../db/index.ts";
import type { WebhookEndpointsTable } from "../../db/tables/webhooks.ts";
import { notFound } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { refuseBrandLimited } from "../events/service.ts";
import { listParams, page } from "../pagination.ts";
import { rowInScope } from "../scope.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
// Whoever manages endpoints also writes their deliveries: importing the service registers the outbox hook.
import { presentDelivery, presentEndpoint } from "./present.ts";
import { EndpointCreate, EndpointUpdate, normalizeEvents, SecretRoll } from "./schema.ts";
import { newEndpointSecret, sealSecret } from "./secrets.ts";
import { checkEndpointUrl } from "./url.ts";

function allowed(actor: Actor, scope: "webhooks:read" | "webhooks:write") {
  requireScope(actor, scope);
  refuseBrandLimited(actor, "manage webhook endpoints");
}

async function loadEndpoint(db: Db | Tx, actor: Actor, id: string): Promise<WebhookEndpointsTable> {
  const row = await rowInScope(db, actor, "webhook_endpoints", "whep", id);
  if (!row) throw notFound(`No webhook endpoint ${id}.`, "id");
  return row;
}

export async function createEndpoint(app: App, actor: Actor, input: unknown) {
  allowed(actor, "webhooks:write");
  const b = parse(EndpointCreate, input);
  const url = await checkEndpointUrl(app, actor.livemode, b.url);
  const now = app.clock.now();
  return inTx(app, async (tx) => {
    const id = newId("whep", now);
    const secret = newEndpointSecret();
    const row: WebhookEndpointsTable = {
      id,
      org_id: actor.orgId,
      livemode: actor.livemode ? 1 : 0,
      url,
      description: b.description ?? "",
      enabled_events: JSON.stringify(normalizeEvents(b.enabled_events)),
      status: "enabled",
      disabled_reason: null,
      secret: await sealSecret(tx, app, actor.orgId, id, "secret", secret),
      previous_secret: null,
      previous_secret_until: null,
      failing_since: null,
      created_at: now,
      updated_at: now,
    };
    await tx.insertInto("webhook_endpoints").values(row).execute();
    await audit(tx, app, actor, {
      action: "webhook_endpoint.create",
      target: id,
      detail: { url, enabled_events: JSON.parse(row.enabled_events) },
    });
    return presentEndpoint(row, secret);
  });
}

export async function listEndpoints(app: App, actor: Actor, query: Record<string, unknown>) {
  allowed(actor, "webhooks:read");
  const q = app.db
    .selectFrom("webhook_endpoints")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0);
  return page(q, listParams(query, "whep"), "/v1/webhook_endpoints", (r) => presentEndpoint(r));
}

export async function getEndpoint(app: App, actor: Actor, id: string) {
  allowed(actor, "webhooks:read");
  return presentEndpoint(await loadEndpoint(app.db, actor, id));
}

export async function updateEndpoint(app: App, actor: Actor, id: string, input: unknown) {
  allowed(actor, "webhooks:write");
  const b = parse(EndpointUpdate, input);
  const url = b.url === undefined ? undefined : await checkEndpointUrl(app, actor.livemode, b.url);
  const now = app.clock.now();
  return inTx(app, async (tx) => {
    const cur = await loadEndpoint(tx, actor, id);
    const set: Partial<WebhookEndpointsTable> = { updated_at: now };
    if (url !== undefined) set.url = url;
    if (b.description !== undefined) set.description = b.description;
    if (b.enabled_events !== undefined)
      set.enabled_events = JSON.stringify(normalizeEvents(b.enabled_events));
    if (b.disabled === true && cur.status === "enabled") {
      set.status = "disabled";
      set.disabled_reason = "requested";
    } else if (b.disabled === false && cur.status === "disabled") {
      // Enabling starts a fresh failure count, so a re-enabled endpoint gets its full 72 hours again.
      set.status = "enabled";
      set.disabled_reason = null;
      set.failing_since = null;
    }
    await tx.updateTable("webhook_endpoints").set(set).where("id", "=", cur.id).execute();
    await audit(tx, app, actor, {
      action: "webhook_endpoint.update",
      target: cur.id,
      detail: { fields: Object.keys(b), ...(set.status ? { status: set.status } : {}) },
    });
    return presentEndpoint({ ...cur, ...set });
  });
}

export async function deleteEndpoint(app: App, actor: Actor, id: string) {
  allowed(actor, "webhooks:write");
  return inTx(app, async (tx) => {
    const cur = await loadEndpoint(tx, actor, id);
    // Deliveries and their attempts go with it (ON DELETE CASCADE).
    await tx.deleteFrom("webhook_endpoints").where("id", "=", cur.id).execute();
    await audit(tx, app, actor, {
      action: "webhook_endpoint.delete",
      target: cur.id,
      detail: { url: cur.url },
    });
    return { id: cur.id, object: "webhook_endpoint" as const, deleted: true as const };
  });
}

export async function rollEndpointSecret(app: App, actor: Actor, id: string, input: unknown) {
  allowed(actor, "webhooks:write");
  const b = parse(SecretRoll, input);
  const overlapHours = b.overlap_hours ?? 24;
  const now = app.clock.now();
  return inTx(app, async (tx) => {
    const cur = await loadEndpoint(tx, actor, id);
    const secret = newEndpointSecret();
    const oldPlain = await app.keys.open(
      tx,
      cur.org_id,
      { table: "webhook_endpoints", row: cur.id, column: "secret" },
      cur.secret,
    );
    const set: Partial<WebhookEndpointsTable> = {
      secret: await sealSecret(tx, app, cur.org_id, cur.id, "secret", secret),
      previous_secret:
        overlapHours > 0 ? await sealSecret(tx, app, cur.org_id, cur.id, "previous_secret", oldPlain) : null,
      previous_secret_until: overlapHours > 0 ? now + overlapHours * 3600_000 : null,
      updated_at: now,
    };
    await tx.updateTable("webhook_endpoints").set(set).where("id", "=", cur.id).execute();
    await audit(tx, app, actor, {
      action: "webhook_endpoint.roll_secret",
      target: cur.id,
      detail: { overlap_hours: overlapHours },
    });
    return presentEndpoint({ ...cur, ...set }, secret);
  });
}

export async function listDeliveries(app: App, actor: Actor, id: string, query: Record<string, unknown>) {
  allowed(actor, "webhooks:read");
  const ep = await loadEndpoint(app.db, actor, id);
  const q = app.db
    .selectFrom("webhook_deliveries")
    .selectAll()
    .where("endpoint_id", "=", ep.id)
    .where("org_id", "=", actor.orgId);
  return page(q, listParams(query, "whdel"), `/v1/webhook_endpoints/${ep.id}/deliveries`, presentDelivery);
}

/**
 * Schedules one more attempt of a delivery now, whatever its state (one in flight is left alone). A delivery
 * older than 72 hours gets this one attempt and no retries; an endpoint that is disabled holds it until enabled.
 */
export async function resendDelivery(app: App, actor: Actor, id: string) {
  allowed(actor, "webhooks:write");
  const now = app.clock.now();
  const out = await inTx(app, async (tx) => {
    const d = await rowInScope(tx, actor, "webhook_deliveries", "whdel", id);
    if (!d) throw notFound(`No webhook delivery ${id}.`, "id");
    if (d.status === "delivering") return presentDelivery(d);
    await tx
      .updateTable("webhook_deliveries")
      .set({ status: "pending", next_attempt_at: now })
      .where("id", "=", d.id)
      .execute();
    await audit(tx, app, actor, { action: "webhook_delivery.resend", target: d.id });
    return presentDelivery({ ...d, status: "pending", next_attempt_at: now });
  });
  app.signals.emit("webhooks");
  return out;
}
