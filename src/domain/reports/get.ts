// GET /v1/reports (and the MCP tool brand_report, the CLI's `reports view`, the dashboard's report page): one
// brand's period beside the previous one, computed on request. Needs brands:read; each section also needs its own
// scope, and a section the caller may not see is null.
import type { App } from "../../app/context.ts";
import { badRequest } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadBrand } from "../brands/service.ts";
import { buildReport } from "./build.ts";
import { periodOf } from "./period.ts";

export async function getReport(app: App, actor: Actor, query: Record<string, string | undefined>) {
  requireScope(actor, "brands:read");
  const ref = query.brand ?? actor.brandId ?? undefined;
  if (!ref) throw badRequest("parameter_missing", "brand is required.", "brand");
  const brand = await loadBrand(app.db, actor, ref);
  const period = periodOf(query, brand.timezone, app.clock.now());
  return buildReport(
    app,
    { scopes: actor.scopes },
    { id: actor.orgId, livemode: actor.livemode },
    brand,
    period,
  );
}
