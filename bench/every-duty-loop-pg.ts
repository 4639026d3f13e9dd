// The every-duty loop on Postgres (every-duty-loop.ts is SQLite's): every write the publish worker makes for a
// target, in the fewest round trips plain SQL allows, with several loops on one database as the worker runs on
// Postgres. On Postgres a statement is a round trip, so "the leanest code" is data-modifying CTEs, not one statement
// per write: each step is four messages where the worker sends five (its webhook endpoint lookup is a statement of
// its own). A step:
// 1. BEGIN, the step's planner settings and the locks of the posts whose targets finish, in one message (the
//    locks before any read of their targets, so two loops finishing targets of one post derive its status one
//    after the other, as the worker does: src/domain/posts/lock.ts);
// 2. the outcomes (targets published, attempt rows finished, channel locks released, engagement started), and in
//    the same statement every target of those posts, the posts, and the org's enabled webhook endpoints;
// 3. the posts' statuses and events, and the next claim: due queued targets on active, unheld channels of orgs not
//    suspended, rows other loops hold skipped, one per channel, its channel lock, its attempt row, its post marked
//    publishing (if no one holds the post's lock), and what the calls need from its channel;
// 4. COMMIT (durable: the claim is on disk before the calls would be made).
// No adapter call, no lease renewal, no telemetry, one org and only the outcome this benchmark's adapter gives.
import type { App } from "../src/app/context.ts";
import type { Db } from "../src/db/index.ts";
import { columns, raw } from "../src/db/raw.ts";
import { POST_TARGET_COLUMNS, type PostsTable, type PostTargetsTable } from "../src/db/tables/posts.ts";
import { newId } from "../src/lib/ids.ts";
import { BEGIN_PG } from "../src/queue/publish/step-tx.ts";
import { asPublished } from "./every-duty-loop.ts";

const LEASE_MS = 180_000;
const BATCH = 10;
const TARGETS = columns(POST_TARGET_COLUMNS);

// ? now, ? now, ? ids, ? now, ? attempt ids, ? ids, ? now, ? next read, ? now, ? post ids, ? org, ? livemode, ? post ids
const FINISH = `WITH done AS (
    UPDATE post_targets SET status = 'published', published_at = ?, leased_until = NULL, lease_owner = NULL,
      updated_at = ? WHERE id = ANY (?::text[]) RETURNING id, org_id, livemode, post_id, channel_id, provider
  ), attempts AS (
    UPDATE post_attempts SET outcome = 'published', finished_at = ? WHERE id = ANY (?::text[])
  ), unlocked AS (
    DELETE FROM channel_locks WHERE target_id = ANY (?::text[])
  ), engagement AS (
    INSERT INTO target_engagement (target_id, org_id, livemode, post_id, channel_id, provider, state, published_at,
      next_read_at, updated_at)
    SELECT id, org_id, livemode, post_id, channel_id, provider, 'collecting', ?::bigint, ?::bigint, ?::bigint
    FROM done
  )
  SELECT ${TARGETS},
    (SELECT json_agg(p) FROM posts p WHERE p.id = ANY (?::text[])) AS loop_posts,
    (SELECT json_agg(json_build_object('id', e.id, 'enabled_events', e.enabled_events)) FROM webhook_endpoints e
      WHERE e.org_id = ? AND e.livemode = ? AND e.status = 'enabled') AS loop_endpoints
  FROM post_targets WHERE post_id = ANY (?::text[])`;

