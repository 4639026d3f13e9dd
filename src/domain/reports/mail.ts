// reports.mail: within the first 7 days of a month in the brand's zone, each brand with recipients gets a share
// link to its previous month (live mode), and each address one email with it, once per month. An address's
// last_sent_month is set in the transaction that queues its email, by a conditional update, so a second run (or a
// second worker) finds nothing owed. Needs SMTP: without it nothing is queued and nothing marked sent.
import type { App } from "../../app/context.ts";
import { iso } from "../../lib/clock.ts";
import { localParts } from "../../lib/zoned.ts";
import { mailerOf } from "../../mail/mailer.ts";
import { enqueueMail } from "../../mail/outbox.ts";
import { mailView } from "../../mail/views.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { inTx } from "../tx.ts";
import { buildReport, type Report } from "./build.ts";
import { lastMonth, monthPeriod } from "./period.ts";
import { insertShareLink, shareLinkUrl } from "./share.ts";
import {
  loadReportUnsubscribeKey,
  recipientUnsubscribeToken,
  recipientUnsubscribeUrls,
} from "./unsubscribe.ts";

const MAIL_DAYS = 7;
const TASK = "reports.mail";

/** The task's audit actor: it acts in the live mode of the brand's org, as no member and no key. */
const taskActor = (orgId: string): Actor => ({
  kind: "operator",
  orgId,
  livemode: true,
  scopes: new Set(),
  brandId: null,
  apiKeyId: null,
  keyScopes: null,
  keyExpiresAt: null,
  userId: null,
  userTokenId: null,
  role: null,
  operator: TASK,
  requestId: `task-${TASK}`,
});

const monthName = (month: string) =>
  new Date(`${month}-01T12:00:00Z`).toLocaleString("en-US", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });

type Figure = { value: number; previous: number };
const change = (f: Figure) =>
  f.previous === 0
    ? ""
    : ` (${f.value >= f.previous ? "+" : ""}${Math.round(((f.value - f.previous) / f.previous) * 100)}% on the period before)`;

/** The email's few headline figures, as plain sentences. */
function headlines(report: Report): string[] {
  const s = report.sections as Record<string, Record<string, unknown> | null>;
  const out: string[] = [];
  const posts = s.posts?.posts as Figure | undefined;
  if (posts) out.push(`Posts published: ${posts.value}${change(posts)}.`);
  const total = s.engagement?.total as Figure | undefined;
  if (total) out.push(`Engagement (likes, reposts, replies, quotes): ${total.value}${change(total)}.`);
  if (out.length === 0) out.push("Nothing was published this month.");
  return out;
}

/** One run: returns how many emails it queued. */
export async function mailReports(app: App): Promise<number> {
  if (!mailerOf(app)) return 0;
  const now = app.clock.now();
  const brands = await app.db
    .selectFrom("report_recipients as r")
    .innerJoin("brands as b", "b.id", "r.brand_id")
    .innerJoin("orgs as o", "o.id", "r.org_id")
    .select(["b.id", "b.org_id", "b.name", "b.slug", "b.timezone", "o.name as org_name"])
    .where("o.status", "!=", "suspended")
    .groupBy(["b.id", "b.org_id", "b.name", "b.slug", "b.timezone", "o.name"])
    .execute();
  let queued = 0;
  await loadReportUnsubscribeKey(app);
  for (const brand of brands) {
    if (localParts(now, brand.timezone).day > MAIL_DAYS) continue;
    const month = lastMonth(now, brand.timezone);
    const owed = await app.db
      .selectFrom("report_recipients")
      .select("email")
      .where("brand_id", "=", brand.id)
      .where((eb) => eb.or([eb("last_sent_month", "is", null), eb("last_sent_month", "!=", month)]))
      .orderBy("email")
      .execute();
    if (owed.length === 0) continue;
    const report = await buildReport(
      app,
      "share_link",
      { id: brand.org_id, livemode: true },
      brand,
      monthPeriod(month, brand.timezone),
    );
    queued += await inTx(app, async (tx) => {
      const { row, token } = await insertShareLink(tx, app, {
        org_id: brand.org_id,
        brand_id: brand.id,
        livemode: 1,
        month,
        created_by_task: TASK,
      });
      await audit(tx, app, taskActor(brand.org_id), {
        action: "report.share",
        target: row.id,
        detail: { brand: brand.id, month, expires_at: iso(row.expires_at) },
      });
      const url = shareLinkUrl(app, token);
      let n = 0;
      for (const r of owed) {
        const marked = await tx
          .updateTable("report_recipients")
          .set({ last_sent_month: month })
          .where("brand_id", "=", brand.id)
          .where("email", "=", r.email)
          .where((eb) => eb.or([eb("last_sent_month", "is", null), eb("last_sent_month", "!=", month)]))
          .executeTakeFirst();
        if (Number(marked.numUpdatedRows) === 0) continue;
        const urls = recipientUnsubscribeUrls(app, recipientUnsubscribeToken(app, brand.id, r.email));
        await enqueueMail(tx, app, {
          userId: null,
          to: r.email,
          kind: "report.monthly",
          headers: {
            "List-Unsubscribe": `<${urls.oneClick}>`,
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          },
          view: mailView(
            `${brand.name}: your report for ${monthName(month)}`,
            [
              `Here is ${brand.name}'s report for ${monthName(month)}, from ${brand.org_name}.`,
              ...headlines(report),
              "The link works for 30 days and needs no account.",
            ],
            { href: url, label: "Open the report" },
            {
              footer: {
                text: `You get this email because ${brand.org_name} added ${r.email} to ${brand.name}'s monthly report.`,
                link: { href: urls.page, label: "Unsubscribe" },
              },
            },
          ),
        });
        n++;
      }
      return n;
    });
  }
  return queued;
}
