// Reading engagement: a target's readings, and a summary of an org's published targets grouped by post, channel
// or template (most engaging first). Engagement belongs to the target's org and mode like the target itself.
import type { App } from "../../app/context.ts";
import type { Db, Tx } from "../../db/index.ts";
import type { TargetEngagementTable } from "../../db/tables/engagement.ts";
import { iso } from "../../lib/clock.ts";
import { invalid, problem } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadBrand } from "../brands/service.ts";
import { loadTarget } from "../posts/load.ts";
import { presentReading, totalOf } from "./present.ts";

export { presentEngagement } from "./present.ts";
export { startEngagement } from "./start.ts";

/** The engagement rows of these targets, by target ID (absent for a target not published). */
export async function engagementOf(
  db: Db | Tx,
  targetIds: string[],
): Promise<Map<string, TargetEngagementTable>> {
  const out = new Map<string, TargetEngagementTable>();
  if (targetIds.length === 0) return out;
  const rows = await db
    .selectFrom("target_engagement")
    .selectAll()
    .where("target_id", "in", targetIds)
    .execute();
  for (const r of rows) out.set(r.target_id, r);
  return out;
}

/** GET /v1/post_targets/{id}/engagement: every reading, oldest first (at most one per scheduled reading). */
export async function listTargetEngagement(app: App, actor: Actor, targetId: string) {
  requireScope(actor, "posts:read");
  const { target } = await loadTarget(app.db, actor, targetId);
  const rows = await app.db
    .selectFrom("engagement_readings")
    .selectAll()
    .where("target_id", "=", target.id)
    .orderBy("read_at", "asc")
    .orderBy("id", "asc")
    .execute();
  return {
    object: "list" as const,
    data: rows.map(presentReading),
    has_more: false,
    url: `/v1/post_targets/${target.id}/engagement`,
  };
}

export const GROUP_BY = ["post", "channel", "template"] as const;
type GroupBy = (typeof GROUP_BY)[number];
const YEAR_MS = 366 * 24 * 3600_000;
const DEFAULT_WINDOW_MS = 30 * 24 * 3600_000;

function when(value: string | undefined, param: string): number | null {
  if (value === undefined) return null;
  const ms = /^\d{4}-\d{2}-\d{2}(T.+)?$/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms))
    throw invalid([problem("window_invalid", `${param} must be an RFC 3339 time or a date.`, param)]);
  return ms;
}

/**
 * GET /v1/engagement/summary: targets published between `since` and `until` (default the last 30 days; at most a
 * year apart), their latest counts summed per post, channel or template, most engaging first.
 */
export async function engagementSummary(app: App, actor: Actor, query: Record<string, string | undefined>) {
  requireScope(actor, "posts:read");
  const groupBy = (query.group_by ?? "post") as GroupBy;
  if (!GROUP_BY.includes(groupBy))
    throw invalid([
      problem("group_by_invalid", `group_by must be one of ${GROUP_BY.join(", ")}.`, "group_by"),
    ]);
  const until = when(query.until, "until") ?? app.clock.now();
  const since = when(query.since, "since") ?? until - DEFAULT_WINDOW_MS;
  if (since >= until || until - since > YEAR_MS)
    throw invalid([
      problem("window_invalid", "since must precede until, and they may be at most a year apart.", "since"),
    ]);
  const brandId = query.brand ? (await loadBrand(app.db, actor, query.brand)).id : actor.brandId;
  const key = groupBy === "post" ? "e.post_id" : groupBy === "channel" ? "e.channel_id" : "p.template_key";
  let q = app.db
    .selectFrom("target_engagement as e")
    .innerJoin("posts as p", "p.id", "e.post_id")
    .where("e.org_id", "=", actor.orgId)
    .where("e.livemode", "=", actor.livemode ? 1 : 0)
    .where("e.published_at", ">=", since)
    .where("e.published_at", "<=", until)
    .select((eb) => [
      eb.ref(key).$castTo<string>().as("key"),
      eb.fn.min("p.brand_id").as("brand"),
      eb.fn.countAll<number>().as("targets"),
      eb.fn.sum<number>("e.likes").as("likes"),
      eb.fn.sum<number>("e.reposts").as("reposts"),
      eb.fn.sum<number>("e.replies").as("replies"),
      eb.fn.sum<number>("e.quotes").as("quotes"),
      eb.fn.sum<number | null>("e.views").as("views"),
      eb.fn.max("e.read_at").as("read_at"),
    ])
    .groupBy(key);
  if (brandId) q = q.where("p.brand_id", "=", brandId);
  if (groupBy === "template") q = q.where("p.template_key", "is not", null);
  const rows = await q.execute();
  const data = rows
    .map((r) => {
      const c = {
        likes: Number(r.likes),
        reposts: Number(r.reposts),
        replies: Number(r.replies),
        quotes: Number(r.quotes),
        views: r.views === null ? null : Number(r.views),
      };
      return {
        key: r.key,
        brand: r.brand,
        targets: Number(r.targets),
        ...c,
        total: totalOf(c),
        read_at: r.read_at === null ? null : iso(Number(r.read_at)),
      };
    })
    .sort((a, b) => b.total - a.total || a.key.localeCompare(b.key))
    // Each row names its group by the group's own word: {"post": "post_…"}, {"channel": …}, {"template": key}.
    .map(({ key, ...rest }) => ({ [groupBy]: key, ...rest }));
  return {
    object: "engagement_summary" as const,
    group_by: groupBy,
    brand: brandId,
    since: iso(since),
    until: iso(until),
    data,
  };
}
