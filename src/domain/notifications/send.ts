// notifications.send: hands what is owed an email to the mail outbox, which sends it and retries after 1, 5, 30
// minutes, then 2, 6, 12 hours, and drops it after that or at once on a permanent (5xx) refusal. Immediate
// notifications go one email each; the rest wait for the person's daily summary at 08:00 in their time zone, one
// email per org. At most 30 notification emails per person per hour: the rest are marked suppressed and stay in
// the dashboard. Each email carries List-Unsubscribe with RFC 8058's one-click POST and a signed footer link.

import { sql } from "kysely";
import type { App } from "../../app/context.ts";
import { insertRows } from "../../db/insert-rows.ts";
import type { MailOutboxTable } from "../../db/tables/identity.ts";
import type { NotificationEmail } from "../../db/tables/notifications.ts";
import { mailerOf } from "../../mail/mailer.ts";
import { deliverDueMail } from "../../mail/outbox.ts";
import { type MailView, mailView } from "../../mail/views.ts";
import { inTx } from "../tx.ts";
import { absoluteLink } from "./present.ts";
import { nextSummaryAt } from "./summary-time.ts";
import { type NotificationType, TYPE_LABEL } from "./types.ts";
import { loadUnsubscribeKey, unsubscribeToken, unsubscribeUrls } from "./unsubscribe.ts";

export const HOURLY_CAP = 30;
const HOUR_MS = 3600_000;
const BATCH = 500;
/** Summary rows read per run; a person's rows past it go in a second summary a minute later. */
const DIGEST_BATCH = 20_000;

interface Owed {
  id: string;
  org_id: string;
  user_id: string;
  type: string;
  subject: string;
  body: string;
  link: string;
  created_at: number;
  email: NotificationEmail;
  to: string;
  org_name: string;
}

interface Message {
  userId: string;
  to: string;
  kind: string;
  view: MailView;
  headers: Record<string, string>;
  ids: string[];
  from: NotificationEmail;
  at: number;
}

const owedColumns = [
  "n.id",
  "n.org_id",
  "n.user_id",
  "n.type",
  "n.subject",
  "n.body",
  "n.link",
  "n.created_at",
  "n.email",
  "u.email as to",
  "o.name as org_name",
] as const;

