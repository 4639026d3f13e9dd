// Published targets with engagement, written straight into the tables engagement.collect fills (posts,
// post_targets, target_engagement and each target's readings), for tests and bench/reports.ts that need many of
// them at chosen times with chosen counts. A target's latest reading equals its counts.
import type { App } from "../../src/app/context.ts";
import type { Bool } from "../../src/db/schema.ts";
import type { EngagementReadingsTable, TargetEngagementTable } from "../../src/db/tables/engagement.ts";
import type { PostsTable, PostTargetsTable } from "../../src/db/tables/posts.ts";
import { newId } from "../../src/lib/ids.ts";

export interface PublishedItem {
  publishedAt: number;
  provider: string;
  text: string;
  likes: number;
  reposts: number;
  replies: number;
  quotes: number;
  views: number | null;
  /** Readings to store (the last one has the counts); default 1. */
  readings?: number;
  /** Another target of the same post as the previous item (a post to two networks). */
  samePost?: boolean;
}

/** Inserts the items in batches; returns the post IDs in order (repeated for samePost items). */
export async function seedPublished(
  app: App,
  o: { orgId: string; brandId: string; livemode: boolean; channelId?: string },
  items: PublishedItem[],
  batch = 500,
): Promise<string[]> {
  const lm: Bool = o.livemode ? 1 : 0;
  const ids: string[] = [];
  let postId = "";
  for (let i = 0; i < items.length; i += batch) {
    const posts: PostsTable[] = [];
    const targets: PostTargetsTable[] = [];
    const engagement: TargetEngagementTable[] = [];
    const readings: EngagementReadingsTable[] = [];
    for (const it of items.slice(i, i + batch)) {
      const at = it.publishedAt;
      if (!it.samePost || !postId) {
        postId = newId("post", at);
        posts.push({
          id: postId,
          org_id: o.orgId,
          brand_id: o.brandId,
          livemode: lm,
          status: "published",
          template_id: null,
          template_key: null,
          template_version: null,
          data: null,
          content: JSON.stringify({ body: it.text }),
          publish_at: at,
          publish_by: null,
          slot: 0 as Bool,
          metadata: "{}",
          media: "[]",
          approval_required: 0 as Bool,
          reviewed_by: null,
          reviewed_by_key: null,
          reviewed_at: null,
          review_note: null,
          created_by_key: null,
          created_by_user: null,
          search_text: it.text.toLowerCase(),
          created_at: at,
          updated_at: at,
        });
      }
      ids.push(postId);
      const targetId = newId("ptgt", at);
      const channelId = o.channelId ?? `chan_${it.provider}`;
      targets.push({
        id: targetId,
        org_id: o.orgId,
        livemode: lm,
        post_id: postId,
        channel_id: channelId,
        provider: it.provider,
        channel_name: `${it.provider} account`,
        parts: JSON.stringify([it.text]),
        status: "published",
        attempts: 1,
        next_attempt_at: null,
        publish_by: null,
        permalink: `https://${it.provider}.example/p/${targetId}`,
        error_code: null,
        error_message: null,
        published_at: at,
        leased_until: null,
        lease_owner: null,
        remote_parts: "[]",
        created_at: at,
        updated_at: at,
      });
      const n = it.readings ?? 1;
      const readAt = at + 3600_000;
      engagement.push({
        target_id: targetId,
        org_id: o.orgId,
        livemode: lm,
        post_id: postId,
        channel_id: channelId,
        provider: it.provider,
        state: "collecting",
        likes: it.likes,
        reposts: it.reposts,
        replies: it.replies,
        quotes: it.quotes,
        views: it.views,
        published_at: at,
        readings: n,
        failures: 0,
        last_error: null,
        read_at: readAt + (n - 1) * 3600_000,
        next_read_at: readAt + n * 3600_000,
        updated_at: at,
      });
      for (let k = 0; k < n; k++) {
        // Earlier readings had fewer; the last has the counts.
        const f = (k + 1) / n;
        readings.push({
          id: newId("engr", readAt + k),
          target_id: targetId,
          org_id: o.orgId,
          read_at: readAt + k * 3600_000,
          likes: Math.floor(it.likes * f),
          reposts: Math.floor(it.reposts * f),
          replies: Math.floor(it.replies * f),
          quotes: Math.floor(it.quotes * f),
          views: it.views === null ? null : Math.floor(it.views * f),
        });
      }
    }
    if (posts.length) await app.db.insertInto("posts").values(posts).execute();
    await app.db.insertInto("post_targets").values(targets).execute();
    await app.db.insertInto("target_engagement").values(engagement).execute();
    for (let k = 0; k < readings.length; k += batch)
      await app.db
        .insertInto("engagement_readings")
        .values(readings.slice(k, k + batch))
        .execute();
  }
  return ids;
}
