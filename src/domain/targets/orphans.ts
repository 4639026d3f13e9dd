// Targets whose channel is gone. Deleting a channel cancels the targets waiting on it, but one being published at
// that moment finishes first; its outcome (a retry, a rate limit) or the reclaimer would queue it again on a
// channel that no longer exists, and a claim that met it could not publish it. Such a target can never be
// published: it is canceled, as deleting the channel would have done, so one org's deletion never leaves a row
// that stops the queue for every org.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { marks, raw } from "../../db/raw.ts";

/** Of `channelIds`, those with no channel row (deleted). One indexed read, only on the paths that queue again. */
export async function channelsGone(tx: Tx, app: App, channelIds: string[]): Promise<Set<string>> {
  const wanted = [...new Set(channelIds)];
  if (wanted.length === 0) return new Set();
  const found = await raw<{ id: string }>(
    tx,
    app.dialect,
    `SELECT id FROM channels WHERE id IN (${marks(wanted.length)})`,
    wanted,
  );
  const present = new Set(found.map((r) => r.id));
  return new Set(wanted.filter((id) => !present.has(id)));
}

/**
 * Cancels those of `targetIds` that are queued or publishing on a channel that no longer exists: no next attempt,
 * no lease, no channel lock, and an attempt row still `running` for them (one a claim just wrote, never started)
 * removed. Answers the posts of the targets canceled; the caller derives their status again (refreshPosts), in
 * the same transaction, after whatever else it changes.
 */
export async function cancelOrphaned(tx: Tx, app: App, targetIds: string[]): Promise<string[]> {
  if (targetIds.length === 0) return [];
  const canceled = await raw<{ id: string; post_id: string }>(
    tx,
    app.dialect,
    `UPDATE post_targets SET status = 'canceled', next_attempt_at = NULL, leased_until = NULL, lease_owner = NULL,
      updated_at = ?
      WHERE id IN (${marks(targetIds.length)}) AND status IN ('queued', 'publishing')
        AND NOT EXISTS (SELECT 1 FROM channels c WHERE c.id = post_targets.channel_id)
      RETURNING id, post_id`,
    [app.clock.now(), ...targetIds],
  );
  if (canceled.length === 0) return [];
  const ids = canceled.map((c) => c.id);
  await raw(
    tx,
    app.dialect,
    `DELETE FROM post_attempts WHERE target_id IN (${marks(ids.length)}) AND outcome = 'running'`,
    ids,
  );
  await raw(tx, app.dialect, `DELETE FROM channel_locks WHERE target_id IN (${marks(ids.length)})`, ids);
  return [...new Set(canceled.map((c) => c.post_id))];
}