// ? post ids, ? statuses, ? now, then the events' columns, then ? now, ? now, ? lease end, ? attempt ids,
// ? posts written above (left alone by the claim's own post update)
const CLAIM = `WITH statuses AS (
    UPDATE posts p SET status = v.status, updated_at = ? FROM unnest(?::text[], ?::text[]) AS v(id, status)
    WHERE p.id = v.id
  ), events AS (
    INSERT INTO events (id, org_id, livemode, type, data, created_at)
    SELECT * FROM unnest(?::text[], ?::text[], ?::int[], ?::text[], ?::text[], ?::bigint[])
  ), candidates AS (
    SELECT t.id, t.channel_id, t.next_attempt_at FROM post_targets t
    WHERE t.status = 'queued' AND t.next_attempt_at <= ?
      AND NOT EXISTS (SELECT 1 FROM channel_locks l WHERE l.channel_id = t.channel_id)
      AND EXISTS (SELECT 1 FROM channels c WHERE c.id = t.channel_id AND c.status = 'active'
                  AND (c.rate_limited_until IS NULL OR c.rate_limited_until <= ?))
      AND EXISTS (SELECT 1 FROM orgs o WHERE o.id = t.org_id AND o.status <> 'suspended')
    ORDER BY t.next_attempt_at, t.id
    LIMIT ${2 * BATCH}
    FOR UPDATE OF t SKIP LOCKED
  ), picked AS (
    SELECT id, channel_id FROM (
      SELECT DISTINCT ON (channel_id) id, channel_id, next_attempt_at FROM candidates
      ORDER BY channel_id, next_attempt_at, id
    ) f ORDER BY next_attempt_at, id LIMIT ${BATCH}
  ), locked AS (
    INSERT INTO channel_locks (channel_id, target_id, leased_until)
    SELECT channel_id, id, ?::bigint FROM picked ORDER BY channel_id
    ON CONFLICT (channel_id) DO NOTHING
    RETURNING target_id
  ), claimed AS (
    UPDATE post_targets t SET status = 'publishing', attempts = t.attempts + 1, leased_until = ?,
      lease_owner = 'loop', updated_at = ?
    FROM locked WHERE t.id = locked.target_id
    RETURNING ${columns(POST_TARGET_COLUMNS, "t")}
  ), numbered AS (
    SELECT ${columns(POST_TARGET_COLUMNS)}, row_number() OVER () AS claim_no FROM claimed
  ), attempts AS (
    INSERT INTO post_attempts (id, org_id, target_id, attempt, started_at, outcome)
    SELECT a.id, x.org_id, x.id, x.attempts, x.updated_at, 'running'
    FROM numbered x JOIN unnest(?::text[]) WITH ORDINALITY AS a(id, k) ON a.k = x.claim_no
    RETURNING id, target_id
  ), starting AS (
    SELECT id FROM posts WHERE id = ANY (ARRAY(SELECT post_id FROM claimed)) AND status = 'scheduled'
      AND NOT (id = ANY (?::text[]))
    ORDER BY id FOR NO KEY UPDATE SKIP LOCKED
  ), started AS (
    UPDATE posts SET status = 'publishing' WHERE id IN (SELECT id FROM starting)
  )
  SELECT ${columns(POST_TARGET_COLUMNS, "x")}, a.id AS loop_attempt_id, c.provider AS loop_provider,
    c.settings AS loop_settings, c.secrets AS loop_secrets
  FROM numbered x JOIN attempts a ON a.target_id = x.id JOIN channels c ON c.id = x.channel_id`;

interface Claimed {
  target: PostTargetsTable;
  attemptId: string;
}

type ClaimRow = PostTargetsTable & {
  loop_attempt_id: string;
  loop_provider: string;
  loop_settings: string | null;
  loop_secrets: string | null;
};

type FinishRow = PostTargetsTable & { loop_posts: PostsTable[] | null; loop_endpoints: unknown[] | null };

/** Our IDs (prefix, underscore, base32): safe as literals in the one-message BEGIN. */
const ID = /^[a-z]+_[0-9a-z]+$/;

