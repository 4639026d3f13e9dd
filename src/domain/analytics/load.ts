// Finding an analytics source in the actor's org and mode (others look missing).
import type { Db, Tx } from "../../db/index.ts";
import type { AnalyticsSourcesTable } from "../../db/tables/insights.ts";
import { badRequest, notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { type Actor, brandVisible } from "../actor.ts";

export async function loadAnalyticsSource(
  db: Db | Tx,
  actor: Actor,
  id: string,
): Promise<AnalyticsSourcesTable> {
  if (!isId("anlsrc", id))
    throw badRequest("parameter_invalid", "An analytics source ID starts with anlsrc_.", "id");
  const row = await db
    .selectFrom("analytics_sources")
    .selectAll()
    .where("id", "=", id)
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0)
    .executeTakeFirst();
  if (!row || !brandVisible(actor, row.brand_id))
    throw notFound(`No analytics source ${id} in this org and mode.`);
  return row;
}
