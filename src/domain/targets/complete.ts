// Recording outcomes: a batch of finished attempts in one transaction, each guarded by our lease (a target the
// reclaimer took back is left alone), with the channel's lock released, channel effects applied, the events
// written and the posts' statuses derived again. A batch costs a handful of statements, not a few per target.
import type { App } from "../../app/context.ts";
import type { Dialect, Tx } from "../../db/index.ts";
import { marks, type PendingWrites, raw } from "../../db/raw.ts";
import type { PostTargetsTable } from "../../db/tables/posts.ts";
import { updateMany } from "../../db/update-many.ts";
import { holdChannel, markNeedsReauth } from "../channels/service.ts";
import { startEngagement } from "../engagement/start.ts";
import type { NewEvent } from "../events/record.ts";
import { presentTarget } from "../posts/present.ts";
import type { Claimed, Finished } from "./claimed.ts";
import { completePg } from "./complete-pg.ts";
import type { Decision } from "./decide.ts";
import { lockPosts } from "./lock-posts.ts";
import { channelsGone } from "./orphans.ts";
import { refreshPosts } from "./refresh-posts.ts";

/** The posts of finished targets: what a step recording them locks first (domain/posts/lock.ts). */
export const postsOf = (finished: Finished[]): string[] => finished.map((f) => f.claimed.target.post_id);

/** Records outcomes inside a transaction the caller commits (with the next claim, in the worker). */
export async function completeIn(
  tx: Tx,
  app: App,
  finished: Finished[],
  /** Postgres: the posts' and events' writes go to the step's next statement, the claim. */
  pending?: PendingWrites,
  /** Whether the transaction holds the posts' locks already (inStepTx took them with BEGIN). */
  postsLocked = false,
): Promise<void> {
  if (finished.length === 0) return;
  const now = app.clock.now();
  const after = new Map<string, PostTargetsTable>();
  for (const { claimed, decision: d } of finished) {
    after.set(claimed.target.id, {
      ...claimed.target,
      status: d.status,
      next_attempt_at: d.nextAttemptAt,
      permalink: d.permalink ?? claimed.target.permalink,
      published_at: d.status === "published" ? now : null,
      error_code: d.errorCode,
      error_message: d.errorMessage,
      leased_until: null,
      lease_owner: null,
      updated_at: now,
    });
  }
  // Postgres: the posts' locks before the statement that reads their targets (lock.ts); two workers finishing
  // targets of one post then derive its status one after the other.
  if (!postsLocked) await lockPosts(tx, app.dialect, postsOf(finished));
  // A target to be queued again whose channel was deleted while it was being published is canceled instead (as
  // the deletion canceled the others; orphans.ts). Read after the posts' locks, which deleting a channel takes too.
  const requeued = [...after.values()].filter((t) => t.status === "queued");
  const gone = await channelsGone(
    tx,
    app,
    requeued.map((t) => t.channel_id),
  );
  for (const t of requeued)
    if (gone.has(t.channel_id)) Object.assign(t, { status: "canceled", next_attempt_at: null });
  const pg = app.dialect === "postgres" ? await completePg(tx, app, finished, after, now) : null;
  const ours = new Set(pg ? pg.ours : await completeSqlite(tx, app, finished, after, now));
  const events: NewEvent[] = [];
  const done: PostTargetsTable[] = [];
  for (const { claimed, decision: d } of finished) {
    if (!ours.has(claimed.target.id)) continue;
    const row = after.get(claimed.target.id)!;
    done.push(row);
    // Canceled above: its channel is gone, so no channel effect and no event of the outcome.
    if (row.status === "canceled") continue;
    if (d.rateLimitedUntil !== null) await holdChannel(tx, row.channel_id, d.rateLimitedUntil);
    if (d.needsReauth !== null) await markNeedsReauth(tx, app, row.channel_id, d.needsReauth);
    const scope = { orgId: row.org_id, livemode: row.livemode === 1, requestId: null };
    for (const type of d.events) events.push({ scope, type, object: presentTarget(row) });
  }
  // Engagement starts with publication, in the same transaction (on Postgres, in the step's next statement).
  await startEngagement(
    tx,
    app,
    done.filter((t) => t.status === "published"),
    pending,
  );
  // The targets' events and their posts' events go in one insert.
  await refreshPosts(
    tx,
    app,
    [...new Set(done.map((t) => t.post_id))],
    null,
    events,
    pg ?? undefined,
    pending,
    done,
  );
}

export async function releaseChannels(tx: Tx, dialect: Dialect, targetIds: string[]): Promise<void> {
  if (targetIds.length)
    await raw(
      tx,
      dialect,
      `DELETE FROM channel_locks WHERE target_id IN (${marks(targetIds.length)})`,
      targetIds,
    );
}

/** The targets, their attempt rows and their channel locks, one statement each (no round trips on SQLite). */
async function completeSqlite(
  tx: Tx,
  app: App,
  finished: Finished[],
  after: Map<string, PostTargetsTable>,
  now: number,
): Promise<string[]> {
  const targetCols = {
    status: "text",
    next_attempt_at: "bigint",
    permalink: "text",
    published_at: "bigint",
    error_code: "text",
    error_message: "text",
  } as const;
  const ours = await updateMany(tx, app.dialect, {
    table: "post_targets",
    key: "id",
    columns: { ...targetCols, leased_until: "bigint", lease_owner: "text", updated_at: "bigint" },
    rows: [...after.values()],
    keyOf: (t) => t.id,
    valueOf: (t, c) => t[c as keyof PostTargetsTable] as string | number | null,
    // Only while the lease is still ours: a target the reclaimer took back keeps the reclaimer's decision.
    where: { text: "status = 'publishing' AND lease_owner = ?", params: [app.instanceId] },
  });
  await updateMany(tx, app.dialect, {
    table: "post_attempts",
    key: "id",
    columns: { finished_at: "bigint", outcome: "text", error_code: "text", error_message: "text" },
    rows: finished,
    keyOf: (f) => f.claimed.attemptId,
    valueOf: (f, c) =>
      c === "finished_at"
        ? now
        : c === "outcome"
          ? f.decision.attemptOutcome
          : c === "error_code"
            ? f.decision.errorCode
            : f.decision.errorMessage,
  });
  await releaseChannels(
    tx,
    app.dialect,
    finished.map((f) => f.claimed.target.id),
  );
  return ours;
}
