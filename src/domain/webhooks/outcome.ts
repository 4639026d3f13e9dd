// Recording finished attempts: each is logged, and its delivery moves on to succeeded, pending again later
// (reference §7 backoff) or failed. Written in batches by the worker, so one transaction carries many attempts.
import type { Dialect, Tx } from "../../db/index.ts";
import { finishWebhookDeliveries, insertWebhookAttempts } from "../../db/sql/record-webhook-outcomes.ts";
import { run } from "../../db/sql/statement.ts";
import type { WebhookDeliveriesTable } from "../../db/tables/webhooks.ts";
import { newId } from "../../lib/ids.ts";
import { nextAttemptAt } from "./backoff.ts";
import type { Outcome } from "./deliver.ts";

export const succeeded = (o: Outcome) => o.status !== null && o.status >= 200 && o.status < 300;

export interface Finished {
  delivery: WebhookDeliveriesTable;
  outcome: Outcome;
}

/**
 * Records attempts. Only the lease holder may (`owner`, the lease_owner the claim wrote); a delivery whose lease
 * was reclaimed, or that went with its deleted endpoint, is left alone. Returns how many were recorded.
 */
export async function recordOutcomes(
  tx: Tx,
  dialect: Dialect,
  items: Finished[],
  owner: string | null,
): Promise<number> {
  const recorded: (Finished & { attempts: number })[] = [];
  for (let i = 0; i < items.length; i += 100) {
    const chunk = items.slice(i, i + 100);
    const matched = new Set(await updateDeliveries(tx, dialect, chunk, owner));
    for (const f of chunk)
      if (matched.has(f.delivery.id)) recorded.push({ ...f, attempts: f.delivery.attempts + 1 });
  }
  for (let i = 0; i < recorded.length; i += 100) {
    const chunk = recorded.slice(i, i + 100);
    const params: unknown[] = [];
    for (const { delivery: d, outcome: o, attempts } of chunk) {
      params.push(
        newId("att", o.startedAt),
        d.id,
        d.org_id,
        attempts,
        o.startedAt,
        o.status,
        o.body,
        o.error,
        o.durationMs,
      );
    }
    await run(tx, dialect, insertWebhookAttempts.of(chunk.length), params);
  }
  await updateStreaks(tx, recorded);
  return recorded.length;
}

/** One UPDATE for a batch (see the statement); returns the IDs it moved. */
async function updateDeliveries(
  tx: Tx,
  dialect: Dialect,
  items: Finished[],
  owner: string | null,
): Promise<string[]> {
  if (items.length === 0) return [];
  const params: unknown[] = [];
  for (const { delivery: d, outcome: o } of items) {
    const ok = succeeded(o);
    const attempts = d.attempts + 1;
    const next = ok ? null : nextAttemptAt(d.created_at, attempts, o.startedAt + o.durationMs);
    const status = ok ? "succeeded" : next === null ? "failed" : "pending";
    params.push(d.id, status, attempts, next, o.status, o.body, o.error, o.durationMs, o.startedAt);
  }
  if (owner !== null) params.push(owner);
  const s = finishWebhookDeliveries.of(items.length, owner !== null);
  return (await run(tx, dialect, s, params)).map((x) => x.id);
}

/**
 * Each endpoint's failure streak (failing_since, read by webhooks.disable_failing): a success ends it, a failure
 * starts it if none is running. Applied once per endpoint per batch, and only when it changes.
 */
async function updateStreaks(tx: Tx, items: Finished[]): Promise<void> {
  const byEndpoint = new Map<string, { clear: boolean; since: number | null; force: boolean }>();
  for (const { delivery, outcome } of [...items].sort((x, y) => x.outcome.startedAt - y.outcome.startedAt)) {
    const s = byEndpoint.get(delivery.endpoint_id) ?? { clear: false, since: null, force: false };
    if (succeeded(outcome)) Object.assign(s, { clear: true, since: null, force: false });
    else if (s.since === null) Object.assign(s, { since: outcome.startedAt, force: s.clear, clear: false });
    byEndpoint.set(delivery.endpoint_id, s);
  }
  for (const [id, s] of byEndpoint) {
    const q = tx.updateTable("webhook_endpoints").where("id", "=", id);
    if (s.clear) await q.set({ failing_since: null }).where("failing_since", "is not", null).execute();
    else if (s.force) await q.set({ failing_since: s.since }).execute();
    else await q.set({ failing_since: s.since }).where("failing_since", "is", null).execute();
  }
}
