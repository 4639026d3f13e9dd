// The hand-written expressions of the web-analytics summary and collection (domain/analytics/), the same on both
// dialects (substr, CASE and coalesce are common SQL): the group key of a daily row per grouping, and the network a
// target's UTM source names (a sandbox channel tags as the provider it emulates, as render does).
import { type RawBuilder, type SqlBool, sql } from "kysely";

const untagged = sql<SqlBool>`(utm_source = '' AND utm_medium = '' AND utm_campaign = '' AND utm_content = '')`;

/** The group key per analytics_daily row: "" is untagged; NULL leaves the row out of the groups (not the totals). */
export const analyticsGroupKey: Record<
  "post" | "source" | "medium" | "campaign" | "content" | "day",
  RawBuilder<string | null>
> = {
  // A post's visits: svc's own tags (utm_medium=social, utm_content=<post ID>); visits without any tag are "".
  post: sql<
    string | null
  >`CASE WHEN utm_medium = 'social' AND substr(utm_content, 1, 5) = 'post_' THEN utm_content WHEN ${untagged} THEN '' ELSE NULL END`,
  source: sql<string>`utm_source`,
  medium: sql<string>`utm_medium`,
  campaign: sql<string>`utm_campaign`,
  content: sql<string>`utm_content`,
  day: sql<string>`day`,
};

/** The network a published target's links were tagged with (post_targets t, channels c). */
export const taggedProvider = sql<string>`coalesce(c.emulates, t.provider)`;