function footerFor(app: App, userId: string, orgId: string, orgName: string, types: NotificationType[]) {
  const urls = unsubscribeUrls(app, unsubscribeToken(app, userId, orgId, types));
  const what = types.length === 1 ? `"${TYPE_LABEL[types[0]!]}"` : "these notifications";
  return {
    headers: {
      "List-Unsubscribe": `<${urls.oneClick}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
    footer: {
      text: `You get this email because email is on for ${what} in ${orgName}.`,
      link: { href: urls.page, label: "Turn these emails off" },
    },
  };
}

function immediateMessage(app: App, n: Owed): Message {
  const { headers, footer } = footerFor(app, n.user_id, n.org_id, n.org_name, [n.type as NotificationType]);
  return {
    userId: n.user_id,
    to: n.to,
    kind: `notification.${n.type}`,
    view: mailView(
      `[${n.org_name}] ${n.subject}`,
      [n.body],
      { href: absoluteLink(app.config.baseUrl, n.link), label: "Open in svc" },
      { footer },
    ),
    headers,
    ids: [n.id],
    from: "immediate",
    at: n.created_at,
  };
}

function summaryMessage(app: App, rows: Owed[]): Message {
  const first = rows[0]!;
  const types = [...new Set(rows.map((r) => r.type as NotificationType))];
  const { headers, footer } = footerFor(app, first.user_id, first.org_id, first.org_name, types);
  const count = rows.length === 1 ? "1 notification" : `${rows.length} notifications`;
  return {
    userId: first.user_id,
    to: first.to,
    kind: "notification.summary",
    view: mailView(
      `[${first.org_name}] Your daily summary: ${count}`,
      [`What needed you in ${first.org_name} since your last summary, oldest first.`],
      undefined,
      {
        items: rows.map((r) => ({
          title: r.subject,
          text: r.body,
          link: { href: absoluteLink(app.config.baseUrl, r.link), label: "Open in svc" },
        })),
        footer,
      },
    ),
    headers,
    ids: rows.map((r) => r.id),
    from: "digest",
    at: first.created_at,
  };
}

/** Queues what is owed now (immediate ones, and summaries whose 08:00 has come), then sends the outbox. */
export async function sendNotifications(
  app: App,
): Promise<{ queued: number; suppressed: number; sent: number }> {
  const out = { queued: 0, suppressed: 0, sent: 0 };
  if (!mailerOf(app)) return out;
  await loadUnsubscribeKey(app);
  for (;;) {
    const now = app.clock.now();
    const immediate = (await app.db
      .selectFrom("notifications as n")
      .innerJoin("users as u", "u.id", "n.user_id")
      .innerJoin("orgs as o", "o.id", "n.org_id")
      .select(owedColumns)
      .where("n.email", "=", "immediate")
      .orderBy("n.created_at")
      .limit(BATCH)
      .execute()) as Owed[];
    // Every row waiting for a summary, in one read (with its person's zone), grouped by person and org here: a
    // group is due once 08:00 in the person's zone has come since its oldest row.
    const waiting = (await app.db
      .selectFrom("notifications as n")
      .innerJoin("users as u", "u.id", "n.user_id")
      .innerJoin("orgs as o", "o.id", "n.org_id")
      .select([...owedColumns, "u.timezone"])
      .where("n.email", "=", "digest")
      .orderBy("n.created_at")
      .limit(DIGEST_BATCH)
      .execute()) as (Owed & { timezone: string })[];
    const groups = new Map<string, (Owed & { timezone: string })[]>();
    for (const r of waiting) {
      const key = `${r.user_id}|${r.org_id}`;
      const g = groups.get(key);
      if (g) g.push(r);
      else groups.set(key, [r]);
    }
    const messages = immediate.map((n) => immediateMessage(app, n));
    for (const rows of groups.values())
      if (now >= nextSummaryAt(rows[0]!.created_at, rows[0]!.timezone))
        messages.push(summaryMessage(app, rows.slice(0, 200)));
    if (messages.length === 0) break;
    messages.sort((x, y) => x.at - y.at);
    const r = await queue(app, messages, now);
    out.queued += r.queued;
    out.suppressed += r.suppressed;
    if (immediate.length < BATCH) break;
  }
  while (true) {
    const n = await deliverDueMail(app, 50);
    out.sent += n;
    if (n < 50) break;
  }
  return out;
}

/** A message's outbox ID: its first notification's, under the mail prefix (one immediate email per notification). */
const mailIdOf = (m: Message) => `mail_${m.ids[0]!.slice(4)}`;
const CHUNK = 200;

/**
 * In one transaction and a few statements per 200 messages: each message is queued, or suppressed when its person
 * had 30 this hour. The outbox rows go in multi-row inserts and the notifications are marked in one statement per
 * chunk (an immediate one's mail ID is its own ID under the mail prefix), so a run costs a handful of round trips
 * on Postgres rather than two per email.
 */
async function queue(app: App, messages: Message[], now: number) {
  const users = [...new Set(messages.map((m) => m.userId))];
  return inTx(app, async (tx) => {
    const counts = new Map<string, number>();
    for (let i = 0; i < users.length; i += 500) {
      const rows = await tx
        .selectFrom("mail_outbox")
        .select((eb) => ["user_id", eb.fn.countAll<number>().as("n")])
        .where("user_id", "in", users.slice(i, i + 500))
        .where("kind", "like", "notification.%")
        .where("created_at", ">", now - HOUR_MS)
        .groupBy("user_id")
        .execute();
      for (const r of rows) counts.set(r.user_id!, Number(r.n));
    }
    const mails: MailOutboxTable[] = [];
    const immediate: string[] = [];
    const summaries: Message[] = [];
    const suppressed: string[] = [];
    for (const m of messages) {
      const sentThisHour = counts.get(m.userId) ?? 0;
      if (sentThisHour >= HOURLY_CAP) {
        suppressed.push(...m.ids);
        continue;
      }
      counts.set(m.userId, sentThisHour + 1);
      mails.push({
        id: mailIdOf(m),
        user_id: m.userId,
        to_address: m.to,
        kind: m.kind,
        subject: m.view.subject,
        body_text: m.view.text,
        body_html: m.view.html,
        status: "pending",
        attempts: 0,
        next_attempt_at: now,
        last_error: null,
        created_at: now,
        sent_at: null,
        headers: JSON.stringify(m.headers),
      });
      if (m.from === "immediate") immediate.push(m.ids[0]!);
      else summaries.push(m);
    }
    for (let i = 0; i < mails.length; i += CHUNK)
      await insertRows(tx, app.dialect, "mail_outbox", mails.slice(i, i + CHUNK));
    for (let i = 0; i < immediate.length; i += CHUNK)
      await tx
        .updateTable("notifications")
        .set({ email: "queued", mail_id: sql<string>`'mail_' || substr(id, 5)` })
        .where("id", "in", immediate.slice(i, i + CHUNK))
        .where("email", "=", "immediate")
        .execute();
    for (const m of summaries)
      await tx
        .updateTable("notifications")
        .set({ email: "queued", mail_id: mailIdOf(m) })
        .where("id", "in", m.ids)
        .where("email", "=", "digest")
        .execute();
    for (let i = 0; i < suppressed.length; i += CHUNK)
      await tx
        .updateTable("notifications")
        .set({ email: "suppressed" })
        .where("id", "in", suppressed.slice(i, i + CHUNK))
        .where("email", "in", ["immediate", "digest"])
        .execute();
    return { queued: mails.length, suppressed: suppressed.length };
  });
}