export async function everyDutyLoopPg(app: App): Promise<void> {
  if (app.dialect !== "postgres") throw new Error("this every-duty loop runs on Postgres");
  let claimed: Claimed[] = [];
  for (;;) {
    const done = claimed;
    claimed = await app.db.connection().execute(async (db) => {
      const postIds = [...new Set(done.map((c) => c.target.post_id))].sort();
      if (!postIds.every((id) => ID.test(id))) throw new Error("unexpected post ID");
      const lock = postIds.length
        ? `; SELECT id FROM posts WHERE id IN (${postIds.map((id) => `'${id}'`).join(", ")}) ORDER BY id FOR NO KEY UPDATE`
        : "";
      await raw(db, "postgres", `${BEGIN_PG}${lock}`, []);
      try {
        const out = await step(db, done, postIds);
        await raw(db, "postgres", "COMMIT", []);
        return out;
      } catch (e) {
        await raw(db, "postgres", "ROLLBACK", []).catch(() => {});
        throw e;
      }
    });
    if (claimed.length === 0) return;
  }
}

async function step(db: Db, done: Claimed[], postIds: string[]): Promise<Claimed[]> {
  const now = Date.now();
  const statusIds: string[] = [];
  const statuses: string[] = [];
  const events = { ids: [] as string[], orgs: [] as string[], modes: [] as number[], types: [] as string[] };
  const data: string[] = [];
  if (done.length) {
    const ids = done.map((c) => c.target.id);
    const rows = await raw<FinishRow>(db, "postgres", FINISH, [
      now,
      now,
      ids,
      now,
      done.map((c) => c.attemptId),
      ids,
      now,
      now + 15 * 60_000,
      now,
      postIds,
      done[0]!.target.org_id,
      done[0]!.target.livemode,
      postIds,
    ]);
    // The statement saw the targets as they were before its own update: ours are published now.
    const ours = new Set(ids);
    const byPost = new Map<string, PostTargetsTable[]>();
    for (const { loop_posts: _p, loop_endpoints: _e, ...t } of rows) {
      const target = ours.has(t.id) ? asPublished(t, now) : t;
      if (ours.has(t.id)) addEvent(events, data, target, "post_target.published", { object: target }, now);
      const list = byPost.get(t.post_id);
      if (list) list.push(target);
      else byPost.set(t.post_id, [target]);
    }
    // (The endpoints, none here as in the worker's drain, would each get a delivery row per event.)
    for (const p of rows[0]?.loop_posts ?? []) {
      // In ID order, as a post presents its targets (sorted here: ORDER BY in the statement walks the whole table
      // in key order under the step's planner settings).
      const targets = (byPost.get(p.id) ?? []).sort((a, b) => (a.id < b.id ? -1 : 1));
      const status = targets.every((t) => t.status === "published") ? "published" : "publishing";
      if (status === p.status) continue;
      statusIds.push(p.id);
      statuses.push(status);
      if (status === "published")
        addEvent(
          events,
          data,
          p,
          "post.published",
          { object: { ...p, status, updated_at: now, targets } },
          now,
        );
    }
  }
  const attemptIds = Array.from({ length: BATCH }, () => newId("att", now));
  const rows = await raw<ClaimRow>(db, "postgres", CLAIM, [
    now,
    statusIds,
    statuses,
    events.ids,
    events.orgs,
    events.modes,
    events.types,
    data,
    events.ids.map(() => now),
    now,
    now,
    now + LEASE_MS,
    now + LEASE_MS,
    now,
    attemptIds,
    statusIds,
  ]);
  return rows.map(({ loop_attempt_id, loop_provider: _p, loop_settings: _s, loop_secrets: _x, ...t }) => ({
    target: t,
    attemptId: loop_attempt_id,
  }));
}

function addEvent(
  events: { ids: string[]; orgs: string[]; modes: number[]; types: string[] },
  data: string[],
  of: { org_id: string; livemode: number },
  type: string,
  body: unknown,
  now: number,
): void {
  events.ids.push(newId("evt", now));
  events.orgs.push(of.org_id);
  events.modes.push(Number(of.livemode));
  events.types.push(type);
  data.push(JSON.stringify(body));
}
