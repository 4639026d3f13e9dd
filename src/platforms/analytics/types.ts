// A web-analytics tool as svc reads it: check the site or property once, then read whole days of visitors and
// goal conversions split by the UTM tags of the visit. Nothing about a single visitor is asked for or kept.
import type { App } from "../../app/context.ts";
import type { Credentials, ProviderInfo, Refusal } from "../insights/types.ts";

export interface AnalyticsSiteFound {
  /** The tool's own site or property ID (a second connection of it is refused). */
  external_id: string;
  name: string;
}

/** One day's count for one combination of tags; missing tags are "". goal "" is visitors, else conversions. */
export interface AnalyticsRow {
  day: string;
  source: string;
  medium: string;
  campaign: string;
  content: string;
  goal: string;
  visitors: number;
  conversions: number;
}

export interface AnalyticsReadInput extends Credentials {
  externalId: string;
  goals: string[];
  since: string;
  until: string;
  /** The brand's posts published in this mode (the sandbox makes visits for them; real tools ignore it). */
  posts: { id: string; published_at: number; providers: string[]; template: string | null }[];
}

export interface AnalyticsAdapter {
  verify(app: App, input: Credentials): Promise<{ kind: "ok"; site: AnalyticsSiteFound } | Refusal>;
  read(app: App, input: AnalyticsReadInput): Promise<{ kind: "ok"; rows: AnalyticsRow[] } | Refusal>;
}

export interface AnalyticsProvider extends ProviderInfo {
  load(): Promise<AnalyticsAdapter>;
}

/** What tools write for a tag a visit did not carry (Plausible's "(none)", GA4's "(not set)", "(direct)"). */
export const noTag = (v: unknown): string => {
  const s = typeof v === "string" ? v.trim() : "";
  return s === "(none)" || s === "(not set)" || s === "(direct)" || s === "(not provided)" ? "" : s;
};
