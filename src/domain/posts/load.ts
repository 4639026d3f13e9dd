// Finding posts and targets in the actor's org and mode; anything else looks missing.
import type { Db, Tx } from "../../db/index.ts";
import type { PostsTable, PostTargetsTable } from "../../db/tables/posts.ts";
import { notFound } from "../../lib/errors.ts";
import { type Actor, brandVisible } from "../actor.ts";
import { rowInScope } from "../scope.ts";
import { presentPost } from "./present.ts";

export async function loadPost(db: Db | Tx, actor: Actor, id: string, param = "id"): Promise<PostsTable> {
  const row = await rowInScope(db, actor, "posts", "post", id);
  if (!row || !brandVisible(actor, row.brand_id)) throw notFound(`No post ${id}.`, param);
  return row;
}

export async function targetsOf(db: Db | Tx, postIds: string[]): Promise<Map<string, PostTargetsTable[]>> {
  const out = new Map<string, PostTargetsTable[]>();
  if (postIds.length === 0) return out;
  const rows = await db
    .selectFrom("post_targets")
    .selectAll()
    .where("post_id", "in", postIds)
    .orderBy("id")
    .execute();
  for (const t of rows) out.set(t.post_id, [...(out.get(t.post_id) ?? []), t]);
  return out;
}

export async function loadTarget(
  db: Db | Tx,
  actor: Actor,
  id: string,
): Promise<{ target: PostTargetsTable; post: PostsTable }> {
  const target = await rowInScope(db, actor, "post_targets", "ptgt", id);
  if (!target) throw notFound(`No post target ${id}.`, "id");
  const post = await db
    .selectFrom("posts")
    .selectAll()
    .where("id", "=", target.post_id)
    .executeTakeFirstOrThrow();
  if (!brandVisible(actor, post.brand_id)) throw notFound(`No post target ${id}.`, "id");
  return { target, post };
}

/** A post as it stands now in this transaction, presented with its targets (what an action answers and records). */
export async function presentedPost(db: Db | Tx, id: string) {
  const post = await db.selectFrom("posts").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  return presentPost(post, (await targetsOf(db, [id])).get(id) ?? []);
}
