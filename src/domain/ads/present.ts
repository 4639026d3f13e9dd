import type { AdAccountsTable } from "../../db/tables/insights.ts";
import { iso, isoOrNull } from "../../lib/clock.ts";
import type { AdNetwork } from "../../platforms/ads/types.ts";

/** The public Ad account resource: credentials never leave the row; settings are the shown connect fields. */
export const presentAdAccount = (a: AdAccountsTable) => ({
  id: a.id,
  object: "ad_account" as const,
  brand: a.brand_id,
  livemode: a.livemode === 1,
  network: a.network,
  account_id: a.external_id,
  name: a.name,
  currency: a.currency,
  settings: JSON.parse(a.settings) as Record<string, string>,
  status: a.status,
  status_note: a.status_note,
  collected_at: isoOrNull(a.collected_at),
  next_collect_at: isoOrNull(a.next_collect_at),
  created_at: iso(a.created_at),
});
export type AdAccount = ReturnType<typeof presentAdAccount>;

export const presentAdNetwork = (n: AdNetwork) => ({
  object: "ad_network" as const,
  network: n.key,
  name: n.name,
  livemode: n.livemode,
  connect_fields: n.connect_fields,
});
