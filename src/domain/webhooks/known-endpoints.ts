// The enabled webhook endpoints of an org and mode, as the outbox (outbox.ts) looks them up for each batch of
// events. On Postgres each lookup is a round trip; a statement that runs in the same transaction anyway can read
// them on the side (the publish worker's outcomes statement, domain/targets/complete-pg.ts) and leave them here,
// and the outbox then skips its own lookup: one round trip less each publish step. Read in the same transaction
// a moment earlier, they are what the outbox's own lookup would have read.
import type { Tx } from "../../db/index.ts";

export interface EndpointRow {
  id: string;
  enabled_events: string;
}

/** An org and mode, as the outbox groups events. */
export const endpointScope = (orgId: string, livemode: boolean | number): string =>
  `${orgId}|${livemode ? 1 : 0}`;

/**
 * Postgres: the enabled endpoints of the orgs and modes of the rows of `source` (a CTE or table with org_id and
 * livemode), as one JSON text; NULL when there are none.
 */
export const endpointsOfScopesSql = (source: string): string =>
  `(SELECT json_agg(json_build_object('org_id', e.org_id, 'livemode', e.livemode, 'id', e.id,
      'enabled_events', e.enabled_events))::text
    FROM webhook_endpoints e
    WHERE e.status = 'enabled' AND (e.org_id, e.livemode) IN (SELECT org_id, livemode FROM ${source}))`;

const known = new WeakMap<Tx, Map<string, EndpointRow[]>>();

/**
 * Leaves what a statement of `tx` read for `scopes` (every scope it looked up, those without endpoints too):
 * `json` is the text endpointsOfScopesSql gave.
 */
export function rememberEndpoints(tx: Tx, scopes: Iterable<string>, json: string | null): void {
  const byScope = new Map<string, EndpointRow[]>();
  for (const s of scopes) byScope.set(s, []);
  if (json)
    for (const e of JSON.parse(json) as (EndpointRow & { org_id: string; livemode: number })[])
      byScope.get(endpointScope(e.org_id, e.livemode))?.push({ id: e.id, enabled_events: e.enabled_events });
  known.set(tx, byScope);
}

/**
 * What a statement of `tx` read already, by scope, or undefined. Taken once: the transaction's next batch of
 * events looks its endpoints up again, as a later statement would see endpoints changed meanwhile.
 */
export function takeKnownEndpoints(tx: Tx): Map<string, EndpointRow[]> | undefined {
  const m = known.get(tx);
  known.delete(tx);
  return m;
}
