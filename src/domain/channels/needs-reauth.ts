// How many channels the actor can see need reconnecting: the dashboard shows it on every page (the frame's
// banner), so it is one count over the partial index channels_needs_reauth (migration 0034). The status is
// written into the SQL as a literal: a partial index serves only a query whose WHERE states its condition, and a
// bound parameter would not.
import { sql } from "kysely";
import type { App } from "../../app/context.ts";
import type { Actor } from "../actor.ts";

/** An Actor, or the org and mode of a session before its member is looked up (the count runs beside that). */
type Scope = Pick<Actor, "orgId" | "livemode"> & { brandId?: string | null };

export async function countChannelsNeedingReauth(app: App, actor: Scope): Promise<number> {
  let q = app.db
    .selectFrom("channels")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0)
    .where(sql<boolean>`status = 'needs_reauth'`);
  if (actor.brandId) q = q.where("brand_id", "=", actor.brandId);
  const r = await q.executeTakeFirstOrThrow();
  return Number(r.n);
}
