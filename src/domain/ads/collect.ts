// ads.collect: reads each due ad account (30 days the first time, then the last 7 every day) and replaces those
// days' rows, so a network's late corrections overwrite what was read before. A refusing network marks the
// account `needs reauth`; an outage is retried later. The network is asked outside any transaction.
import type { App } from "../../app/context.ts";
import type { AdAccountsTable } from "../../db/tables/insights.ts";
import { adNetwork } from "../../platforms/ads/registry.ts";
import type { AdDay } from "../../platforms/ads/types.ts";
import { afterRefusal, afterSuccess, BATCH, chunks, daysToRead } from "../insights/collect-state.ts";
import { openSecrets } from "../insights/fields.ts";
import { lastDays } from "../insights/window.ts";
import { inTx } from "../tx.ts";

export interface CollectResult {
  read: number;
  refused: number;
  failed: number;
}

export async function collectDueAdAccounts(app: App): Promise<CollectResult> {
  const now = app.clock.now();
  const due = await app.db
    .selectFrom("ad_accounts")
    .selectAll()
    .where("status", "=", "active")
    .where("next_collect_at", "<=", now)
    .orderBy("next_collect_at")
    .limit(BATCH)
    .execute();
  const result: CollectResult = { read: 0, refused: 0, failed: 0 };
  for (const a of due) {
    const outcome = await collectAdAccount(app, a).catch((e) => ({
      kind: "unavailable" as const,
      message: String(e),
    }));
    result[outcome.kind === "ok" ? "read" : outcome.kind === "refused" ? "refused" : "failed"]++;
  }
  return result;
}

/** One account's read and what it does to the account. */
export async function collectAdAccount(app: App, a: AdAccountsTable) {
  const network = adNetwork(a.network);
  const now = app.clock.now();
  const window = lastDays(now, daysToRead(a.collected_at));
  const outcome = network
    ? await (await network.load()).read(app, {
        settings: JSON.parse(a.settings),
        secrets: await openSecrets(app, "ad_accounts", a),
        externalId: a.external_id,
        currency: a.currency,
        ...window,
        signal: AbortSignal.timeout(60_000),
      })
    : ({ kind: "refused", message: `svc no longer reads ${a.network}.` } as const);
  if (outcome.kind !== "ok") {
    await app.db
      .updateTable("ad_accounts")
      .set(afterRefusal(now, a.collect_failures, outcome))
      .where("id", "=", a.id)
      .execute();
    if (outcome.kind === "refused")
      app.log.warn("ad account needs reauth", {
        ad_account: a.id,
        network: a.network,
        reason: outcome.message,
      });
    return outcome;
  }
  const rows = merged(outcome.rows.filter((r) => r.day >= window.since && r.day <= window.until));
  await inTx(app, async (tx) => {
    await tx
      .deleteFrom("ad_daily")
      .where("account_id", "=", a.id)
      .where("day", ">=", window.since)
      .where("day", "<=", window.until)
      .execute();
    for (const chunk of chunks(rows))
      await tx
        .insertInto("ad_daily")
        .values(
          chunk.map((r) => ({
            account_id: a.id,
            day: r.day,
            campaign_id: r.campaign_id,
            org_id: a.org_id,
            livemode: a.livemode,
            brand_id: a.brand_id,
            campaign_name: r.campaign_name,
            currency: a.currency,
            spend: r.spend,
            impressions: r.impressions,
            clicks: r.clicks,
          })),
        )
        .execute();
    await tx.updateTable("ad_accounts").set(afterSuccess(now)).where("id", "=", a.id).execute();
  });
  return { kind: "ok" as const, rows: rows.length };
}

/** One row per campaign and day (a network that splits a day in two answers is summed). */
function merged(rows: AdDay[]): AdDay[] {
  const by = new Map<string, AdDay>();
  for (const r of rows) {
    const k = `${r.day}\u0000${r.campaign_id}`;
    const prev = by.get(k);
    if (!prev) by.set(k, { ...r });
    else {
      prev.spend += r.spend;
      prev.impressions += r.impressions;
      prev.clicks += r.clicks;
    }
  }
  return [...by.values()];
}
