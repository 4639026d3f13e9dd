// A mail account by ID in the actor's org and mode (and brand, for a brand-limited key); others look missing.
import type { Db, Tx } from "../../db/index.ts";
import type { MailAccountsTable } from "../../db/tables/newsletters.ts";
import { notFound } from "../../lib/errors.ts";
import { type Actor, brandVisible } from "../actor.ts";
import { rowInScope } from "../scope.ts";

export async function loadMailAccount(
  db: Db | Tx,
  actor: Actor,
  id: string,
  param = "id",
): Promise<MailAccountsTable> {
  const row = await rowInScope(db, actor, "mail_accounts", "mailacct", id);
  if (!row || !brandVisible(actor, row.brand_id)) throw notFound(`No mail account ${id}.`, param);
  return row;
}
