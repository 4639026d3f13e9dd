// Raising notifications: one row per recipient, written in the transaction of the change that caused it (so a
// rolled-back change notifies nobody). Whether and how each is emailed is decided here from the recipient's
// preferences, so notifications.send only reads rows already owed an email. Kept to two statements for any batch
// (one preference look-up, one insert): raising must stay cheap for the request that causes it.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { insertRows } from "../../db/insert-rows.ts";
import type { NotificationEmail, NotificationsTable } from "../../db/tables/notifications.ts";
import { newId } from "../../lib/ids.ts";
import { mailerOf } from "../../mail/mailer.ts";
import { EMAIL_DEFAULT, type NotificationType } from "./types.ts";

export interface NewNotification {
  orgId: string;
  type: NotificationType;
  /** What it is about (post, target, channel, member): the daily limit per channel reads it. */
  objectId: string | null;
  subject: string;
  body: string;
  /** A dashboard path, such as /posts/post_…; made absolute when presented and emailed. */
  link: string;
  /** User IDs; duplicates are dropped. */
  recipients: string[];
}

/** A preference already read with the recipients (`user|org|type`); null: none set, the default applies. */
export type KnownPreferences = Map<string, { email: number | null; delivery: string | null } | null>;

export async function raiseNotifications(
  tx: Tx,
  app: App,
  items: NewNotification[],
  known: KnownPreferences = new Map(),
): Promise<number> {
  const wanted = items.filter((n) => n.recipients.length > 0);
  if (wanted.length === 0) return 0;
  const prefOf: KnownPreferences = new Map(known);
  // Only recipients whose preference was not read with them cost a look-up.
  const unknown = wanted.flatMap((n) =>
    n.recipients.filter((u) => !prefOf.has(`${u}|${n.orgId}|${n.type}`)).map((u) => [u, n.orgId] as const),
  );
  if (unknown.length) {
    const prefs = await tx
      .selectFrom("notification_preferences")
      .select(["user_id", "org_id", "type", "email", "delivery"])
      .where("user_id", "in", [...new Set(unknown.map(([u]) => u))])
      .where("org_id", "in", [...new Set(unknown.map(([, o]) => o))])
      .execute();
    for (const p of prefs) prefOf.set(`${p.user_id}|${p.org_id}|${p.type}`, p);
  }
  // Without SMTP nothing is owed an email: a mail server configured later does not get a year's backlog.
  const mail = mailerOf(app) !== null;
  const now = app.clock.now();
  const rows: NotificationsTable[] = [];
  for (const n of wanted) {
    for (const userId of new Set(n.recipients)) {
      const p = prefOf.get(`${userId}|${n.orgId}|${n.type}`);
      const on = p && p.email !== null ? Number(p.email) === 1 : EMAIL_DEFAULT[n.type];
      const email: NotificationEmail =
        !mail || !on ? "none" : p?.delivery === "daily" ? "digest" : "immediate";
      rows.push({
        id: newId("ntf", now),
        org_id: n.orgId,
        user_id: userId,
        type: n.type,
        object_id: n.objectId,
        subject: n.subject.slice(0, 200),
        body: n.body.slice(0, 2000),
        link: n.link,
        email,
        mail_id: null,
        read_at: null,
        created_at: now,
      });
    }
  }
  // Plain text in chunks (each a bounded number of parameters): building Kysely's tree for every row cost more
  // than inserting it.
  for (let i = 0; i < rows.length; i += 500)
    await insertRows(tx, app.dialect, "notifications", rows.slice(i, i + 500));
  return rows.length;
}
