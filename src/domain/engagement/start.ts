// Engagement starts when a target is published: its row is written in the transaction that records the
// publication (the worker's outcome, a settled uncertain attempt, or a person marking it published).
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import type { PostTargetsTable } from "../../db/tables/posts.ts";
import { adapterFor } from "../../platforms/adapter-registry.ts";
import { readingDueAt } from "./schedule.ts";

type Published = Pick<
  PostTargetsTable,
  "id" | "org_id" | "livemode" | "post_id" | "channel_id" | "provider" | "published_at"
>;

export async function startEngagement(tx: Tx, app: App, targets: Published[]): Promise<void> {
  if (targets.length === 0) return;
  const now = app.clock.now();
  const rows = targets.map((t) => {
    const publishedAt = t.published_at ?? now;
    // A network whose adapter reads nothing reports nothing: its targets are `unsupported` from the start.
    const reads = adapterFor(t.provider)?.engagement !== undefined;
    return {
      target_id: t.id,
      org_id: t.org_id,
      livemode: t.livemode,
      post_id: t.post_id,
      channel_id: t.channel_id,
      provider: t.provider,
      state: reads ? "collecting" : "unsupported",
      likes: 0,
      reposts: 0,
      replies: 0,
      quotes: 0,
      views: null,
      published_at: publishedAt,
      readings: 0,
      failures: 0,
      last_error: null,
      read_at: null,
      next_read_at: reads ? readingDueAt(publishedAt, 0) : null,
      updated_at: now,
    };
  });
  await tx
    .insertInto("target_engagement")
    .values(rows)
    .onConflict((oc) => oc.column("target_id").doNothing())
    .execute();
}
