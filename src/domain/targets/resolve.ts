// A person resolves a failed or uncertain target: retry it (queued again, deadline now + 24 h) or mark it
// published (they saw it on the network). Any other state is 409 target_not_resolvable.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { conflict } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { startEngagement } from "../engagement/start.ts";
import { recordEvent, scopeOf } from "../events/record.ts";
import { loadTarget } from "../posts/load.ts";
import { notifyDue, wakeLocal } from "../posts/notify.ts";
import { presentTarget } from "../posts/present.ts";
import { DEFAULT_WINDOW_MS } from "../posts/publish-time.ts";
import { MarkPublished } from "../posts/schema.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { lockPosts } from "./lock-posts.ts";
import { channelsGone } from "./orphans.ts";
import { refreshPosts } from "./refresh-posts.ts";

const RESOLVABLE = ["failed", "needs_attention"];

/**
 * The target's post locked before the target is changed (posts/lock.ts), and the target as it is then. On SQLite
 * the lock is nothing and the second read finds the same rows.
 */
async function lockedTarget(tx: Tx, app: App, actor: Actor, id: string) {
  await lockPosts(tx, app.dialect, [(await loadTarget(tx, actor, id)).target.post_id]);
  return loadTarget(tx, actor, id);
}

export async function retryTarget(app: App, actor: Actor, id: string) {
  requireScope(actor, "posts:write");
  const now = app.clock.now();
  const out = await inTx(app, async (tx) => {
    const { target } = await lockedTarget(tx, app, actor, id);
    if (!RESOLVABLE.includes(target.status))
      throw conflict("target_not_resolvable", "Only a failed or uncertain target can be retried.");
    // Never queued on a channel that is gone: it could not be published (orphans.ts).
    if ((await channelsGone(tx, app, [target.channel_id])).size > 0)
      throw conflict("target_not_resolvable", "The target's channel was deleted; it cannot be retried.");
    const row = await tx
      .updateTable("post_targets")
      .set({
        status: "queued",
        next_attempt_at: now,
        publish_by: now + DEFAULT_WINDOW_MS,
        error_code: null,
        error_message: null,
        updated_at: now,
      })
      .where("id", "=", target.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await refreshPosts(tx, app, [target.post_id], actor.requestId);
    await audit(tx, app, actor, { action: "post_target.retry", target: target.id });
    await notifyDue(tx, app);
    return presentTarget(row);
  });
  wakeLocal(app);
  return out;
}

export async function markTargetPublished(app: App, actor: Actor, id: string, input: unknown) {
  requireScope(actor, "posts:write");
  const b = parse(MarkPublished, input);
  const now = app.clock.now();
  return inTx(app, async (tx) => {
    const { target } = await lockedTarget(tx, app, actor, id);
    if (!RESOLVABLE.includes(target.status))
      throw conflict("target_not_resolvable", "Only a failed or uncertain target can be marked published.");
    const row = await tx
      .updateTable("post_targets")
      .set({
        status: "published",
        permalink: b.permalink ?? target.permalink,
        published_at: now,
        next_attempt_at: null,
        error_code: null,
        error_message: null,
        updated_at: now,
      })
      .where("id", "=", target.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordEvent(tx, app, scopeOf(actor), "post_target.published", presentTarget(row));
    await startEngagement(tx, app, [row]);
    await refreshPosts(tx, app, [target.post_id], actor.requestId);
    await audit(tx, app, actor, {
      action: "post_target.mark_published",
      target: target.id,
      detail: { permalink: row.permalink },
    });
    return presentTarget(row);
  });
}
