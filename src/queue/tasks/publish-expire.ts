// publish.expire (every minute): a target still queued after its publish_by fails with `expired`; a post whose
// deadline passed is not published late (reference §6).
import { sql } from "kysely";
import type { App } from "../../app/context.ts";
import { recordEvent } from "../../domain/events/record.ts";
import { presentTarget } from "../../domain/posts/present.ts";
import { lockPosts } from "../../domain/targets/lock-posts.ts";
import { refreshPosts } from "../../domain/targets/refresh-posts.ts";
import type { TaskDef } from "../tasks.ts";

export async function expireOverdue(app: App, limit = 500): Promise<number> {
  const now = app.clock.now();
  return app.db.transaction().execute(async (tx) => {
    const due = await tx
      .selectFrom("post_targets")
      .select(["id", "post_id"])
      // A literal, not a parameter: SQLite uses a partial index only when the query states its condition.
      .where(sql<boolean>`status = 'queued'`)
      .where("publish_by", "<", now)
      .limit(limit)
      .execute();
    if (due.length === 0) return 0;
    // Their posts before the targets change (domain/posts/lock.ts).
    await lockPosts(
      tx,
      app.dialect,
      due.map((t) => t.post_id),
    );
    const overdue = await tx
      .updateTable("post_targets")
      .set({
        status: "failed",
        next_attempt_at: null,
        error_code: "expired",
        error_message: "Not published before publish_by.",
        updated_at: now,
      })
      .where(
        "id",
        "in",
        due.map((t) => t.id),
      )
      // Still queued: a worker may have claimed one meanwhile.
      .where("status", "=", "queued")
      .returningAll()
      .execute();
    for (const t of overdue) {
      await recordEvent(
        tx,
        app,
        { orgId: t.org_id, livemode: t.livemode === 1, requestId: null },
        "post_target.failed",
        presentTarget(t),
      );
    }
    await refreshPosts(tx, app, [...new Set(overdue.map((t) => t.post_id))]);
    return overdue.length;
  });
}

export const publishExpire: TaskDef = {
  name: "publish.expire",
  schedule: "15 * * * * *",
  timeoutMs: 50_000,
  run: async (app) => {
    await expireOverdue(app);
  },
};
