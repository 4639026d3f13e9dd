// An issue by ID in the actor's org and mode (and brand for a brand-limited key), with its deliveries.
import type { Db, Tx } from "../../db/index.ts";
import type { NewslettersTable } from "../../db/tables/newsletters.ts";
import { notFound } from "../../lib/errors.ts";
import { type Actor, brandVisible } from "../actor.ts";
import { rowInScope } from "../scope.ts";
import { type DeliveryRow, presentIssue } from "./present.ts";

export async function loadIssue(db: Db | Tx, actor: Actor, id: string): Promise<NewslettersTable> {
  const row = await rowInScope(db, actor, "newsletters", "nl", id);
  if (!row || !brandVisible(actor, row.brand_id)) throw notFound(`No newsletter issue ${id}.`, "id");
  return row;
}

export async function deliveriesOf(db: Db | Tx, issueIds: string[]): Promise<DeliveryRow[]> {
  if (issueIds.length === 0) return [];
  return db
    .selectFrom("newsletter_deliveries")
    .innerJoin("mail_accounts", "mail_accounts.id", "newsletter_deliveries.mail_account_id")
    .selectAll("newsletter_deliveries")
    .select("mail_accounts.provider")
    .where("newsletter_deliveries.newsletter_id", "in", issueIds)
    .execute();
}

export async function presentedIssue(db: Db | Tx, row: NewslettersTable) {
  return presentIssue(row, await deliveriesOf(db, [row.id]));
}
