// analytics.collect: reads each due analytics source (30 days the first time, then the last 7 every day) and
// replaces those days' rows: visitors and goal conversions per day and UTM tag combination, never a visit. A
// refusing tool marks the source `needs reauth`; an outage is retried later. The tool is asked outside any
// transaction.
import type { App } from "../../app/context.ts";
import { taggedProvider } from "../../db/insight-keys.ts";
import type { AnalyticsSourcesTable } from "../../db/tables/insights.ts";
import { analyticsProvider } from "../../platforms/analytics/registry.ts";
import type { AnalyticsReadInput, AnalyticsRow } from "../../platforms/analytics/types.ts";
import { afterRefusal, afterSuccess, BATCH, chunks, daysToRead } from "../insights/collect-state.ts";
import { openSecrets } from "../insights/fields.ts";
import { lastDays } from "../insights/window.ts";
import { inTx } from "../tx.ts";

const DAY = 86_400_000;

export async function collectDueAnalyticsSources(app: App) {
  const now = app.clock.now();
  const due = await app.db
    .selectFrom("analytics_sources")
    .selectAll()
    .where("status", "=", "active")
    .where("next_collect_at", "<=", now)
    .orderBy("next_collect_at")
    .limit(BATCH)
    .execute();
  const result = { read: 0, refused: 0, failed: 0 };
  for (const s of due) {
    const outcome = await collectAnalyticsSource(app, s).catch((e) => ({
      kind: "unavailable" as const,
      message: String(e),
    }));
    result[outcome.kind === "ok" ? "read" : outcome.kind === "refused" ? "refused" : "failed"]++;
  }
  return result;
}

/** The brand's published posts of the window's mode, for the sandbox tool to make visits for. */
async function postsFor(
  app: App,
  s: AnalyticsSourcesTable,
  since: string,
): Promise<AnalyticsReadInput["posts"]> {
  const from = Date.parse(`${since}T00:00:00Z`) - 14 * DAY;
  const rows = await app.db
    .selectFrom("post_targets as t")
    .innerJoin("posts as p", "p.id", "t.post_id")
    .leftJoin("channels as c", "c.id", "t.channel_id")
    .where("p.org_id", "=", s.org_id)
    .where("p.brand_id", "=", s.brand_id)
    .where("p.livemode", "=", s.livemode)
    .where("t.status", "=", "published")
    .where("t.published_at", ">=", from)
    .select([
      "p.id as id",
      "p.template_key as template",
      "t.published_at as published_at",
      taggedProvider.as("provider"),
    ])
    .execute();
  const by = new Map<string, AnalyticsReadInput["posts"][number]>();
  for (const r of rows) {
    const p = by.get(r.id) ?? {
      id: r.id,
      published_at: Number(r.published_at),
      providers: [],
      template: r.template,
    };
    if (!p.providers.includes(r.provider)) p.providers.push(r.provider);
    p.published_at = Math.min(p.published_at, Number(r.published_at));
    by.set(r.id, p);
  }
  return [...by.values()];
}

export async function collectAnalyticsSource(app: App, s: AnalyticsSourcesTable) {
  const provider = analyticsProvider(s.provider);
  const now = app.clock.now();
  const window = lastDays(now, daysToRead(s.collected_at));
  const goals = JSON.parse(s.goals) as string[];
  const outcome = provider
    ? await (await provider.load()).read(app, {
        settings: JSON.parse(s.settings),
        secrets: await openSecrets(app, "analytics_sources", s),
        externalId: s.external_id,
        goals,
        ...window,
        posts: s.provider === "sandbox" ? await postsFor(app, s, window.since) : [],
        signal: AbortSignal.timeout(60_000),
      })
    : ({ kind: "refused", message: `svc no longer reads ${s.provider}.` } as const);
  if (outcome.kind !== "ok") {
    await app.db
      .updateTable("analytics_sources")
      .set(afterRefusal(now, s.collect_failures, outcome))
      .where("id", "=", s.id)
      .execute();
    if (outcome.kind === "refused")
      app.log.warn("analytics source needs reauth", {
        analytics_source: s.id,
        provider: s.provider,
        reason: outcome.message,
      });
    return outcome;
  }
  // Only the goals the source names are kept (a tool may answer others).
  const rows = merged(
    outcome.rows.filter(
      (r) => r.day >= window.since && r.day <= window.until && (r.goal === "" || goals.includes(r.goal)),
    ),
  );
  await inTx(app, async (tx) => {
    await tx
      .deleteFrom("analytics_daily")
      .where("source_id", "=", s.id)
      .where("day", ">=", window.since)
      .where("day", "<=", window.until)
      .execute();
    for (const chunk of chunks(rows, 300))
      await tx
        .insertInto("analytics_daily")
        .values(
          chunk.map((r) => ({
            source_id: s.id,
            day: r.day,
            utm_source: r.source,
            utm_medium: r.medium,
            utm_campaign: r.campaign,
            utm_content: r.content,
            goal: r.goal,
            org_id: s.org_id,
            livemode: s.livemode,
            brand_id: s.brand_id,
            visitors: r.visitors,
            conversions: r.conversions,
          })),
        )
        .execute();
    await tx.updateTable("analytics_sources").set(afterSuccess(now)).where("id", "=", s.id).execute();
  });
  return { kind: "ok" as const, rows: rows.length };
}

/** One row per day, tag combination and goal: values a tool writes differently for "no tag" are summed. */
function merged(rows: AnalyticsRow[]): AnalyticsRow[] {
  const by = new Map<string, AnalyticsRow>();
  for (const r of rows) {
    const k = [r.day, r.source, r.medium, r.campaign, r.content, r.goal].join("\u0000");
    const prev = by.get(k);
    if (!prev) by.set(k, { ...r });
    else {
      prev.visitors += r.visitors;
      prev.conversions += r.conversions;
    }
  }
  return [...by.values()];
}
