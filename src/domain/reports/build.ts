// One brand's report for a period: every registered section (src/domain/reports/sections.ts) computed in order,
// each null when it has nothing or the reader may not see it. Shared by GET /v1/reports, the share link's page and
// the monthly email; it reads and stores nothing of its own.
import type { App } from "../../app/context.ts";
import type { BrandsTable } from "../../db/schema.ts";
import { iso } from "../../lib/clock.ts";
import type { Scope } from "../scopes.ts";
import type { Period } from "./period.ts";
import { type ReportSectionInput, reportSections } from "./sections.ts";

/** Who reads: a key or member sees the sections its scopes allow; a share link sees all of them. */
export type Reader = { scopes: ReadonlySet<Scope> } | "share_link";

export async function buildReport(
  app: App,
  reader: Reader,
  org: { id: string; livemode: boolean },
  brand: Pick<BrandsTable, "id" | "name" | "slug" | "timezone">,
  period: Period,
) {
  const input: ReportSectionInput = {
    orgId: org.id,
    mode: org.livemode ? "live" : "test",
    livemode: org.livemode,
    brandId: brand.id,
    timezone: brand.timezone,
    since: period.since,
    until: period.until,
    previousSince: period.previousSince,
    previousUntil: period.previousUntil,
  };
  const sections: Record<string, object | null> = {};
  // In order, one after another: a section may reuse what an earlier one read (keyed by `input`), and a report
  // holds one connection at a time.
  for (const s of reportSections.list()) {
    const visible = reader === "share_link" || reader.scopes.has(s.scope);
    const figures = visible ? await s.compute(app, input) : null;
    sections[s.name] = figures && Object.keys(figures).length > 0 ? figures : null;
  }
  return {
    object: "report" as const,
    brand: { id: brand.id, name: brand.name, slug: brand.slug },
    timezone: brand.timezone,
    livemode: org.livemode,
    month: period.month,
    since: iso(period.since),
    until: iso(period.until),
    previous_since: iso(period.previousSince),
    previous_until: iso(period.previousUntil),
    generated_at: iso(app.clock.now()),
    sections,
  };
}

export type Report = Awaited<ReturnType<typeof buildReport>>;
