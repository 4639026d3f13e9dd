// The claim on Postgres, as one statement. Each statement there is a round trip (parse, plan, execute, answer),
// and the claim had six: candidates, channel locks, targets, attempt rows, post status, channel details. Data-
// modifying CTEs do all of it in one, with the same rules as the SQLite claim (claim.ts): due queued targets on
// active, unheld channels of orgs not suspended, in due order; rows other workers hold are skipped; at most one per
// channel, taken by the channel lock row (inserted in channel order, so concurrent claims never deadlock); the
// attempt rows written in the same transaction, committed before any network call. A scheduled post becomes
// publishing only if no one holds its row (SKIP LOCKED): the claim holds its targets' row locks, and a transaction
// holding the post's lock (src/domain/posts/lock.ts) may be waiting on them; that transaction derives the post's
// status itself after the claim commits.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { columns, type PendingWrites, raw } from "../../db/raw.ts";
import { POST_TARGET_COLUMNS, type PostTargetsTable } from "../../db/tables/posts.ts";
import type { Claimed } from "../../domain/targets/claimed.ts";
import { newId } from "../../lib/ids.ts";
import { claimWindow, type OrgShare } from "./share.ts";

// $1 now, $2 candidates to look at, $3 targets to claim, $4 lease end, $5 this worker, $6 attempt IDs, $7 posts
// that writes run in the same statement update already (left alone here), $8 and $9 the orgs this worker is
// publishing for and how many each (OrgShare), $10 the most one org may hold. `turn` is what pickFair computes on
// SQLite: the org's count in flight plus its candidates before this one; turns are taken lowest first.
const CLAIM = `candidates AS (
    SELECT t.id, t.channel_id, t.org_id, t.next_attempt_at FROM post_targets t
    WHERE t.status = 'queued' AND t.next_attempt_at <= $1
      AND NOT EXISTS (SELECT 1 FROM channel_locks l WHERE l.channel_id = t.channel_id)
      AND EXISTS (SELECT 1 FROM channels c WHERE c.id = t.channel_id AND c.status = 'active'
                  AND (c.rate_limited_until IS NULL OR c.rate_limited_until <= $1))
      AND EXISTS (SELECT 1 FROM orgs o WHERE o.id = t.org_id AND o.status <> 'suspended')
    ORDER BY t.next_attempt_at, t.id
    LIMIT $2
    FOR UPDATE OF t SKIP LOCKED
  ), first_per_channel AS (
    SELECT DISTINCT ON (channel_id) id, channel_id, org_id, next_attempt_at FROM candidates
    ORDER BY channel_id, next_attempt_at, id
  ), turns AS (
    SELECT f.id, f.channel_id, f.next_attempt_at,
      COALESCE(i.n, 0) + row_number() OVER (PARTITION BY f.org_id ORDER BY f.next_attempt_at, f.id) - 1 AS turn
    FROM first_per_channel f LEFT JOIN unnest($8::text[], $9::int[]) AS i(org_id, n) ON i.org_id = f.org_id
  ), picked AS (
    SELECT id, channel_id FROM turns WHERE turn < $10 ORDER BY turn, next_attempt_at, id LIMIT $3
  ), locked AS (
    INSERT INTO channel_locks (channel_id, target_id, leased_until)
    SELECT channel_id, id, $4 FROM picked ORDER BY channel_id
    ON CONFLICT (channel_id) DO NOTHING
    RETURNING target_id
  ), claimed AS (
    UPDATE post_targets t SET status = 'publishing', attempts = t.attempts + 1, leased_until = $4,
      lease_owner = $5, updated_at = $1
    FROM locked WHERE t.id = locked.target_id
    RETURNING ${columns(POST_TARGET_COLUMNS, "t")}
  ), numbered AS (
    SELECT ${columns(POST_TARGET_COLUMNS, "claimed")}, row_number() OVER (ORDER BY claimed.id) AS claim_no FROM claimed
  ), attempts AS (
    INSERT INTO post_attempts (id, org_id, target_id, attempt, started_at, outcome)
    SELECT a.id, x.org_id, x.id, x.attempts, $1, 'running'
    FROM numbered x JOIN unnest($6::text[]) WITH ORDINALITY AS a(id, k) ON a.k = x.claim_no
    RETURNING id, target_id
  ), starting AS (
    SELECT id FROM posts WHERE id = ANY (ARRAY(SELECT post_id FROM claimed)) AND status = 'scheduled'
      AND NOT (id = ANY($7::text[]))
    ORDER BY id FOR NO KEY UPDATE SKIP LOCKED
  ), started AS (
    UPDATE posts SET status = 'publishing', updated_at = $1 WHERE id IN (SELECT id FROM starting)
  )
  SELECT ${columns(POST_TARGET_COLUMNS, "x")}, a.id AS claim_attempt_id, c.provider AS claim_provider, c.emulates AS claim_emulates,
    c.settings AS claim_settings, c.secrets AS claim_secrets, p.metadata AS claim_metadata,
    EXISTS (SELECT 1 FROM post_media m WHERE m.post_id = x.post_id) AS claim_has_media
  FROM numbered x JOIN attempts a ON a.target_id = x.id
    JOIN channels c ON c.id = x.channel_id JOIN posts p ON p.id = x.post_id`;

type Row = PostTargetsTable & {
  claim_attempt_id: string;
  claim_provider: string;
  claim_emulates: string | null;
  claim_settings: string | null;
  claim_secrets: string | null;
  claim_metadata: string;
  claim_has_media: boolean;
};

/** The claim's text after `k` parameters of writes that run first, as CTEs of the same statement. */
const texts = new Map<string, string>();
function claimText(pending: string[], k: number): string {
  const key = `${k}|${pending.join("\u0000")}`;
  let t = texts.get(key);
  if (t === undefined) {
    const own = CLAIM.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + k}`);
    t = `WITH ${pending.map((w, i) => `w${i} AS (${w}), `).join("")}${own}`;
    texts.set(key, t);
  }
  return t;
}

export async function claimPg(
  tx: Tx,
  app: App,
  limit: number,
  now: number,
  leaseMs: number,
  /** Writes of the same step (the last batch's posts and events) to run in this statement: one round trip less. */
  pending?: PendingWrites,
  share?: OrgShare,
): Promise<Claimed[]> {
  const attemptIds = Array.from({ length: limit }, () => newId("att", now));
  const before = pending?.params ?? [];
  // raw() numbers the writes' `?` from $1; the claim's own parameters follow them.
  const text = claimText(pending?.texts ?? [], before.length);
  const rows = await raw<Row>(tx, "postgres", text, [
    ...before,
    now,
    claimWindow(limit, share),
    limit,
    now + leaseMs,
    app.instanceId,
    attemptIds,
    pending?.postIds ?? [],
    share ? [...share.inFlight.keys()] : [],
    share ? [...share.inFlight.values()] : [],
    share?.perOrg ?? limit,
  ]);
  if (pending) {
    pending.texts = [];
    pending.params = [];
    pending.postIds = [];
  }
  return rows.map((r) => {
    const {
      claim_attempt_id,
      claim_provider,
      claim_emulates,
      claim_settings,
      claim_secrets,
      claim_metadata,
      claim_has_media,
      ...target
    } = r;
    return {
      target,
      attemptId: claim_attempt_id,
      channel: {
        provider: claim_provider,
        emulates: claim_emulates,
        settings: claim_settings,
        secrets: claim_secrets,
      },
      metadata: JSON.parse(claim_metadata) as Record<string, string>,
      hasMedia: claim_has_media,
    };
  });
}
