// Claiming due webhook deliveries with a lease, one function over both dialects (ARCHITECTURE: the queue is the
// database). SQLite: UPDATE … WHERE id IN (SELECT … LIMIT n) RETURNING * inside the driver's BEGIN IMMEDIATE.
// Postgres: FOR UPDATE SKIP LOCKED in a materialized CTE. Inside `IN (…)` the planner may run the subquery more
// than once, and with SKIP LOCKED each run can pick other rows, so one claim could take more than n.
import { sql } from "kysely";
import type { App } from "../app/context.ts";
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
        ORDER BY d.next_attempt_at
        LIMIT ${limit}
        FOR UPDATE OF d SKIP LOCKED)
      UPDATE webhook_deliveries w
      SET status = 'delivering', leased_until = ${until}, lease_owner = ${app.instanceId}
      FROM due WHERE w.id = due.id
      RETURNING w.*`.execute(app.db);
    return r.rows;
  }
  return app.db.transaction().execute((tx) =>
    tx
      .updateTable("webhook_deliveries")
      .set({ status: "delivering", leased_until: until, lease_owner: app.instanceId })
      .where(
        "id",
        "in",
        tx
          .selectFrom("webhook_deliveries as d")
          .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
          .select("d.id")
          .where("d.status", "=", "pending")
          .where("d.next_attempt_at", "<=", now)
          // A disabled endpoint's deliveries wait; enabling it lets them go.
          .where("e.status", "=", "enabled")
          .orderBy("d.next_attempt_at")
          .limit(limit),
      )
      .returningAll()
      .execute(),
  );
}
