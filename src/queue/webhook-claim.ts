// Claiming due webhook deliveries with a lease, one function over both dialects (ARCHITECTURE: the queue is the
// database). SQLite: UPDATE … WHERE id IN (SELECT … LIMIT n) RETURNING * inside the driver's BEGIN IMMEDIATE;
// Postgres: the same with FOR UPDATE SKIP LOCKED, so workers claiming at once take different rows.
import type { App } from "../app/context.ts";
import type { WebhookDeliveriesTable } from "../db/tables/webhooks.ts";

export const DELIVERY_LEASE_MS = 60_000;

export async function claimDeliveries(app: App, limit: number): Promise<WebhookDeliveriesTable[]> {
  if (limit <= 0) return [];
  const now = app.clock.now();
  return app.db.transaction().execute(async (tx) => {
    let due = tx
      .selectFrom("webhook_deliveries as d")
      .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
      .select("d.id")
      .where("d.status", "=", "pending")
      .where("d.next_attempt_at", "<=", now)
      // A disabled endpoint's deliveries wait; enabling it lets them go.
      .where("e.status", "=", "enabled")
      .orderBy("d.next_attempt_at")
      .limit(limit);
    if (app.dialect === "postgres") due = due.forUpdate("d").skipLocked();
    return tx
      .updateTable("webhook_deliveries")
      .set({ status: "delivering", leased_until: now + DELIVERY_LEASE_MS, lease_owner: app.instanceId })
      .where("id", "in", due)
      .where("status", "=", "pending")
      .returningAll()
      .execute();
  });
}
