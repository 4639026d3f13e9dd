// The third reference loop of the queue benchmark (SQLite): every write the publish worker makes for a target, in
// the leanest code this project has, so the worker's CPU per target can be set beside what its duties cost by
// themselves. Where the required-writes loop (queue-drain.ts) keeps only the attempt row and the target's event,
// this one also does what the worker must (reference §3, §6, §7): skip locked, inactive and rate-limit-held
// channels and suspended orgs, lock each channel (never two targets of one channel at once), mark the posts
// publishing, read what the network call needs, sync the claim to disk before the calls, release the locks,
// start engagement, derive each post's status and announce a final one with the whole post, and look up the
// webhook endpoints the events go to. One transaction a batch, as the worker's step; plain SQL through
// src/db/raw.ts; no adapter call, no lease renewal, no telemetry, and only the outcome this benchmark's adapter
// gives (published). The difference between it and the worker is what the worker's structure costs.
import type { App } from "../src/app/context.ts";
import type { Tx } from "../src/db/index.ts";
import { columns, marks, raw, rowMarks } from "../src/db/raw.ts";
import {
  POST_COLUMNS,
  POST_TARGET_COLUMNS,
  type PostsTable,
  type PostTargetsTable,
} from "../src/db/tables/posts.ts";
import { newId } from "../src/lib/ids.ts";

const LEASE_MS = 180_000;
const BATCH = 10;
const CANDIDATES = `SELECT t.id, t.channel_id FROM post_targets t
  WHERE t.status = 'queued' AND t.next_attempt_at <= ?
    AND t.channel_id NOT IN (SELECT channel_id FROM channel_locks)
    AND t.channel_id NOT IN (SELECT id FROM channels WHERE status <> 'active' OR rate_limited_until > ?)
    AND t.org_id NOT IN (SELECT id FROM orgs WHERE status = 'suspended')
  ORDER BY t.next_attempt_at, t.id
  LIMIT ${2 * BATCH}`;
const TARGETS = columns(POST_TARGET_COLUMNS);
const POSTS = columns(POST_COLUMNS);

/** A claimed target's row as the outcome leaves it (both loops announce it so). */
export const asPublished = (t: PostTargetsTable, now: number): PostTargetsTable => ({
  ...t,
  status: "published",
  published_at: now,
  leased_until: null,
  lease_owner: null,
  updated_at: now,
});

interface Claimed {
  target: PostTargetsTable;
  attemptId: string;
}

export async function everyDutyLoop(app: App): Promise<void> {
  if (app.dialect !== "sqlite") throw new Error("the every-duty loop runs on SQLite");
  let claimed: Claimed[] = [];
  for (;;) {
    const now = Date.now();
    const done = claimed;
    claimed = await app.db.transaction().execute(async (tx) => {
      if (done.length) await finish(tx, done, now);
      return claim(tx, now);
    });
    if (claimed.length === 0) return;
    await app.syncWrites();
  }
}

async function claim(tx: Tx, now: number): Promise<Claimed[]> {
  const found = await raw<{ id: string; channel_id: string }>(tx, "sqlite", CANDIDATES, [now, now]);
  const perChannel = new Map<string, string>();
  for (const c of found) {
    if (perChannel.size === BATCH) break;
    if (!perChannel.has(c.channel_id)) perChannel.set(c.channel_id, c.id);
  }
  if (perChannel.size === 0) return [];
  const lockParams: unknown[] = [];
  for (const [channel, target] of perChannel) lockParams.push(channel, target, now + LEASE_MS);
  await raw(
    tx,
    "sqlite",
    `INSERT INTO channel_locks (channel_id, target_id, leased_until) VALUES ${rowMarks(perChannel.size, 3)}`,
    lockParams,
  );
  const ids = [...perChannel.values()];
  const targets = await raw<PostTargetsTable>(
    tx,
    "sqlite",
    `UPDATE post_targets SET status = 'publishing', attempts = attempts + 1, leased_until = ?, lease_owner = 'loop',
      updated_at = ? WHERE id IN (${marks(ids.length)}) RETURNING ${TARGETS}`,
    [now + LEASE_MS, now, ...ids],
  );
  const out = targets.map((target) => ({ target, attemptId: newId("att", now) }));
  await raw(
    tx,
    "sqlite",
    `INSERT INTO post_attempts (id, org_id, target_id, attempt, started_at, outcome) VALUES ${rowMarks(out.length, 6)}`,
    out.flatMap((c) => [c.attemptId, c.target.org_id, c.target.id, c.target.attempts, now, "running"]),
  );
  const postIds = [...new Set(targets.map((t) => t.post_id))];
  await raw(
    tx,
    "sqlite",
    `UPDATE posts SET status = 'publishing', updated_at = ? WHERE id IN (${marks(postIds.length)}) AND status = 'scheduled'`,
    [now, ...postIds],
  );
  // What the calls need: each channel's network, settings and sealed credentials.
  await raw(
    tx,
    "sqlite",
    `SELECT id, provider, settings, secrets FROM channels WHERE id IN (${marks(perChannel.size)})`,
    [...perChannel.keys()],
  );
  return out;
}

