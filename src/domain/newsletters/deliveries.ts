// The deliveries of an issue as given: each mail account once (delivery_duplicate), of the issue's brand and the
// caller's mode (mail_account_unknown), not waiting for new credentials (mail_account_needs_reauth), with audiences
// given or the account's defaults (audience_missing), each of which the provider has (audience_unknown). The
// providers are asked outside any transaction.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import type { MailAccountsTable } from "../../db/tables/newsletters.ts";
import { invalid, type Problem, problem } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { type Actor, brandVisible } from "../actor.ts";
import { checkAudiences, openCredentials, providerFor } from "../mail-accounts/provider.ts";
import { rowInScope } from "../scope.ts";

export interface GivenDelivery {
  mail_account: string;
  audiences?: string[] | undefined;
}

export interface CheckedDelivery {
  account: MailAccountsTable;
  audiences: string[];
}

export async function checkDeliveries(
  app: App,
  actor: Actor,
  brandId: string,
  given: readonly GivenDelivery[],
): Promise<CheckedDelivery[]> {
  const problems: Problem[] = [];
  const out: CheckedDelivery[] = [];
  const seen = new Set<string>();
  for (const [i, d] of given.entries()) {
    const param = `deliveries.${i}`;
    const account = await rowInScope(app.db, actor, "mail_accounts", "mailacct", d.mail_account);
    if (!account || account.brand_id !== brandId || !brandVisible(actor, account.brand_id)) {
      problems.push(
        problem(
          "mail_account_unknown",
          `No mail account ${d.mail_account} of this brand.`,
          `${param}.mail_account`,
        ),
      );
      continue;
    }
    if (seen.has(account.id)) {
      problems.push(
        problem("delivery_duplicate", `Mail account ${account.id} is listed twice.`, `${param}.mail_account`),
      );
      continue;
    }
    seen.add(account.id);
    if (account.status === "needs_reauth") {
      problems.push(
        problem(
          "mail_account_needs_reauth",
          `Mail account ${account.id} needs new credentials before an issue can go through it.`,
          `${param}.mail_account`,
        ),
      );
      continue;
    }
    const audiences = [...new Set(d.audiences ?? (JSON.parse(account.default_audiences) as string[]))];
    if (audiences.length === 0) {
      problems.push(
        problem(
          "audience_missing",
          `Name the audiences for mail account ${account.id}; it has no default audiences.`,
          `${param}.audiences`,
        ),
      );
      continue;
    }
    out.push({ account, audiences });
  }
  if (problems.length) throw invalid(problems);
  for (const [i, d] of out.entries()) {
    const p = providerFor(actor, d.account.provider);
    await checkAudiences(
      app,
      p,
      await openCredentials(app, d.account),
      d.audiences,
      `deliveries.${i}.audiences`,
    );
  }
  return out;
}

/** Replaces the issue's deliveries with these (a draft's; nothing has reached a provider). */
export async function writeDeliveries(
  tx: Tx,
  issue: { id: string; org_id: string; livemode: 0 | 1 },
  list: readonly CheckedDelivery[],
  now: number,
): Promise<void> {
  await tx.deleteFrom("newsletter_deliveries").where("newsletter_id", "=", issue.id).execute();
  if (list.length === 0) return;
  await tx
    .insertInto("newsletter_deliveries")
    .values(
      list.map((d, position) => ({
        id: newId("nldel", now),
        newsletter_id: issue.id,
        org_id: issue.org_id,
        livemode: issue.livemode,
        mail_account_id: d.account.id,
        position,
        audiences: JSON.stringify(d.audiences),
        status: "draft" as const,
        campaign_id: null,
        handoff_started_at: null,
        error: null,
        results: null,
        results_next_at: null,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}
