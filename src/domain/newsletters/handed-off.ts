// What the hand-off means for changes (interface.md "Newsletters"): until the deliveries are handed off, moving,
// unscheduling and canceling are local; while a worker hands them off every change waits (handoff_in_progress);
// when some are handed off and others not yet, the issue is partly with its providers and changes are refused
// (issue_partly_sent) until the hand-off completes; afterwards moving and canceling also reach each provider.
import type { App } from "../../app/context.ts";
import type { NewslettersTable } from "../../db/tables/newsletters.ts";
import { conflict } from "../../lib/errors.ts";
import { mailProvider } from "../../platforms/mail/registry.ts";
import type { MailAnswer, MailContext, MailCredentials, MailProvider } from "../../platforms/mail/types.ts";
import { openCredentials, unavailable } from "../mail-accounts/provider.ts";
import { deliveriesOf } from "./load.ts";
import type { DeliveryRow } from "./present.ts";
import { sandboxCampaigns } from "./sandbox-campaigns.ts";

export const inProgress = () =>
  conflict(
    "handoff_in_progress",
    "The issue is being handed to its mail providers right now; try again in a minute.",
  );

export const partlySent = () =>
  conflict(
    "issue_partly_sent",
    "Some deliveries of this issue are with their providers and others are not yet; wait for the hand-off to finish.",
  );

export type HandoffState = { kind: "local" } | { kind: "handed_off"; deliveries: DeliveryRow[] };

/** Refuses while a hand-off runs or is half done; says whether the providers hold the deliveries. */
export async function handoffState(app: App, issue: NewslettersTable): Promise<HandoffState> {
  if (issue.handoff_lease_until !== null && issue.handoff_lease_until > app.clock.now()) throw inProgress();
  const ds = (await deliveriesOf(app.db, [issue.id])).filter((d) => d.status !== "canceled");
  const handed = ds.filter((d) => d.status === "handed_off");
  if (handed.length === 0) return { kind: "local" };
  if (handed.length < ds.filter((d) => d.status !== "failed").length) throw partlySent();
  return { kind: "handed_off", deliveries: handed };
}

/** Applies a change to every handed-off campaign; 503 provider_unavailable when a provider cannot be reached. */
export async function reachProviders(
  app: App,
  deliveries: readonly DeliveryRow[],
  op: (
    p: MailProvider,
    creds: MailCredentials,
    campaignId: string,
    ctx: MailContext,
  ) => Promise<MailAnswer<true>>,
): Promise<void> {
  for (const d of deliveries) {
    const account = await app.db
      .selectFrom("mail_accounts")
      .selectAll()
      .where("id", "=", d.mail_account_id)
      .executeTakeFirstOrThrow();
    const p = mailProvider(account.provider);
    if (!p || d.campaign_id === null) continue;
    const a = await op(p, await openCredentials(app, account), d.campaign_id, {
      accountId: account.id,
      sandbox: sandboxCampaigns(app),
    });
    if (a.kind !== "ok") throw unavailable(p, a.message);
  }
}
