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
import { derivePostStatus, type PostStatus, postEventFor } from "./post-status.ts";

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
  /** Targets as this transaction just wrote them in full (the worker's outcomes): a post whose targets are all
   * among them is presented from them, without reading its targets again. */
  known: readonly PostTargetsTable[] = [],
): Promise<Map<string, string>> {
  if (postIds.length === 0) {
    await recordEvents(tx, app, alsoRecord, undefined, pending);
    return new Map();
  }
  const now = app.clock.now();
  // Plain SQL text: this runs for every batch of publish outcomes.
  // The lock first, the read in later statements: see lock.ts (a caller that locked already costs one no-op).
  if (!loaded) await lockPosts(tx, app.dialect, postIds);
  const { posts, statuses } = loaded
    ? { posts: loaded.posts, statuses: loaded.targets }
    : await load(tx, app, postIds);
  const byPost = new Map<string, string[]>();
  for (const t of statuses) {
    const list = byPost.get(t.post_id);
    if (list) list.push(t.status);
    else byPost.set(t.post_id, [t.status]);
  }
  const changed = new Map<string, string[]>();
  /** What each post whose status changed became: the caller may announce it no further (cancel). */
  const became = new Map<string, string>();
  const announce: { post: PostsTable; status: PostStatus; event: string }[] = [];
  for (const p of posts) {
    const status = derivePostStatus(p.status, byPost.get(p.id) ?? []);
    if (status === p.status) continue;
    changed.set(status, [...(changed.get(status) ?? []), p.id]);
    became.set(p.id, status);
    const event = postEventFor(status);
    if (event) announce.push({ post: p, status, event });
  }
  // The post events carry each post with all its targets: read in full only for the posts that announce one
  // (most steps finish a target or two of each post, and the post's status stays), and not even then when every
  // target of the post is among the rows the caller just wrote (a post whose targets were claimed together).
  const full =
    loaded?.targets ??
    (await fullTargets(
      tx,
      app,
      announce.map((a) => a.post.id),
      byPost,
      known,
    ));
  const targetsByPost = new Map<string, PostTargetsTable[]>();
  for (const t of full) {
    const list = targetsByPost.get(t.post_id);
    if (list) list.push(t);
    else targetsByPost.set(t.post_id, [t]);
  }
  const events: NewEvent[] = [...alsoRecord];
  for (const { post: p, status, event } of announce)
    events.push({
      scope: { orgId: p.org_id, livemode: p.livemode === 1, requestId },
      type: event,
      object: presentPost({ ...p, status, updated_at: now }, targetsByPost.get(p.id) ?? []),
    });
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
): Promise<{ posts: PostsTable[]; statuses: { post_id: string; status: string }[] }> {
  const ids = marks(postIds.length);
  const posts = await raw<PostsTable>(
    tx,
    app.dialect,
    `SELECT ${POST_LIST} FROM posts WHERE id IN (${ids})`,
    postIds,
  );
  // Only what the status is derived from: the full rows of every target of every post, decoded into objects for
  // each batch of outcomes, were a tenth of a publish step's time.
  const statuses = await raw<{ post_id: string; status: string }>(
    tx,
    app.dialect,
    `SELECT post_id, status FROM post_targets WHERE post_id IN (${ids})`,
    postIds,
  );
  return { posts, statuses };
}

/** All the targets of these posts: from `known` for a post whose every target is there, else read. */
async function fullTargets(
  tx: Tx,
  app: App,
  postIds: string[],
  statuses: ReadonlyMap<string, string[]>,
  known: readonly PostTargetsTable[],
): Promise<PostTargetsTable[]> {
  if (postIds.length === 0 || known.length === 0) return targetsOf(tx, app, postIds);
  const byPost = new Map<string, PostTargetsTable[]>();
  for (const t of known) {
    const list = byPost.get(t.post_id);
    if (list) list.push(t);
    else byPost.set(t.post_id, [t]);
  }
  const out: PostTargetsTable[] = [];
  const read: string[] = [];
  for (const id of postIds) {
    const mine = byPost.get(id);
    // `statuses` lists every target of the post as read in this transaction, after the posts' locks.
    if (mine && mine.length === statuses.get(id)?.length)
      out.push(...mine.sort((a, b) => (a.id < b.id ? -1 : 1)));
    else read.push(id);
  }
  if (read.length) out.push(...(await targetsOf(tx, app, read)));
  return out;
}

/** All the targets of these posts, in ID order (as a post presents them). */
async function targetsOf(tx: Tx, app: App, postIds: string[]): Promise<PostTargetsTable[]> {
  if (postIds.length === 0) return [];
  return raw<PostTargetsTable>(
    tx,
    app.dialect,
    `SELECT ${TARGET_LIST} FROM post_targets WHERE post_id IN (${marks(postIds.length)}) ORDER BY id`,
    postIds,
  );
}
