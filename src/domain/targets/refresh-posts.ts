// After targets change, each affected post's status is derived again (reference §3); reaching a final status
// emits post.published, post.partially_published or post.failed, in the same transaction. The posts are locked
// before their targets are read (lock.ts), so concurrent changes to one post's targets derive one after the
// other and the final status, and its event, is written once.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { columns, marks, type PendingWrites, raw } from "../../db/raw.ts";
import {
  POST_COLUMNS,
  POST_TARGET_COLUMNS,
  type PostsTable,
  type PostTargetsTable,
} from "../../db/tables/posts.ts";
import { type NewEvent, recordEvents } from "../events/record.ts";
import { presentPost } from "../posts/present.ts";
import { lockPosts } from "./lock-posts.ts";
import { derivePostStatus, postEventFor } from "./post-status.ts";

const POST_LIST = columns(POST_COLUMNS);
const TARGET_LIST = columns(POST_TARGET_COLUMNS);

export async function refreshPosts(
  tx: Tx,
  app: App,
  postIds: string[],
  requestId: string | null = null,
  /** Events of the same change to write together with the posts' (one insert for a worker's whole batch). */
  alsoRecord: NewEvent[] = [],
  /** The posts and all their targets, when the caller read them already in this transaction, after locking the
   * posts (lockPosts) in an earlier statement of it. */
  loaded?: { posts: PostsTable[]; targets: PostTargetsTable[] },
  /** Postgres: hand the writes to the transaction's next statement (see PendingWrites). */
  pending?: PendingWrites,
): Promise<Map<string, string>> {
  if (postIds.length === 0) {
    await recordEvents(tx, app, alsoRecord, undefined, pending);
    return new Map();
  }
  const now = app.clock.now();
  // Plain SQL text: this runs for every batch of publish outcomes.
  // The lock first, the read in later statements: see lock.ts (a caller that locked already costs one no-op).
  if (!loaded) await lockPosts(tx, app.dialect, postIds);
  const { posts, targets } = loaded ?? (await load(tx, app, postIds));
  const byPost = new Map<string, PostTargetsTable[]>();
  for (const t of targets) byPost.set(t.post_id, [...(byPost.get(t.post_id) ?? []), t]);
  const changed = new Map<string, string[]>();
  /** What each post whose status changed became: the caller may announce it no further (cancel). */
  const became = new Map<string, string>();
  const events: NewEvent[] = [...alsoRecord];
  for (const p of posts) {
    const ts = byPost.get(p.id) ?? [];
    const status = derivePostStatus(
      p.status,
      ts.map((t) => t.status),
    );
    if (status === p.status) continue;
    changed.set(status, [...(changed.get(status) ?? []), p.id]);
    became.set(p.id, status);
    const event = postEventFor(status);
    if (event) {
      events.push({
        scope: { orgId: p.org_id, livemode: p.livemode === 1, requestId },
        type: event,
        object: presentPost({ ...p, status, updated_at: now }, ts),
      });
    }
  }
  if (app.dialect === "postgres" && changed.size) {
    // One round trip for the posts and the events: the update rides along with the events' insert.
    const ids: string[] = [];
    const statuses: string[] = [];
    for (const [status, changedIds] of changed)
      for (const id of changedIds) {
        ids.push(id);
        statuses.push(status);
      }
    pending?.postIds.push(...ids);
    await recordEvents(
      tx,
      app,
      events,
      {
        text: "UPDATE posts p SET status = v.status, updated_at = ? FROM unnest(?::text[], ?::text[]) AS v(id, status) WHERE p.id = v.id",
        params: [now, ids, statuses],
      },
      pending,
    );
    return became;
  }
  for (const [status, changedIds] of changed) {
    await raw(
      tx,
      app.dialect,
      `UPDATE posts SET status = ?, updated_at = ? WHERE id IN (${marks(changedIds.length)})`,
      [status, now, ...changedIds],
    );
  }
  await recordEvents(tx, app, events, undefined, pending);
  return became;
}

async function load(
  tx: Tx,
  app: App,
  postIds: string[],
): Promise<{ posts: PostsTable[]; targets: PostTargetsTable[] }> {
  const ids = marks(postIds.length);
  const posts = await raw<PostsTable>(
    tx,
    app.dialect,
    `SELECT ${POST_LIST} FROM posts WHERE id IN (${ids})`,
    postIds,
  );
  const targets = await raw<PostTargetsTable>(
    tx,
    app.dialect,
    `SELECT ${TARGET_LIST} FROM post_targets WHERE post_id IN (${ids}) ORDER BY id`,
    postIds,
  );
  return { posts, targets };
}
