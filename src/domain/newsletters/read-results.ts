// newsletters.read (every 5 minutes): the results of sent deliveries (sends, opens, clicks, unsubscribes,
// bounces: counts only) read from each provider 1 hour, 1, 3, 7 and 30 days after sending, kept on the delivery
// with when they were read. A provider that cannot answer is asked again at the next run.
import type { App } from "../../app/context.ts";
import { mailProvider } from "../../platforms/mail/registry.ts";
import { openCredentials } from "../mail-accounts/provider.ts";
import { sandboxCampaigns } from "./sandbox-campaigns.ts";

const HOUR = 3600_000;
const DAY = 24 * HOUR;
export const READINGS_AFTER_MS = [HOUR, DAY, 3 * DAY, 7 * DAY, 30 * DAY];

/** The next reading after `now` for an issue sent at `sentAt`; null after the last. */
export function nextReading(sentAt: number, now: number): number | null {
  for (const after of READINGS_AFTER_MS) if (sentAt + after > now) return sentAt + after;
  return null;
}

export async function readResults(app: App, limit = 200): Promise<number> {
  const now = app.clock.now();
  const due = await app.db
    .selectFrom("newsletter_deliveries")
    .innerJoin("newsletters", "newsletters.id", "newsletter_deliveries.newsletter_id")
    .innerJoin("mail_accounts", "mail_accounts.id", "newsletter_deliveries.mail_account_id")
    .selectAll("mail_accounts")
    .select([
      "newsletter_deliveries.id as delivery_id",
      "newsletter_deliveries.campaign_id as campaign_id",
      "newsletters.send_at as send_at",
    ])
    .where("newsletter_deliveries.results_next_at", "<=", now)
    .where("newsletter_deliveries.status", "=", "sent")
    .limit(limit)
    .execute();
  let read = 0;
  for (const d of due) {
    const p = mailProvider(d.provider);
    if (!p || d.campaign_id === null) continue;
    const a = await p.results(app, await openCredentials(app, d), d.campaign_id, {
      accountId: d.id,
      sandbox: sandboxCampaigns(app),
    });
    if (a.kind !== "ok") {
      app.log.warn("newsletters.read: results not read", { delivery: d.delivery_id, reason: a.message });
      continue;
    }
    read++;
    await app.db
      .updateTable("newsletter_deliveries")
      .set({
        results: JSON.stringify({ ...a.value, read_at: new Date(now).toISOString() }),
        results_next_at: nextReading(d.send_at ?? now, now),
        updated_at: now,
      })
      .where("id", "=", d.delivery_id)
      .execute();
  }
  return read;
}
