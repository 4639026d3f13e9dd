// Reading posts: get one (with its targets), list with filters, and a target's attempts.
import type { App } from "../../app/context.ts";
import { attemptsOfTargets } from "../../db/sql/post-attempts.ts";
import { postMetadataEquals, postTextContains } from "../../db/sql/post-filters.ts";
import { run, where } from "../../db/sql/statement.ts";
import { badRequest, invalid, problem } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadBrand } from "../brands/service.ts";
import { loadChannel } from "../channels/load.ts";
import { engagementOf } from "../engagement/service.ts";
import { listParams, page } from "../pagination.ts";
import { POST_STATUSES } from "../targets/post-status.ts";
import { loadPost, loadTarget, targetsOf } from "./load.ts";
import { presentAttempt, presentPost } from "./present.ts";

export async function getPost(app: App, actor: Actor, id: string) {
  requireScope(actor, "posts:read");
  const post = await loadPost(app.db, actor, id);
  const targets = (await targetsOf(app.db, [post.id])).get(post.id) ?? [];
  return presentPost(
    post,
    targets,
    await engagementOf(
      app.db,
      targets.map((t) => t.id),
    ),
  );
}

export async function listPosts(app: App, actor: Actor, query: Record<string, string | undefined>) {
  requireScope(actor, "posts:read");
  const params = listParams(query, "post");
  let q = app.db
    .selectFrom("posts")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0);
  if (actor.brandId) q = q.where("brand_id", "=", actor.brandId);
  if (query.brand) q = q.where("brand_id", "=", (await loadBrand(app.db, actor, query.brand)).id);
  if (query.channel) {
    // Posts with a target on the channel: checked per post through the post_targets_post index as the list
    // walks the org's posts newest first (like q, it reads until the page is full).
    const channel = await loadChannel(app.db, actor, query.channel, "channel");
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom("post_targets")
          .select("post_targets.id")
          .whereRef("post_targets.post_id", "=", "posts.id")
          .where("post_targets.channel_id", "=", channel.id),
      ),
    );
  }
  if (query.status !== undefined) {
    if (!(POST_STATUSES as readonly string[]).includes(query.status))
      throw badRequest("parameter_invalid", `status must be one of ${POST_STATUSES.join(", ")}.`, "status");
    q = q.where("status", "=", query.status);
  }
  if (query.q !== undefined) {
    if (query.q.length > 200) throw invalid([problem("query_too_long", "q is at most 200 characters.", "q")]);
    q = q.where(where(app.dialect, postTextContains, [query.q.toLowerCase()]));
  }
  for (const [k, v] of Object.entries(query)) {
    const m = /^metadata\[(.{1,40})\]$/.exec(k);
    if (!m || v === undefined) continue;
    q = q.where(where(app.dialect, postMetadataEquals, [m[1]!, v]));
  }
  const env = await page(q, params, "/v1/posts", (p) => p);
  const targets = await targetsOf(
    app.db,
    env.data.map((p) => p.id),
  );
  const engagement = await engagementOf(
    app.db,
    [...targets.values()].flat().map((t) => t.id),
  );
  return { ...env, data: env.data.map((p) => presentPost(p, targets.get(p.id) ?? [], engagement)) };
}

export async function listAttempts(app: App, actor: Actor, targetId: string) {
  requireScope(actor, "posts:read");
  const { target } = await loadTarget(app.db, actor, targetId);
  const rows = await app.db
    .selectFrom("post_attempts")
    .selectAll()
    .where("target_id", "=", target.id)
    .orderBy("attempt", "asc")
    .execute();
  return {
    object: "list" as const,
    data: rows.map(presentAttempt),
    has_more: false,
    url: `/v1/post_targets/${target.id}/attempts`,
  };
}

/**
 * The attempts of every target of a post already read in the actor's scope (getPost), in one statement, by
 * target: a post's page shows them all (listAttempts reads the target again, once a target).
 */
export async function attemptsOfPost(
  app: App,
  actor: Actor,
  post: { targets: { id: string }[] },
): Promise<Map<string, ReturnType<typeof presentAttempt>[]>> {
  requireScope(actor, "posts:read");
  const out = new Map<string, ReturnType<typeof presentAttempt>[]>(post.targets.map((t) => [t.id, []]));
  if (post.targets.length === 0) return out;
  const ids = post.targets.map((t) => t.id);
  const rows = await run(app.db, app.dialect, attemptsOfTargets.of(ids.length), [actor.orgId, ...ids]);
  for (const r of rows) out.get(r.target_id)?.push(presentAttempt(r));
  return out;
}
