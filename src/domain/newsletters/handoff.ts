// newsletters.handoff: one day before send_at (at once when sooner) each delivery of a scheduled issue goes to its
// provider as a scheduled campaign, exactly once. The rules that make it once (as the publish worker's attempt
// rows do for posts):
// - an issue is claimed with a lease (handoff_lease_until), so two workers never hand the same issue off;
// - before a delivery's campaign is created the intent is committed (handoff_started_at) with the delivery's ID as
//   the campaign's marker;
// - a delivery whose intent is recorded but whose campaign is not (a worker died mid-way, the provider answered
//   5xx or the connection was cut after the request) is first looked for at the provider by that marker, and only
//   created when the provider has none. A provider that is down leaves the delivery queued; the issue is tried
//   again a minute later.
// Once send_at has passed, an issue whose deliveries were all handed off is sent (event newsletter.sent).
import type { App } from "../../app/context.ts";
import type { NewsletterDeliveriesTable, NewslettersTable } from "../../db/tables/newsletters.ts";
import { mailProvider } from "../../platforms/mail/registry.ts";
import type { MailContext } from "../../platforms/mail/types.ts";
import { recordEvent } from "../events/record.ts";
import { openCredentials } from "../mail-accounts/provider.ts";
import { inTx } from "../tx.ts";
import { renderFor } from "./email.ts";
import { presentedIssue } from "./load.ts";
import { sandboxCampaigns } from "./sandbox-campaigns.ts";

export const HANDOFF_LEASE_MS = 5 * 60_000;
export const HANDOFF_RETRY_MS = 60_000;
const CONCURRENCY = 16;
const BATCH = 500;

export interface HandoffRun {
  issues: number;
  created: number;
  reconciled: number;
  retry: number;
  failed: number;
}

