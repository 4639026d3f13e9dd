// publish.reclaim (every 30 s, up to 100 targets): a target whose lease expired belongs to a worker that died
// mid-publish. Its outcome is unknown, so it waits for a person (needs_attention, worker_lost), unless the
// channel's adapter is idempotent, when it is queued again (reference §6), or can look for the post (`find`), when
// it is queued again and the next attempt looks before it sends (src/queue/publish/worker.ts).
import { sql } from "kysely";
import type { App } from "../../app/context.ts";
import { recordEvent } from "../../domain/events/record.ts";
import { presentTarget } from "../../domain/posts/present.ts";
import { releaseChannels } from "../../domain/targets/complete.ts";
import { lockPosts } from "../../domain/targets/lock-posts.ts";
import { cancelOrphaned } from "../../domain/targets/orphans.ts";
import { refreshPosts } from "../../domain/targets/refresh-posts.ts";
import type { Adapter } from "../../platforms/adapter.ts";
import { adapterFor } from "../../platforms/adapter-registry.ts";
import { getPlatform } from "../../platforms/rules-registry.ts";
import type { TaskDef } from "../tasks.ts";

export async function reclaimExpired(
  app: App,
  limit = 100,
  adapters: (provider: string) => Adapter | null = adapterFor,
): Promise<number> {
  const now = app.clock.now();
  return app.db.transaction().execute(async (tx) => {
    const expired = await tx
      .selectFrom("post_targets")
      .selectAll()
      // A literal, not a parameter: SQLite uses a partial index only when the query states its condition.
      .where(sql<boolean>`status = 'publishing'`)
      .where("leased_until", "<", now)
      .orderBy("leased_until")
      .limit(limit)
      .execute();
    // Their posts before the targets change (domain/posts/lock.ts): a worker finishing one of them late takes
    // the same locks in the same order.
    await lockPosts(
      tx,
      app.dialect,
      expired.map((t) => t.post_id),
    );
    for (const t of expired) {
      const idempotent = getPlatform(t.provider)?.idempotent === true;
      const looks = !idempotent && adapters(t.provider)?.find !== undefined;
      const row = await tx
        .updateTable("post_targets")
        .set(
          idempotent || looks
            ? {
                status: "queued",
                next_attempt_at: now,
                leased_until: null,
                lease_owner: null,
                error_code: "worker_lost",
                error_message: idempotent
                  ? "The worker stopped mid-publish; the network dedupes, so it is retried."
                  : "The worker stopped mid-publish; the post is looked for on the network before it is sent again.",
                updated_at: now,
              }
            : {
                status: "needs_attention",
                next_attempt_at: null,
                leased_until: null,
                lease_owner: null,
                error_code: "worker_lost",
                error_message: "The worker stopped mid-publish; check the network before retrying.",
                updated_at: now,
              },
        )
        .where("id", "=", t.id)
        .where("status", "=", "publishing")
        .returningAll()
        .executeTakeFirst();
      if (!row) continue;
      await tx
        .updateTable("post_attempts")
        .set({
          finished_at: now,
          outcome: "unknown",
          error_code: "worker_lost",
          error_message: "lease expired",
        })
        .where("target_id", "=", t.id)
        .where("outcome", "=", "running")
        .execute();
      if (!idempotent && !looks) {
        const scope = { orgId: row.org_id, livemode: row.livemode === 1, requestId: null };
        await recordEvent(tx, app, scope, "post_target.uncertain", presentTarget(row));
        await recordEvent(tx, app, scope, "post_target.needs_attention", presentTarget(row));
      }
    }
    await releaseChannels(
      tx,
      app.dialect,
      expired.map((t) => t.id),
    );
    // One queued again on a channel deleted meanwhile could never be published: canceled (orphans.ts).
    await cancelOrphaned(
      tx,
      app,
      expired.map((t) => t.id),
    );
    await refreshPosts(tx, app, [...new Set(expired.map((t) => t.post_id))]);
    return expired.length;
  });
}

export const publishReclaim: TaskDef = {
  name: "publish.reclaim",
  schedule: "*/30 * * * * *",
  timeoutMs: 25_000,
  run: async (app) => {
    await reclaimExpired(app);
  },
};
