// A network's daily upload quota per developer app (YouTube: 1,600 of 10,000 units an upload; reference §5). The
// worker reserves an upload's units for the channel's app before the adapter is called; when the day's units are
// spent, nothing is sent and the target waits as rate_limited, its channel held until the quota's reset (midnight
// Pacific time). When the network itself says the quota is spent (another program using the same app, say), the
// app's day is marked spent, so the app's other channels wait too instead of each asking.
import { sql } from "kysely";
import type { App } from "../../app/context.ts";
import type { PublishOutcome } from "../../platforms/adapter.ts";
import { quotaDay, uploadQuota, waitForReset } from "../../platforms/quotas.ts";

async function appOf(app: App, channelId: string): Promise<string | null> {
  const g = await app.db
    .selectFrom("channel_grants")
    .select("app_id")
    .where("channel_id", "=", channelId)
    .executeTakeFirst();
  return g?.app_id ?? null;
}

/**
 * Takes one upload's units from the app's day; the outcome to record instead of publishing when the day has not
 * enough left, else null (go on). Networks without a quota, and channels without an app, take nothing.
 */
export async function reserveUpload(
  app: App,
  provider: string,
  channelId: string,
): Promise<PublishOutcome | null> {
  const q = uploadQuota(provider);
  if (!q) return null;
  const appId = await appOf(app, channelId);
  if (!appId) return null;
  const now = app.clock.now();
  const day = quotaDay(now, q.timeZone);
  // One statement on both dialects: the day's row is made with one upload's units, or grows by them only while
  // they still fit; no row back means the day has not enough left.
  const taken = await app.db
    .insertInto("app_quota")
    .values({ app_id: appId, day, units: q.units, updated_at: now })
    .onConflict((oc) =>
      oc
        .columns(["app_id", "day"])
        .doUpdateSet({ units: sql`app_quota.units + ${q.units}`, updated_at: now })
        .where(sql<number>`app_quota.units + ${q.units}`, "<=", q.daily),
    )
    .returning("units")
    .executeTakeFirst();
  if (taken) return null;
  return {
    kind: "rate_limited",
    retryAfterMs: waitForReset(now, q),
    message: `The developer app's daily quota is spent (${q.daily} units, ${q.units} an upload); uploads start again after midnight Pacific time.`,
  };
}

/** The network said the app's quota is spent: the rest of its day is marked so. */
export async function exhaustQuota(app: App, provider: string, channelId: string): Promise<void> {
  const q = uploadQuota(provider);
  if (!q) return;
  const appId = await appOf(app, channelId);
  if (!appId) return;
  const now = app.clock.now();
  await app.db
    .insertInto("app_quota")
    .values({ app_id: appId, day: quotaDay(now, q.timeZone), units: q.daily, updated_at: now })
    .onConflict((oc) => oc.columns(["app_id", "day"]).doUpdateSet({ units: q.daily, updated_at: now }))
    .execute();
}

/** Units an app has spent on the quota's day at `now` (the dashboard and tests read it). */
export async function spentUnits(app: App, provider: string, appId: string): Promise<number> {
  const q = uploadQuota(provider);
  if (!q) return 0;
  const row = await app.db
    .selectFrom("app_quota")
    .select("units")
    .where("app_id", "=", appId)
    .where("day", "=", quotaDay(app.clock.now(), q.timeZone))
    .executeTakeFirst();
  return row ? Number(row.units) : 0;
}
