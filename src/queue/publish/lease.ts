// The publish worker's leases: a target being published and its channel's lock are held until `leased_until`,
// renewed together while the publish runs, so a live worker is never mistaken for a lost one.
import type { App } from "../../app/context.ts";
import { marks, raw } from "../../db/raw.ts";
import { LEASE_MS } from "./claim.ts";

/** Extends the leases of targets still being published by this worker, and their channels' locks. */
export async function renewLeases(app: App, targetIds: string[]): Promise<void> {
  const until = app.clock.now() + LEASE_MS;
  await app.db.transaction().execute(async (tx) => {
    await raw(
      tx,
      app.dialect,
      `UPDATE post_targets SET leased_until = ? WHERE id IN (${marks(targetIds.length)}) AND status = 'publishing' AND lease_owner = ?`,
      [until, ...targetIds, app.instanceId],
    );
    await raw(
      tx,
      app.dialect,
      `UPDATE channel_locks SET leased_until = ? WHERE target_id IN (${marks(targetIds.length)})`,
      [until, ...targetIds],
    );
  });
}

/**
 * One timer renews every lease this worker holds, in one statement per table, instead of a timer per target.
 * One renewal at a time: on Postgres two could run on two connections, and the older one, waiting on the newer
 * one's row locks, would then write its earlier lease over the newer. Returns the function that stops it.
 */
export function renewEvery(app: App, ms: number, publishing: Set<string>): () => void {
  let renewing = false;
  const timer = setInterval(() => {
    if (publishing.size === 0 || renewing) return;
    renewing = true;
    renewLeases(app, [...publishing])
      .catch((e) => app.log.warn("lease renewal failed", { targets: publishing.size, error: String(e) }))
      .finally(() => {
        renewing = false;
      });
  }, ms);
  return () => clearInterval(timer);
}
