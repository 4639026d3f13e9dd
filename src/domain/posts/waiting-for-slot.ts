// How many of a brand's posts wait for approval without a time: approving one gives it the brand's next slot, so
// the queue's week names them beside the slots. One count over posts_brand_time (org, mode, brand, publish_at):
// their publish_at is null, which the index finds directly, rather than walking the brand's posts for a status.
import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadBrand } from "../brands/service.ts";

export async function countWaitingForSlot(app: App, actor: Actor, brandRef: string): Promise<number> {
  requireScope(actor, "posts:read");
  const brand = await loadBrand(app.db, actor, brandRef, "brand");
  const r = await app.db
    .selectFrom("posts")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0)
    .where("brand_id", "=", brand.id)
    .where("publish_at", "is", null)
    .where("status", "=", "pending_approval")
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
