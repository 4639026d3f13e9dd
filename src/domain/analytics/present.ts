import type { AnalyticsSourcesTable } from "../../db/tables/insights.ts";
import { iso, isoOrNull } from "../../lib/clock.ts";
import type { AnalyticsProvider } from "../../platforms/analytics/types.ts";

/** The public Analytics source resource: credentials never leave the row. */
export const presentAnalyticsSource = (s: AnalyticsSourcesTable) => ({
  id: s.id,
  object: "analytics_source" as const,
  brand: s.brand_id,
  livemode: s.livemode === 1,
  provider: s.provider,
  site: s.external_id,
  name: s.name,
  goals: JSON.parse(s.goals) as string[],
  settings: JSON.parse(s.settings) as Record<string, string>,
  status: s.status,
  status_note: s.status_note,
  collected_at: isoOrNull(s.collected_at),
  next_collect_at: isoOrNull(s.next_collect_at),
  created_at: iso(s.created_at),
});
export type AnalyticsSource = ReturnType<typeof presentAnalyticsSource>;

export const presentAnalyticsProvider = (p: AnalyticsProvider) => ({
  object: "analytics_provider" as const,
  provider: p.key,
  name: p.name,
  livemode: p.livemode,
  connect_fields: p.connect_fields,
});
