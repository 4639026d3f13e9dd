// The report's sections, registered in the composition root (src/boot.ts) so reports/ depends on no feature:
// engagement, ads, web analytics and newsletters each add what they know, and a report computes them in the order
// they were added. A section that answers null (nothing to say for this brand and period) or that the caller may
// not see is null in the report (reference §4: "report sections are null when empty or not visible to the key").
import type { App } from "../../app/context.ts";
import type { Scope } from "../scopes.ts";

/** What a section is computed for: one brand of one org in one mode, a period and the previous one. */
export interface ReportSectionInput {
  orgId: string;
  mode: "test" | "live";
  /** The same as mode === "live", for queries that filter the livemode column. */
  livemode: boolean;
  brandId: string;
  /** The brand's IANA zone: days and months are the brand's. */
  timezone: string;
  /** The period, as UTC instants in ms: since inclusive, until exclusive. */
  since: number;
  until: number;
  /** The previous period of equal length, ending where the period starts (previousUntil === since). */
  previousSince: number;
  previousUntil: number;
}

/**
 * A section's figures: a JSON object (each figure a pair {value, previous} where it has a previous period), or
 * null when the section has nothing for this brand and period. A section reads through app.db and writes nothing.
 */
export type ReportSectionCompute = (app: App, input: ReportSectionInput) => Promise<object | null>;

export interface ReportSection {
  /** The key in the report's `sections` object (snake_case, e.g. "engagement", "ads", "analytics"). */
  name: string;
  /** The scope a key or member needs to see it; a caller without it gets null. A share link sees every section. */
  scope: Scope;
  compute: ReportSectionCompute;
}

const sections: ReportSection[] = [];

/** The registry: add() from src/boot.ts only; a second add() of the same name replaces the first in place. */
export const reportSections = {
  add(name: string, scope: Scope, compute: ReportSectionCompute): void {
    const i = sections.findIndex((s) => s.name === name);
    if (i >= 0) sections[i] = { name, scope, compute };
    else sections.push({ name, scope, compute });
  },
  list(): readonly ReportSection[] {
    return sections;
  },
};
