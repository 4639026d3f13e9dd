// The report's `newsletters` section: the brand's issues sent in the period and what their providers reported
// (sends, opens, clicks, unsubscribes, bounces: counts only, as newsletters.read stored them), beside the previous
// period. Null when the brand sent no issue in either. Registered in src/boot.ts.
import type { App } from "../../app/context.ts";
import type { IssueStatus } from "../../db/tables/newsletters.ts";
import type { MailResults } from "../../platforms/mail/types.ts";
import { type Pair, pair } from "../insights/report-period.ts";
import type { ReportSectionInput } from "../reports/sections.ts";

const FIGURES = ["sent", "opens", "clicks", "unsubscribes", "bounces"] as const;
type Figure = (typeof FIGURES)[number];
/** An issue counts once it went out: sent, or sent through some of its mail accounts. */
const WENT_OUT: IssueStatus[] = ["sent", "partially_sent"];

interface Issue {
  id: string;
  subject: string;
  send_at: number;
  totals: Record<Figure, number>;
}

async function issuesIn(app: App, i: ReportSectionInput, since: number, until: number): Promise<Issue[]> {
  const rows = await app.db
    .selectFrom("newsletters")
    .leftJoin("newsletter_deliveries", "newsletter_deliveries.newsletter_id", "newsletters.id")
    .select(["newsletters.id", "newsletters.subject", "newsletters.send_at", "newsletter_deliveries.results"])
    .where("newsletters.org_id", "=", i.orgId)
    .where("newsletters.livemode", "=", i.livemode ? 1 : 0)
    .where("newsletters.brand_id", "=", i.brandId)
    .where("newsletters.status", "in", WENT_OUT)
    .where("newsletters.send_at", ">=", since)
    .where("newsletters.send_at", "<", until)
    .orderBy("newsletters.send_at")
    .execute();
  const issues = new Map<string, Issue>();
  for (const r of rows) {
    let issue = issues.get(r.id);
    if (!issue) {
      issue = {
        id: r.id,
        subject: r.subject,
        send_at: Number(r.send_at),
        totals: { sent: 0, opens: 0, clicks: 0, unsubscribes: 0, bounces: 0 },
      };
      issues.set(r.id, issue);
    }
    if (!r.results) continue; // not read yet (the first reading is an hour after sending)
    const res = JSON.parse(r.results) as Partial<MailResults>;
    for (const f of FIGURES) issue.totals[f] += Number(res[f] ?? 0);
  }
  return [...issues.values()];
}

const sum = (issues: Issue[], f: Figure) => issues.reduce((n, x) => n + x.totals[f], 0);

export async function newslettersReportSection(app: App, i: ReportSectionInput): Promise<object | null> {
  const [now, before] = await Promise.all([
    issuesIn(app, i, i.since, i.until),
    issuesIn(app, i, i.previousSince, i.previousUntil),
  ]);
  if (now.length === 0 && before.length === 0) return null;
  const totals = Object.fromEntries(FIGURES.map((f) => [f, pair(sum(now, f), sum(before, f))])) as Record<
    Figure,
    Pair
  >;
  return {
    issues: pair(now.length, before.length),
    ...totals,
    list: now.map((x) => ({
      id: x.id,
      subject: x.subject,
      send_at: new Date(x.send_at).toISOString(),
      ...x.totals,
    })),
  };
}
