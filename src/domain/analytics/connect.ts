// POST /v1/analytics_sources (brands:write): connects a brand's own analytics tool with the goals to count.
// Refusable input is refused first (brand, provider, mode, goals, fields, every problem listed); then the tool
// checks the credentials outside any transaction; then the row is saved with its secrets sealed. The first
// collection (30 days) is due at once.
import type { App } from "../../app/context.ts";
import { conflict, invalid, problem } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { analyticsProvider } from "../../platforms/analytics/registry.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { loadBrand } from "../brands/service.ts";
import {
  CONNECT_TIMEOUT_MS,
  connectRefused,
  modeProblems,
  sealSecrets,
  splitFields,
} from "../insights/fields.ts";
import { inTx, isUniqueViolation } from "../tx.ts";
import { parse } from "../validate.ts";
import { presentAnalyticsSource } from "./present.ts";
import { AnalyticsSourceCreate, goalProblems } from "./schema.ts";

export async function connectAnalyticsSource(app: App, actor: Actor, input: unknown) {
  requireScope(actor, "brands:write");
  const b = parse(AnalyticsSourceCreate, input);
  const brand = await loadBrand(app.db, actor, b.brand);
  const provider = analyticsProvider(b.provider);
  const goals = (b.goals ?? []).map((g) => g.trim());
  const problems = [...goalProblems(b.goals ?? [])];
  if (!provider)
    problems.unshift(
      problem("provider_unsupported", `There is no analytics provider ${b.provider}.`, "provider"),
    );
  const split = provider ? splitFields(provider, b.fields ?? {}) : null;
  if (provider) problems.unshift(...modeProblems(provider, actor.livemode, "provider"));
  if (split) problems.push(...split.problems);
  if (problems.length || !provider || !split) throw invalid(problems);

  const adapter = await provider.load();
  const found = await adapter.verify(app, {
    settings: split.settings,
    secrets: split.secrets,
    signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS),
  });
  if (found.kind !== "ok") throw connectRefused(provider.name, provider.key, found);

  const taken = () =>
    conflict(
      "analytics_source_connected",
      `${provider.name} site ${found.site.external_id} is already connected.`,
      {
        param: "fields",
      },
    );
  const livemode = actor.livemode ? 1 : 0;
  const existing = await app.db
    .selectFrom("analytics_sources")
    .select("id")
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", livemode)
    .where("provider", "=", provider.key)
    .where("external_id", "=", found.site.external_id)
    .executeTakeFirst();
  if (existing) throw taken();
  const now = app.clock.now();
  const id = newId("anlsrc", now);
  try {
    return await inTx(app, async (tx) => {
      const row = {
        id,
        org_id: actor.orgId,
        livemode: livemode as 0 | 1,
        brand_id: brand.id,
        provider: provider.key,
        external_id: found.site.external_id,
        name: found.site.name,
        goals: JSON.stringify(goals),
        settings: JSON.stringify(split.settings),
        secrets: await sealSecrets(tx, app, actor.orgId, "analytics_sources", id, split.secrets),
        status: "active",
        status_note: null,
        collected_at: null,
        next_collect_at: now,
        collect_failures: 0,
        last_error: null,
        created_at: now,
        updated_at: now,
      };
      await tx.insertInto("analytics_sources").values(row).execute();
      await audit(tx, app, actor, {
        action: "analytics_source.connect",
        target: id,
        detail: { provider: provider.key, site: found.site.external_id, brand: brand.id },
      });
      return presentAnalyticsSource(row);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw taken();
    throw e;
  }
}
