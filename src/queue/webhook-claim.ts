// Claiming due webhook deliveries with a lease, one function over both dialects (ARCHITECTURE: the queue is the
// database). A suspended org's deliveries wait (nothing is sent for it) and go out once it is active again. SQLite: UPDATE … WHERE id IN (SELECT … LIMIT n) RETURNING * inside the driver's BEGIN IMMEDIATE.
// Postgres: FOR UPDATE SKIP LOCKED in a materialized CTE. Inside `IN (…)` the planner may run the subquery more
// than once, and with SKIP LOCKED each run can pick other rows, so one claim could take more than n.
import { sql } from "kysely";
import type { App } from "../app/context.ts";
import { raw } from "../db/raw.ts";
import type { WebhookDeliveriesTable } from "../db/tables/webhooks.ts";

export const DELIVERY_LEASE_MS = 60_000;

export async function claimDeliveries(app: App, limit: number): Promise<WebhookDeliveriesTable[]> {
  if (limit <= 0) return [];
  const now = app.clock.now();
  const until = now + DELIVERY_LEASE_MS;
  if (app.dialect === "postgres") {
    const r = await sql<WebhookDeliveriesTable>`
      WITH due AS MATERIALIZED (
        SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.status = 'pending' AND d.next_attempt_at <= ${now} AND e.status = 'enabled'
          AND e.org_id NOT IN (SELECT id FROM orgs WHERE status = 'suspended')
        ORDER BY d.next_attempt_at
        LIMIT ${limit}
        FOR UPDATE OF d SKIP LOCKED)
      UPDATE webhook_deliveries w
      SET status = 'delivering', leased_until = ${until}, lease_owner = ${app.instanceId}
      FROM due WHERE w.id = due.id
      RETURNING w.*`.execute(app.db);
    return r.rows;
  }
  // Plain SQL text on the hot path (no query-builder trees per claim).
  return app.db.transaction().execute((tx) =>
    raw<WebhookDeliveriesTable>(
      tx,
      app.dialect,
      `UPDATE webhook_deliveries SET status = 'delivering', leased_until = ?, lease_owner = ?
        WHERE id IN (SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
          WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND e.status = 'enabled'
            AND e.org_id NOT IN (SELECT id FROM orgs WHERE status = 'suspended')
          ORDER BY d.next_attempt_at LIMIT ?)
        RETURNING *`,
      [until, app.instanceId, now, limit],
    ),
  );
}