/** Claims one due issue; false when another worker has it or it changed meanwhile. */
async function claim(app: App, id: string, now: number): Promise<boolean> {
  const r = await app.db
    .updateTable("newsletters")
    .set({ handoff_lease_until: now + HANDOFF_LEASE_MS })
    .where("id", "=", id)
    .where("status", "=", "scheduled")
    .where("handoff_due_at", "<=", now)
    .where((eb) => eb.or([eb("handoff_lease_until", "is", null), eb("handoff_lease_until", "<", now)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

async function setDelivery(app: App, id: string, set: Partial<NewsletterDeliveriesTable>) {
  await app.db
    .updateTable("newsletter_deliveries")
    .set({ ...set, updated_at: app.clock.now() })
    .where("id", "=", id)
    .execute();
}

async function handOffDelivery(
  app: App,
  issue: NewslettersTable,
  d: NewsletterDeliveriesTable,
  run: HandoffRun,
): Promise<void> {
  const account = await app.db
    .selectFrom("mail_accounts")
    .selectAll()
    .where("id", "=", d.mail_account_id)
    .executeTakeFirstOrThrow();
  const provider = mailProvider(account.provider);
  if (!provider) {
    run.failed++;
    return setDelivery(app, d.id, { status: "failed", error: `No mail provider ${account.provider}.` });
  }
  const creds = await openCredentials(app, account);
  const ctx: MailContext = { accountId: account.id, sandbox: sandboxCampaigns(app) };
  if (d.handoff_started_at !== null) {
    // An earlier try may have created it: look before creating.
    const found = await provider.findCampaign(app, creds, d.id, ctx);
    if (found.kind !== "ok") {
      run.retry++;
      return setDelivery(app, d.id, { error: found.message });
    }
    if (found.value !== null) {
      run.reconciled++;
      return setDelivery(app, d.id, { status: "handed_off", campaign_id: found.value, error: null });
    }
  } else {
    const r = await app.db
      .updateTable("newsletter_deliveries")
      .set({ handoff_started_at: app.clock.now() })
      .where("id", "=", d.id)
      .where("handoff_started_at", "is", null)
      .executeTakeFirst();
    // Another worker recorded the intent first (its lease ran out meanwhile): it reconciles next time.
    if (Number(r.numUpdatedRows) === 0) return;
  }
  const brand = await app.db
    .selectFrom("brands")
    .selectAll()
    .where("id", "=", issue.brand_id)
    .executeTakeFirstOrThrow();
  let html: string;
  try {
    html = (
      await renderFor(
        app,
        app.db,
        { orgId: issue.org_id, livemode: issue.livemode === 1 },
        brand,
        issue,
        provider,
        issue.id,
      )
    ).html;
  } catch (e) {
    run.failed++;
    return setDelivery(app, d.id, { status: "failed", error: e instanceof Error ? e.message : String(e) });
  }
  const a = await provider.createCampaign(
    app,
    creds,
    {
      marker: d.id,
      name: `${issue.subject.slice(0, 180)} (${issue.id})`,
      subject: issue.subject,
      previewText: issue.preview_text,
      html,
      fromName: account.from_name,
      fromEmail: account.from_email,
      replyTo: account.reply_to,
      audiences: JSON.parse(d.audiences) as string[],
      sendAt: issue.send_at ?? app.clock.now(),
    },
    ctx,
  );
  if (a.kind === "ok") {
    run.created++;
    return setDelivery(app, d.id, { status: "handed_off", campaign_id: a.value.campaignId, error: null });
  }
  if (a.kind === "rejected") {
    run.failed++;
    return setDelivery(app, d.id, { status: "failed", error: a.message });
  }
  run.retry++;
  return setDelivery(app, d.id, { error: a.message });
}

async function handOffIssue(app: App, issue: NewslettersTable, run: HandoffRun): Promise<void> {
  const deliveries = await app.db
    .selectFrom("newsletter_deliveries")
    .selectAll()
    .where("newsletter_id", "=", issue.id)
    .where("status", "=", "queued")
    .orderBy("position")
    .execute();
  for (const d of deliveries) await handOffDelivery(app, issue, d, run);
  const now = app.clock.now();
  await inTx(app, async (tx) => {
    const left = await tx
      .selectFrom("newsletter_deliveries")
      .select("status")
      .where("newsletter_id", "=", issue.id)
      .execute();
    const queued = left.some((x) => x.status === "queued");
    const allFailed = left.length > 0 && left.every((x) => x.status === "failed");
    const set: Partial<NewslettersTable> = {
      handoff_lease_until: null,
      handoff_due_at: queued ? now + HANDOFF_RETRY_MS : null,
      updated_at: now,
      ...(allFailed ? { status: "failed" as const } : {}),
    };
    await tx.updateTable("newsletters").set(set).where("id", "=", issue.id).execute();
    if (allFailed) {
      const row = { ...issue, ...set } as NewslettersTable;
      await recordEvent(
        tx,
        app,
        { orgId: issue.org_id, livemode: issue.livemode === 1, requestId: "newsletters.handoff" },
        "newsletter.failed",
        await presentedIssue(tx, row),
      );
    }
  });
}

/** Issues whose send time passed with every delivery handed off are sent; the providers send them. */
async function markSent(app: App, now: number): Promise<void> {
  const due = await app.db
    .selectFrom("newsletters")
    .selectAll()
    .where("status", "=", "scheduled")
    .where("handoff_due_at", "is", null)
    .where("send_at", "<=", now)
    .limit(BATCH)
    .execute();
  for (const issue of due) {
    await inTx(app, async (tx) => {
      const ds = await tx
        .selectFrom("newsletter_deliveries")
        .select("status")
        .where("newsletter_id", "=", issue.id)
        .execute();
      const handed = ds.filter((x) => x.status === "handed_off").length;
      if (handed === 0) return;
      const status = handed === ds.length ? ("sent" as const) : ("partially_sent" as const);
      const r = await tx
        .updateTable("newsletters")
        .set({ status, updated_at: now })
        .where("id", "=", issue.id)
        .where("status", "=", "scheduled")
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) return;
      await tx
        .updateTable("newsletter_deliveries")
        // The first reading of results an hour after sending (newsletters.read).
        .set({ status: "sent", results_next_at: (issue.send_at ?? now) + 3600_000, updated_at: now })
        .where("newsletter_id", "=", issue.id)
        .where("status", "=", "handed_off")
        .execute();
      await recordEvent(
        tx,
        app,
        { orgId: issue.org_id, livemode: issue.livemode === 1, requestId: "newsletters.handoff" },
        "newsletter.sent",
        await presentedIssue(tx, { ...issue, status, updated_at: now }),
      );
    });
  }
}

export async function handOffDue(app: App): Promise<HandoffRun> {
  const run: HandoffRun = { issues: 0, created: 0, reconciled: 0, retry: 0, failed: 0 };
  for (;;) {
    const now = app.clock.now();
    const due = await app.db
      .selectFrom("newsletters")
      .select("id")
      .where("status", "=", "scheduled")
      .where("handoff_due_at", "<=", now)
      .where((eb) => eb.or([eb("handoff_lease_until", "is", null), eb("handoff_lease_until", "<", now)]))
      .orderBy("handoff_due_at")
      .limit(BATCH)
      .execute();
    if (due.length === 0) break;
    let progressed = 0;
    const queue = [...due];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        if (!(await claim(app, next.id, now))) continue;
        const issue = await app.db
          .selectFrom("newsletters")
          .selectAll()
          .where("id", "=", next.id)
          .executeTakeFirstOrThrow();
        run.issues++;
        progressed++;
        try {
          await handOffIssue(app, issue, run);
        } catch (e) {
          // The lease runs out and the issue is tried again; what was recorded is reconciled then.
          app.log.warn("newsletters.handoff: an issue failed", { newsletter: issue.id, error: String(e) });
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    // Issues retried a minute later are not due again in this run.
    if (progressed === 0 || due.length < BATCH) break;
  }
  await markSent(app, app.clock.now());
  return run;
}