async function finish(tx: Tx, done: Claimed[], now: number): Promise<void> {
  const ids = done.map((c) => c.target.id);
  await raw(
    tx,
    "sqlite",
    `UPDATE post_targets SET status = 'published', published_at = ?, leased_until = NULL, lease_owner = NULL,
      updated_at = ? WHERE id IN (${marks(ids.length)})`,
    [now, now, ...ids],
  );
  await raw(
    tx,
    "sqlite",
    `UPDATE post_attempts SET outcome = 'published', finished_at = ? WHERE id IN (${marks(done.length)})`,
    [now, ...done.map((c) => c.attemptId)],
  );
  await raw(tx, "sqlite", `DELETE FROM channel_locks WHERE target_id IN (${marks(ids.length)})`, ids);
  await raw(
    tx,
    "sqlite",
    `INSERT INTO target_engagement (target_id, org_id, livemode, post_id, channel_id, provider, state, published_at,
      next_read_at, updated_at) VALUES ${rowMarks(done.length, 10)}`,
    done.flatMap(({ target: t }) => [
      t.id,
      t.org_id,
      t.livemode,
      t.post_id,
      t.channel_id,
      t.provider,
      "collecting",
      now,
      now + 15 * 60_000,
      now,
    ]),
  );

  // Each post's status from all its targets; a post whose targets are all published now is published, and
  // announced with the whole post (its targets from this batch's rows when they are all here).
  const published = done.map(({ target: t }) => asPublished(t, now));
  const postIds = [...new Set(published.map((t) => t.post_id))];
  const statuses = await raw<{ post_id: string; status: string }>(
    tx,
    "sqlite",
    `SELECT post_id, status FROM post_targets WHERE post_id IN (${marks(postIds.length)})`,
    postIds,
  );
  const open = new Set(statuses.filter((s) => s.status !== "published").map((s) => s.post_id));
  const finished = postIds.filter((id) => !open.has(id));
  const events: unknown[] = [];
  const org = done[0]!.target.org_id;
  const livemode = done[0]!.target.livemode;
  for (const t of published)
    events.push(
      newId("evt", now),
      t.org_id,
      t.livemode,
      "post_target.published",
      JSON.stringify({ object: t }),
      now,
    );
  if (finished.length) {
    const posts = await raw<PostsTable>(
      tx,
      "sqlite",
      `SELECT ${POSTS} FROM posts WHERE id IN (${marks(finished.length)})`,
      finished,
    );
    const mine = new Map<string, PostTargetsTable[]>();
    for (const t of published) {
      const list = mine.get(t.post_id);
      if (list) list.push(t);
      else mine.set(t.post_id, [t]);
    }
    const counts = new Map<string, number>();
    for (const s of statuses) counts.set(s.post_id, (counts.get(s.post_id) ?? 0) + 1);
    const read = finished.filter((id) => mine.get(id)?.length !== counts.get(id));
    const others = read.length
      ? await raw<PostTargetsTable>(
          tx,
          "sqlite",
          `SELECT ${TARGETS} FROM post_targets WHERE post_id IN (${marks(read.length)}) ORDER BY id`,
          read,
        )
      : [];
    for (const id of read) mine.set(id, []);
    for (const t of others) mine.get(t.post_id)!.push(t);
    await raw(
      tx,
      "sqlite",
      `UPDATE posts SET status = 'published', updated_at = ? WHERE id IN (${marks(finished.length)})`,
      [now, ...finished],
    );
    for (const p of posts) {
      const object = { ...p, status: "published", updated_at: now, targets: mine.get(p.id) ?? [] };
      events.push(newId("evt", now), p.org_id, p.livemode, "post.published", JSON.stringify({ object }), now);
    }
  }
  await raw(
    tx,
    "sqlite",
    `INSERT INTO events (id, org_id, livemode, type, data, created_at) VALUES ${rowMarks(events.length / 6, 6)}`,
    events,
  );
  // Where the events go: the org's enabled endpoints (none here, as in the worker's drain).
  await raw(
    tx,
    "sqlite",
    "SELECT id, enabled_events FROM webhook_endpoints WHERE org_id = ? AND livemode = ? AND status = 'enabled'",
    [org, livemode],
  );
}
