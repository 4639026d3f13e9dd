// POST /v1/posts/{id}/delete_published: removes a published post (all its parts, its first comment too) from each
// network that allows deletion, and answers a result per target: `deleted`, `delete_failed` with the network's
// words, or `delete_unsupported`. The network is called outside any transaction; a target's deletion is recorded
// (deleted_at, event post_target.deleted) only by the request that sets deleted_at first, so asking twice deletes
// once: a target already deleted is answered `deleted` without asking the network again.
import type { App } from "../../app/context.ts";
import type { PostTargetsTable } from "../../db/tables/posts.ts";
import { conflict } from "../../lib/errors.ts";
import type { DeleteOutcome, PublishedPart } from "../../platforms/adapter.ts";
import { adapterFor } from "../../platforms/adapter-registry.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { adapterChannel } from "../channels/state.ts";
import { recordEvent, scopeOf } from "../events/record.ts";
import { inTx } from "../tx.ts";
import { loadPost, targetsOf } from "./load.ts";
import { presentTarget } from "./present.ts";

const DELETE_TIMEOUT_MS = 20_000;

export interface DeleteResult {
  target: string;
  channel: string;
  provider: string;
  result: "deleted" | "delete_failed" | "delete_unsupported";
  message: string | null;
}

async function deleteOne(
  app: App,
  t: PostTargetsTable,
): Promise<DeleteOutcome | { kind: "unsupported"; message: string }> {
  const adapter = adapterFor(t.provider);
  if (!adapter?.deletePublished)
    return { kind: "unsupported", message: `svc cannot delete posts on ${t.provider}.` };
  const parts = JSON.parse(t.remote_parts) as PublishedPart[];
  // Marked published by a person: svc never had the post's reference on the network.
  if (parts.length === 0)
    return {
      kind: "unsupported",
      message: "This target was marked published by hand; svc has no reference to it.",
    };
  const channel = await app.db
    .selectFrom("channels")
    .selectAll()
    .where("id", "=", t.channel_id)
    .executeTakeFirst();
  if (!channel) return { kind: "failed", message: "The channel was deleted." };
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      adapter.deletePublished(app, {
        targetId: t.id,
        livemode: t.livemode === 1,
        channel: await adapterChannel(app, channel),
        signal: controller.signal,
        parts,
      }),
      new Promise<DeleteOutcome>((resolve) => {
        timer = setTimeout(() => {
          controller.abort();
          resolve({ kind: "failed", message: `no answer within ${DELETE_TIMEOUT_MS / 1000} s` });
        }, DELETE_TIMEOUT_MS);
      }),
    ]);
  } catch (e) {
    return { kind: "failed", message: e instanceof Error ? e.message : String(e) };
  } finally {
    clearTimeout(timer);
  }
}

export async function deletePublished(app: App, actor: Actor, id: string) {
  requireScope(actor, "posts:write");
  const post = await loadPost(app.db, actor, id);
  const targets = ((await targetsOf(app.db, [post.id])).get(post.id) ?? []).filter(
    (t) => t.status === "published",
  );
  if (targets.length === 0) throw conflict("post_not_published", "Nothing of this post is published.");
  const results: DeleteResult[] = [];
  for (const t of targets) {
    const base = { target: t.id, channel: t.channel_id, provider: t.provider };
    if (t.deleted_at) {
      results.push({ ...base, result: "deleted", message: null });
      continue;
    }
    const outcome = await deleteOne(app, t);
    if (outcome.kind === "unsupported") {
      results.push({ ...base, result: "delete_unsupported", message: outcome.message });
      continue;
    }
    if (outcome.kind === "failed") {
      results.push({ ...base, result: "delete_failed", message: outcome.message });
      continue;
    }
    await inTx(app, async (tx) => {
      const now = app.clock.now();
      const row = await tx
        .updateTable("post_targets")
        .set({ deleted_at: now, updated_at: now })
        .where("id", "=", t.id)
        .where("deleted_at", "is", null)
        .returningAll()
        .executeTakeFirst();
      if (row) await recordEvent(tx, app, scopeOf(actor), "post_target.deleted", presentTarget(row));
    });
    results.push({ ...base, result: "deleted", message: null });
  }
  await audit(app.db, app, actor, {
    action: "post.delete_published",
    target: post.id,
    detail: { results: results.map((r) => ({ target: r.target, result: r.result })) },
  });
  return { object: "post_deletion" as const, post: post.id, results };
}
