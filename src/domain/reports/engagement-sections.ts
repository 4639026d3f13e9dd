// The report's own sections, from what engagement.collect stored: posts by network, engagement (totals beside the
// previous period, per network and per day) and the top posts. Registered in src/boot.ts; each needs posts:read.
import type { App } from "../../app/context.ts";
import {
  type NetworkFigures,
  reportByNetwork,
  reportByStretch,
  reportPostCounts,
  reportTopPosts,
} from "../../db/sql/report-engagement.ts";
import { run } from "../../db/sql/statement.ts";
import { iso } from "../../lib/clock.ts";
import { localParts, zonedToUtc } from "../../lib/zoned.ts";
import type { ReportSectionInput } from "./sections.ts";

export interface Pair {
  value: number;
  previous: number;
}
const pair = (value: number, previous: number): Pair => ({ value, previous });

const HOUR_MS = 3600_000;

/** The zone's offset from UTC at an instant, in ms. */
function offsetOf(t: number, tz: string): number {
  const p = localParts(t, tz);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(t / 1000) * 1000;
}

const localDate = (t: number, tz: string) => {
  const p = localParts(t, tz);
  return `${p.year}-${String(p.month).padStart(2, "0")}-${String(p.day).padStart(2, "0")}`;
};

/** The first instant of the local day after the one `t` falls in. */
function nextLocalDay(t: number, tz: string): number {
  const p = localParts(t, tz);
  const next = new Date(Date.UTC(p.year, p.month - 1, p.day + 1));
  return zonedToUtc(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), 0, 0, tz);
}
const COUNTS = ["likes", "reposts", "replies", "quotes"] as const;

/** Both sections read the same per-network rows: one query per report (keyed by the report's input object). */
const byNetwork = new WeakMap<ReportSectionInput, Promise<NetworkFigures[]>>();
function networkRows(app: App, i: ReportSectionInput): Promise<NetworkFigures[]> {
  let p = byNetwork.get(i);
  if (!p) {
    p = run(app.db, app.dialect, reportByNetwork, [
      i.since,
      i.orgId,
      i.livemode ? 1 : 0,
      i.previousSince,
      i.until,
      i.brandId,
    ]);
    byNetwork.set(i, p);
  }
  return p;
}

/** `posts`: posts published, and targets published per network, beside the previous period. */
export async function postsSection(app: App, i: ReportSectionInput) {
  const [rows, counts] = await Promise.all([
    networkRows(app, i),
    run(app.db, app.dialect, reportPostCounts, [
      i.since,
      i.orgId,
      i.livemode ? 1 : 0,
      i.previousSince,
      i.until,
      i.brandId,
    ]),
  ]);
  if (rows.length === 0) return null;
  const posts = pair(0, 0);
  for (const c of counts) posts[Number(c.cur) === 1 ? "value" : "previous"] = Number(c.posts);
  const networks = new Map<string, Pair>();
  for (const r of rows) {
    const p = networks.get(r.provider) ?? pair(0, 0);
    p[Number(r.cur) === 1 ? "value" : "previous"] += Number(r.targets);
    networks.set(r.provider, p);
  }
  return {
    posts,
    by_network: [...networks]
      .map(([network, published]) => ({ network, published }))
      .sort((a, b) => b.published.value - a.published.value || a.network.localeCompare(b.network)),
  };
}

/**
 * `engagement`: likes, reposts, replies, quotes, views and their total for targets published in the period (their
 * latest counts) beside the previous period's; the total per network; and per local day of the period.
 */
export async function engagementSection(app: App, i: ReportSectionInput) {
  // Hours add up into local days exactly unless the zone's offset has minutes (India, Nepal): then quarter hours.
  const wholeHours = [i.since, i.until - 1].every((t) => offsetOf(t, i.timezone) % HOUR_MS === 0);
  const stretch = wholeHours ? HOUR_MS : HOUR_MS / 4;
  const [rows, stretches] = await Promise.all([
    networkRows(app, i),
    run(app.db, app.dialect, reportByStretch, [
      stretch,
      i.orgId,
      i.livemode ? 1 : 0,
      i.since,
      i.until,
      i.brandId,
    ]),
  ]);
  if (rows.length === 0) return null;
  const totals = {
    likes: pair(0, 0),
    reposts: pair(0, 0),
    replies: pair(0, 0),
    quotes: pair(0, 0),
    views: pair(0, 0),
    total: pair(0, 0),
  };
  const published = pair(0, 0);
  const networks = new Map<string, Pair>();
  for (const r of rows) {
    const side = Number(r.cur) === 1 ? "value" : "previous";
    let total = 0;
    for (const k of COUNTS) {
      totals[k][side] += Number(r[k]);
      total += Number(r[k]);
    }
    totals.views[side] += Number(r.views ?? 0);
    totals.total[side] += total;
    published[side] += Number(r.targets);
    const n = networks.get(r.provider) ?? pair(0, 0);
    n[side] += total;
    networks.set(r.provider, n);
  }
  // Every local day of the period, zero where nothing was published (a chart shows the gaps).
  const perDay = new Map<string, { published: number; total: number }>();
  for (let t = i.since; t < i.until; t = nextLocalDay(t, i.timezone))
    perDay.set(localDate(t, i.timezone), { published: 0, total: 0 });
  for (const s of stretches) {
    const day = perDay.get(localDate(Number(s.stretch) * stretch, i.timezone));
    if (!day) continue; // a stretch that began before the period (a period starting mid-hour)
    day.published += Number(s.targets);
    day.total += Number(s.total);
  }
  const daily = [...perDay].map(([date, d]) => ({ date, ...d }));
  return {
    ...totals,
    // Engagement per published target: comparable between periods that published different amounts.
    per_target: pair(
      published.value ? round1(totals.total.value / published.value) : 0,
      published.previous ? round1(totals.total.previous / published.previous) : 0,
    ),
    by_network: [...networks]
      .map(([network, total]) => ({ network, total }))
      .sort((a, b) => b.total.value - a.total.value || a.network.localeCompare(b.network)),
    daily,
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** `top_posts`: the period's most engaging posts (at most 5), each with its text and where it was published. */
export async function topPostsSection(app: App, i: ReportSectionInput) {
  const top = await run(app.db, app.dialect, reportTopPosts, [
    i.orgId,
    i.livemode ? 1 : 0,
    i.since,
    i.until,
    i.brandId,
  ]);
  if (top.length === 0) return null;
  const targets = await app.db
    .selectFrom("post_targets")
    .select(["id", "post_id", "provider", "channel_name", "parts", "permalink"])
    .where(
      "post_id",
      "in",
      top.map((t) => t.post_id),
    )
    .where("org_id", "=", i.orgId)
    .where("status", "=", "published")
    .orderBy("id")
    .execute();
  return {
    data: top.map((t) => {
      const mine = targets.filter((x) => x.post_id === t.post_id);
      const parts = mine[0] ? (JSON.parse(mine[0].parts) as string[]) : [];
      const text = parts[0] ?? "";
      return {
        post: t.post_id,
        text: text.length > 280 ? `${text.slice(0, 279)}…` : text,
        published_at: iso(Number(t.published_at)),
        likes: Number(t.likes),
        reposts: Number(t.reposts),
        replies: Number(t.replies),
        quotes: Number(t.quotes),
        total: Number(t.total),
        targets: mine.map((x) => ({
          id: x.id,
          network: x.provider,
          channel_name: x.channel_name,
          permalink: x.permalink,
        })),
      };
    }),
  };
}
