// Claiming due targets in one transaction: pick due queued targets on active, unheld channels of orgs that are not
// suspended; take at most one per channel (a channel lock row, so two workers never publish to one channel at
// once); mark them publishing with a lease; and commit an attempt row for each BEFORE any network call
// (ARCHITECTURE rule 5). Postgres skips rows other workers hold (FOR UPDATE SKIP LOCKED); SQLite's
// BEGIN IMMEDIATE already makes claims take turns. Plain SQL text: this runs for every batch. Postgres runs the same
// claim as one statement (claim-pg.ts): there every statement is a round trip.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { columns, flushPending, marks, type PendingWrites, raw, rowMarks } from "../../db/raw.ts";
import { POST_TARGET_COLUMNS, type PostTargetsTable } from "../../db/tables/posts.ts";
import type { Claimed } from "../../domain/targets/claimed.ts";
import { cancelOrphaned } from "../../domain/targets/orphans.ts";
import { refreshPosts } from "../../domain/targets/refresh-posts.ts";
import { newId } from "../../lib/ids.ts";
import { claimPg } from "./claim-pg.ts";
import { claimWindow, type OrgShare, pickFair } from "./share.ts";
import { inStepTx } from "./step-tx.ts";

const TARGET_LIST = columns(POST_TARGET_COLUMNS);

export type { OrgShare } from "./share.ts";

export const LEASE_MS = 3 * 60_000;

// One scan of the due index (which carries each target's channel and org), in due order, stopping at the limit.
// The channels and orgs a target may not be published to now (locked, inactive, rate-limit held, suspended) are
// each read once per claim from small indexes into in-memory lists (non-correlated IN), rather than probed in
// three tables for every candidate: those probes were most of the claim's time.
export const CANDIDATES = `SELECT t.id, t.channel_id, t.org_id FROM post_targets t
  WHERE t.status = 'queued' AND t.next_attempt_at <= ?
    AND t.channel_id NOT IN (SELECT channel_id FROM channel_locks)
    AND t.channel_id NOT IN (SELECT id FROM channels
      WHERE (status <> 'active' OR rate_limited_until IS NOT NULL) AND (status <> 'active' OR rate_limited_until > ?))
    AND t.org_id NOT IN (SELECT id FROM orgs WHERE status = 'suspended')
  ORDER BY t.next_attempt_at, t.id
  LIMIT ?`;

export async function claimTargets(
  app: App,
  limit: number,
  now = app.clock.now(),
  share?: OrgShare,
): Promise<Claimed[]> {
  if (limit <= 0) return [];
  return inStepTx(app, (tx) => claimIn(tx, app, limit, now, undefined, share));
}

/** The claim inside a transaction the caller commits (the worker records its last outcomes in the same one). */
export async function claimIn(
  tx: Tx,
  app: App,
  limit: number,
  now = app.clock.now(),
  /** Postgres: writes of the same step to run in the claim's statement (see PendingWrites). */
  pending?: PendingWrites,
  share?: OrgShare,
): Promise<Claimed[]> {
  if (limit <= 0) {
    if (pending) await flushPending(tx, app.dialect, pending);
    return [];
  }
  const d = app.dialect;
  if (d === "postgres") return claimPg(tx, app, limit, now, LEASE_MS, pending, share);
  if (pending) await flushPending(tx, d, pending);
  const found = await raw<{ id: string; channel_id: string; org_id: string }>(tx, d, CANDIDATES, [
    now,
    now,
    claimWindow(limit, share),
  ]);
  const perChannel = new Map<string, string>();
  for (const c of pickFair(found, limit, share)) perChannel.set(c.channel_id, c.id);
  if (perChannel.size === 0) return [];

  // The lock row decides between workers that picked targets of one channel at the same moment.
  // Rows in channel order: two workers inserting overlapping channels then wait on each other in one order only,
  // never in a cycle (a deadlock Postgres would break by failing one claim).
  const lockParams: unknown[] = [];
  for (const [channel, target] of [...perChannel].sort(([a], [b]) => (a < b ? -1 : 1)))
    lockParams.push(channel, target, now + LEASE_MS);
  const locked = await raw<{ target_id: string }>(
    tx,
    d,
    `INSERT INTO channel_locks (channel_id, target_id, leased_until) VALUES ${rowMarks(perChannel.size, 3)} ON CONFLICT (channel_id) DO NOTHING RETURNING target_id`,
    lockParams,
  );
  if (locked.length === 0) return [];
  const ids = locked.map((l) => l.target_id);

  const targets = await raw<PostTargetsTable>(
    tx,
    d,
    `UPDATE post_targets SET status = 'publishing', attempts = attempts + 1, leased_until = ?, lease_owner = ?, updated_at = ?
      WHERE id IN (${marks(ids.length)}) RETURNING ${TARGET_LIST}`,
    [now + LEASE_MS, app.instanceId, now, ...ids],
  );
  if (targets.length === 0) return [];
  const attemptIds = targets.map(() => newId("att", now));
  const attemptParams: unknown[] = [];
  targets.forEach((t, i) => {
    attemptParams.push(attemptIds[i], t.org_id, t.id, t.attempts, now);
  });
  await raw(
    tx,
    d,
    `INSERT INTO post_attempts (id, org_id, target_id, attempt, started_at, outcome) VALUES ${Array.from({ length: targets.length }, () => "(?, ?, ?, ?, ?, 'running')").join(", ")}`,
    attemptParams,
  );
  const postIds = [...new Set(targets.map((t) => t.post_id))];
  await raw(
    tx,
    d,
    `UPDATE posts SET status = 'publishing', updated_at = ? WHERE id IN (${marks(postIds.length)}) AND status = 'scheduled'`,
    [now, ...postIds],
  );

  const details = await raw<{
    id: string;
    provider: string;
    emulates: string | null;
    settings: string | null;
    secrets: string | null;
    metadata: string;
    has_media: number;
  }>(
    tx,
    d,
    `SELECT t.id, c.provider, c.emulates, c.settings, c.secrets, p.metadata,
      EXISTS (SELECT 1 FROM post_media m WHERE m.post_id = p.id) AS has_media FROM post_targets t
      JOIN channels c ON c.id = t.channel_id JOIN posts p ON p.id = t.post_id WHERE t.id IN (${marks(targets.length)})`,
    targets.map((t) => t.id),
  );
  const byId = new Map(details.map((x) => [x.id, x]));
  // A target whose channel row is gone (deleted while it was in flight, by an earlier version) cannot be published:
  // it is canceled here, never thrown on, so one org's row does not fail the claim for every org (orphans.ts).
  if (byId.size < targets.length) {
    const posts = await cancelOrphaned(
      tx,
      app,
      targets.filter((t) => !byId.has(t.id)).map((t) => t.id),
    );
    await refreshPosts(tx, app, posts);
  }
  return targets.flatMap((t, i) => {
    const x = byId.get(t.id);
    if (!x) return [];
    return {
      target: t,
      attemptId: attemptIds[i]!,
      channel: { provider: x.provider, emulates: x.emulates, settings: x.settings, secrets: x.secrets },
      metadata: JSON.parse(x.metadata) as Record<string, string>,
      hasMedia: x.has_media === 1,
    };
  });
}
