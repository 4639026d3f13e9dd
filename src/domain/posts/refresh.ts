// After targets change, each affected post's status is derived again (reference §3); reaching a final status
// emits post.published, post.partially_published or post.failed, in the same transaction.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { marks, raw } from "../../db/raw.ts";
import type { PostsTable, PostTargetsTable } from "../../db/tables/posts.ts";
import { type NewEvent, recordEvents } from "../events/record.ts";
import { presentPost } from "./present.ts";
import { derivePostStatus, postEventFor } from "./status.ts";

export async function refreshPosts(
  tx: Tx,
  app: App,
  postIds: string[],
  requestId: string | null = null,
  /** Events of the same change to write together with the posts' (one insert for a worker's whole batch). */
  alsoRecord: NewEvent[] = [],
): Promise<void> {
  if (postIds.length === 0) {
    await recordEvents(tx, app, alsoRecord);
    return;
  }
  const now = app.clock.now();
  // Plain SQL text: this runs for every batch of publish outcomes.
  const ids = marks(postIds.length);
  const posts = await raw<PostsTable>(tx, app.dialect, `SELECT * FROM posts WHERE id IN (${ids})`, postIds);
  const targets = await raw<PostTargetsTable>(
    tx,
    app.dialect,
    `SELECT * FROM post_targets WHERE post_id IN (${ids}) ORDER BY id`,
    postIds,
  );
  const byPost = new Map<string, PostTargetsTable[]>();
  for (const t of targets) byPost.set(t.post_id, [...(byPost.get(t.post_id) ?? []), t]);
  const changed = new Map<string, string[]>();
  const events: NewEvent[] = [...alsoRecord];
  for (const p of posts) {
    const ts = byPost.get(p.id) ?? [];
    const status = derivePostStatus(
      p.status,
      ts.map((t) => t.status),
    );
    if (status === p.status) continue;
    changed.set(status, [...(changed.get(status) ?? []), p.id]);
    const event = postEventFor(status);
    if (event) {
      events.push({
        scope: { orgId: p.org_id, livemode: p.livemode === 1, requestId },
        type: event,
        object: presentPost({ ...p, status, updated_at: now }, ts),
      });
    }
  }
  for (const [status, changedIds] of changed) {
    await raw(
      tx,
      app.dialect,
      `UPDATE posts SET status = ?, updated_at = ? WHERE id IN (${marks(changedIds.length)})`,
      [status, now, ...changedIds],
    );
  }
  await recordEvents(tx, app, events);
}
