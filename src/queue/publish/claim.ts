// Claiming due targets in one transaction: pick due queued targets on active, unheld channels of orgs that are not
// suspended; take at most one per channel (a channel lock row, so two workers never publish to one channel at
// once); mark them publishing with a lease; and commit an attempt row for each BEFORE any network call
// (ARCHITECTURE rule 5). Postgres skips rows other workers hold (FOR UPDATE SKIP LOCKED); SQLite's
// BEGIN IMMEDIATE already makes claims take turns.
import { sql } from "kysely";
import type { App } from "../../app/context.ts";
import type { PostTargetsTable } from "../../db/tables/posts.ts";
import { newId } from "../../lib/ids.ts";

export const LEASE_MS = 3 * 60_000;

export interface Claimed {
  target: PostTargetsTable;
  attemptId: string;
  channel: { provider: string; emulates: string | null; settings: string | null; secrets: string | null };
  metadata: Record<string, string>;
}

interface Candidate {
  id: string;
  channel_id: string;
}

export async function claimTargets(app: App, limit: number, now = app.clock.now()): Promise<Claimed[]> {
  if (limit <= 0) return [];
  return app.db.transaction().execute(async (tx) => {
    const lock = app.dialect === "postgres" ? sql`FOR UPDATE SKIP LOCKED` : sql``;
    // Written as one scan of the due index with existence checks, so the plan walks post_targets in due order
    // and stops at the limit whatever the table statistics say (a fresh table has none).
    const found = await sql<Candidate>`
      SELECT t.id, t.channel_id FROM post_targets t
      WHERE t.status = 'queued' AND t.next_attempt_at <= ${now}
        AND NOT EXISTS (SELECT 1 FROM channel_locks l WHERE l.channel_id = t.channel_id)
        AND EXISTS (SELECT 1 FROM channels c WHERE c.id = t.channel_id AND c.status = 'active'
                    AND (c.rate_limited_until IS NULL OR c.rate_limited_until <= ${now}))
        AND EXISTS (SELECT 1 FROM orgs o WHERE o.id = t.org_id AND o.status <> 'suspended')
      ORDER BY t.next_attempt_at, t.id
      LIMIT ${limit * 4}
      ${lock}`.execute(tx);
    const perChannel = new Map<string, string>();
    for (const c of found.rows)
      if (!perChannel.has(c.channel_id) && perChannel.size < limit) perChannel.set(c.channel_id, c.id);
    if (perChannel.size === 0) return [];

    // The lock row decides between workers that picked targets of one channel at the same moment.
    const locked = await tx
      .insertInto("channel_locks")
      .values(
        [...perChannel].map(([channel_id, target_id]) => ({
          channel_id,
          target_id,
          leased_until: now + LEASE_MS,
        })),
      )
      .onConflict((oc) => oc.column("channel_id").doNothing())
      .returning("target_id")
      .execute();
    const ids = locked.map((l) => l.target_id);
    if (ids.length === 0) return [];

    const targets = await tx
      .updateTable("post_targets")
      .set((eb) => ({
        status: "publishing",
        attempts: eb("attempts", "+", 1),
        leased_until: now + LEASE_MS,
        lease_owner: app.instanceId,
        updated_at: now,
      }))
      .where("id", "in", ids)
      .where("status", "=", "queued")
      .returningAll()
      .execute();
    const attempts = targets.map((t) => ({
      id: newId("att", now),
      org_id: t.org_id,
      target_id: t.id,
      attempt: t.attempts,
      started_at: now,
      finished_at: null,
      outcome: "running",
      error_code: null,
      error_message: null,
    }));
    if (attempts.length) await tx.insertInto("post_attempts").values(attempts).execute();
    const postIds = [...new Set(targets.map((t) => t.post_id))];
    if (postIds.length) {
      await tx
        .updateTable("posts")
        .set({ status: "publishing", updated_at: now })
        .where("id", "in", postIds)
        .where("status", "=", "scheduled")
        .execute();
    }

    const details = await sql<{
      id: string;
      provider: string;
      emulates: string | null;
      settings: string | null;
      secrets: string | null;
      metadata: string;
    }>`
      SELECT t.id, c.provider, c.emulates, c.settings, c.secrets, p.metadata FROM post_targets t
      JOIN channels c ON c.id = t.channel_id JOIN posts p ON p.id = t.post_id
      WHERE t.id IN (${sql.join(targets.map((t) => t.id))})`.execute(tx);
    const byId = new Map(details.rows.map((d) => [d.id, d]));
    return targets.map((t, i) => {
      const d = byId.get(t.id)!;
      return {
        target: t,
        attemptId: attempts[i]!.id,
        channel: { provider: d.provider, emulates: d.emulates, settings: d.settings, secrets: d.secrets },
        metadata: JSON.parse(d.metadata) as Record<string, string>,
      };
    });
  });
}
