// Recording outcomes: a batch of finished attempts in one transaction, each guarded by our lease (a target the
// reclaimer took back is left alone), with the channel's lock released, channel effects applied, the events
// written and the posts' statuses derived again.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import type { PostTargetsTable } from "../../db/tables/posts.ts";
import { holdChannel, markNeedsReauth } from "../../domain/channels/service.ts";
import { recordEvent } from "../../domain/events/record.ts";
import { presentTarget } from "../../domain/posts/present.ts";
import { refreshPosts } from "../../domain/posts/refresh.ts";
import type { Claimed } from "./claim.ts";
import type { Decision } from "./decide.ts";

export interface Finished {
  claimed: Claimed;
  decision: Decision;
}

export async function completeTargets(app: App, finished: Finished[]): Promise<void> {
  if (finished.length === 0) return;
  const now = app.clock.now();
  await app.db.transaction().execute(async (tx) => {
    const done: PostTargetsTable[] = [];
    for (const { claimed, decision: d } of finished) {
      const row = await tx
        .updateTable("post_targets")
        .set({
          status: d.status,
          next_attempt_at: d.nextAttemptAt,
          permalink: d.permalink ?? claimed.target.permalink,
          published_at: d.status === "published" ? now : null,
          error_code: d.errorCode,
          error_message: d.errorMessage,
          leased_until: null,
          lease_owner: null,
          updated_at: now,
        })
        .where("id", "=", claimed.target.id)
        .where("status", "=", "publishing")
        .where("lease_owner", "=", app.instanceId)
        .returningAll()
        .executeTakeFirst();
      await tx
        .updateTable("post_attempts")
        .set({
          finished_at: now,
          outcome: d.attemptOutcome,
          error_code: d.errorCode,
          error_message: d.errorMessage,
        })
        .where("id", "=", claimed.attemptId)
        .execute();
      if (!row) continue; // reclaimed meanwhile: the reclaimer decided its state
      done.push(row);
      if (d.rateLimitedUntil !== null) {
        await holdChannel(tx, row.channel_id, d.rateLimitedUntil);
      }
      if (d.needsReauth !== null) await markNeedsReauth(tx, app, row.channel_id, d.needsReauth);
      for (const type of d.events)
        await recordEvent(
          tx,
          app,
          { orgId: row.org_id, livemode: row.livemode === 1, requestId: null },
          type,
          presentTarget(row),
        );
    }
    await releaseChannels(
      tx,
      finished.map((f) => f.claimed.target.id),
    );
    await refreshPosts(tx, app, [...new Set(done.map((t) => t.post_id))]);
  });
}

export async function releaseChannels(tx: Tx, targetIds: string[]): Promise<void> {
  if (targetIds.length) await tx.deleteFrom("channel_locks").where("target_id", "in", targetIds).execute();
}
