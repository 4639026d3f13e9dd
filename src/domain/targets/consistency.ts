// Posts out of step with their targets: a post whose targets are all finished must carry the status derived from
// them, and a post in a final status must have exactly one event announcing it. The queue benchmark and the
// concurrency tests end with this check; an operator can run it too.
import type { Db } from "../../db/index.ts";
import { derivePostStatus, postEventFor } from "./post-status.ts";

const FINISHED = ["published", "failed", "canceled"];
const FINAL_EVENTS = ["post.published", "post.partially_published", "post.failed", "post.canceled"];

export interface PostConsistency {
  /** Posts whose targets are all finished but whose status is not the one derived from them. */
  stuck: string[];
  /** Posts in a final status without the event announcing it. */
  missingEvent: string[];
  /** Posts with the same final event (post.published, …partially_published, …failed, …canceled) twice. */
  duplicateEvent: string[];
  /** Final events written, all posts together. */
  finalEvents: number;
}

export async function checkPostConsistency(db: Db, orgId?: string): Promise<PostConsistency> {
  let posts = db.selectFrom("posts").select(["id", "status"]);
  let targets = db.selectFrom("post_targets").select(["post_id", "status"]);
  let events = db.selectFrom("events").select(["type", "data"]).where("type", "in", FINAL_EVENTS);
  if (orgId) {
    posts = posts.where("org_id", "=", orgId);
    targets = targets.where("org_id", "=", orgId);
    events = events.where("org_id", "=", orgId);
  }
  const byPost = new Map<string, string[]>();
  for (const t of await targets.execute())
    byPost.set(t.post_id, [...(byPost.get(t.post_id) ?? []), t.status]);
  const announced = new Map<string, string[]>();
  const evs = await events.execute();
  for (const e of evs) {
    const id = (JSON.parse(e.data) as { object: { id: string } }).object.id;
    announced.set(id, [...(announced.get(id) ?? []), e.type]);
  }
  const out: PostConsistency = { stuck: [], missingEvent: [], duplicateEvent: [], finalEvents: evs.length };
  for (const p of await posts.execute()) {
    const ts = byPost.get(p.id) ?? [];
    if (ts.length && ts.every((s) => FINISHED.includes(s)) && derivePostStatus(p.status, ts) !== p.status)
      out.stuck.push(p.id);
    const event = postEventFor(p.status as never);
    const got = announced.get(p.id) ?? [];
    if (event && !got.includes(event)) out.missingEvent.push(p.id);
    if (new Set(got).size < got.length) out.duplicateEvent.push(p.id);
  }
  return out;
}
