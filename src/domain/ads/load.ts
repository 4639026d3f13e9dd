// Finding an ad account in the actor's org and mode (another org's, the other mode's and a hidden brand's look
// missing).
import type { Db, Tx } from "../../db/index.ts";
import type { AdAccountsTable } from "../../db/tables/insights.ts";
import { badRequest, notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { type Actor, brandVisible } from "../actor.ts";

export async function loadAdAccount(
  db: Db | Tx,
  actor: Actor,
  id: string,
  param?: string,
): Promise<AdAccountsTable> {
  if (!isId("adacct", id))
    throw badRequest("parameter_invalid", "An ad account ID starts with adacct_.", param ?? "id");
  const row = await db
    .selectFrom("ad_accounts")
    .selectAll()
    .where("id", "=", id)
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0)
    .executeTakeFirst();
  if (!row || !brandVisible(actor, row.brand_id))
    throw notFound(`No ad account ${id} in this org and mode.`, param);
  return row;
}
