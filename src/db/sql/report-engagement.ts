// The report's engagement figures for one brand: published targets (target_engagement has one row per published
// target, whatever the network reports) in a period and the previous one, read with the (org_id, livemode,
// published_at) index and joined to posts for the brand. Each text runs once per report.
import { statement } from "./statement.ts";

const FROM = `FROM target_engagement e JOIN posts p ON p.id = e.post_id
  WHERE e.org_id = ? AND e.livemode = ? AND e.published_at >= ? AND e.published_at < ? AND p.brand_id = ?`;

export interface NetworkFigures {
  provider: string;
  /** 1 for the period, 0 for the previous one. */
  cur: number;
  targets: number | string;
  likes: number | string;
  reposts: number | string;
  replies: number | string;
  quotes: number | string;
  views: number | string | null;
}

/** Per network and period: published targets and their latest counts. Params: since, org, livemode, from, until, brand. */
export const reportByNetwork = statement<
  [since: number, orgId: string, livemode: number, from: number, until: number, brandId: string],
  NetworkFigures
>(`SELECT e.provider AS provider, CASE WHEN e.published_at >= ? THEN 1 ELSE 0 END AS cur, COUNT(*) AS targets,
  SUM(e.likes) AS likes, SUM(e.reposts) AS reposts, SUM(e.replies) AS replies, SUM(e.quotes) AS quotes,
  SUM(e.views) AS views
  ${FROM}
  GROUP BY 1, 2`);

/** Distinct posts per period. Params: since, org, livemode, from, until, brand. */
export const reportPostCounts = statement<
  [since: number, orgId: string, livemode: number, from: number, until: number, brandId: string],
  { cur: number; posts: number | string }
>(`SELECT CASE WHEN e.published_at >= ? THEN 1 ELSE 0 END AS cur, COUNT(DISTINCT e.post_id) AS posts
  ${FROM}
  GROUP BY 1`);

/**
 * Per stretch of the period (an hour, or a quarter hour in zones whose offset is not whole hours): targets published
 * and their engagement. The caller adds the stretches up into the brand's days, so a DST change inside the period
 * moves nothing to the wrong day. Params: stretch (ms), org, livemode, since, until, brand.
 */
export const reportByStretch = statement<
  [stretch: number, orgId: string, livemode: number, since: number, until: number, brandId: string],
  { stretch: number | string; targets: number | string; total: number | string }
>(`SELECT e.published_at / ? AS stretch, COUNT(*) AS targets,
  SUM(e.likes + e.reposts + e.replies + e.quotes) AS total
  ${FROM}
  GROUP BY 1`);

/** The most engaging posts of the period (at most 5). Params: org, livemode, since, until, brand. */
export const reportTopPosts = statement<
  [orgId: string, livemode: number, since: number, until: number, brandId: string],
  {
    post_id: string;
    targets: number | string;
    likes: number | string;
    reposts: number | string;
    replies: number | string;
    quotes: number | string;
    total: number | string;
    published_at: number | string;
  }
>(`SELECT e.post_id AS post_id, COUNT(*) AS targets, SUM(e.likes) AS likes, SUM(e.reposts) AS reposts,
  SUM(e.replies) AS replies, SUM(e.quotes) AS quotes, SUM(e.likes + e.reposts + e.replies + e.quotes) AS total,
  MIN(e.published_at) AS published_at
  ${FROM}
  GROUP BY e.post_id
  ORDER BY SUM(e.likes + e.reposts + e.replies + e.quotes) DESC, e.post_id
  LIMIT 5`);
