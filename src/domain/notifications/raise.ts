// Raising notifications: one row per recipient, written in the transaction of the change that caused it (so a
// rolled-back change notifies nobody). Whether and how each is emailed is decided here from the recipient's
// preferences, so notifications.send only reads rows already owed an email. Raising must stay cheap for the
// request that causes it: a listed batch is two statements (one preference look-up, one insert); a described
// batch (the events hook) on Postgres is one (raiseAtOnce), where the same decision is made in SQL.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { insertRows } from "../../db/insert-rows.ts";
import { type PendingWrites, raw } from "../../db/raw.ts";
import { raiseForEvents } from "../../db/sql/notification-recipients.ts";
import { run } from "../../db/sql/statement.ts";
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

/**
 * A notification whose recipients are described rather than listed (the events hook), so that on Postgres the
 * look-ups and the insert run as one statement (raiseAtOnce).
 */
export interface DescribedNotification {
  item: Omit<NewNotification, "recipients">;
  /** The post whose author is a recipient (`authorIn`) or else is left out (the person who asked). */
  authorPost: string | null;
  authorIn: boolean;
  /** The org's admins and owners hear of it. */
  admins: boolean;
  /** Left out of the admins (the person who caused it). */
  exceptUser: string | null;
  /** The daily limit: dropped when one of its type about its object was raised after this time. */
  since: number | null;
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

/** The statement's text (Postgres), which opens with `WITH ` for the pending writes to join. */
const raiseText = (): string => {
  const t = raiseForEvents.postgres!;
  if (!t.startsWith("WITH ")) throw new Error("raiseForEvents must open with WITH");
  return t;
};

/** IDs made for an org's admins before their number is known: the last number seen per org, else this many. */
const FIRST_GUESS = 16;
const adminsSeen = new Map<string, number>();

/**
 * Raises described notifications in one statement (raiseForEvents: recipients, their preferences, the daily
 * limit and the insert). The rows' IDs are made here, as every ID is, before the statement knows how many
 * recipients there are: each item takes as many as its org had admins last time (unused ones are simply never
 * used); when an item has more recipients, the statement inserts nothing and says how many, and it runs once more.
 */
export async function raiseAtOnce(
  tx: Tx,
  app: App,
  described: DescribedNotification[],
  /** Writes of the same transaction still to run (the events' insert): the first try runs them as its CTEs. */
  carry?: PendingWrites,
): Promise<number> {
  const mail = mailerOf(app) !== null;
  const now = app.clock.now();
  let need = described.map(
    (d) =>
      (d.authorIn && d.authorPost ? 1 : 0) + (d.admins ? (adminsSeen.get(d.item.orgId) ?? FIRST_GUESS) : 0),
  );
  for (;;) {
    const ids: string[] = [];
    const idStart: number[] = [];
    for (const n of need) {
      idStart.push(ids.length);
      for (let j = 0; j < n; j++) ids.push(newId("ntf", now));
    }
    const items = described.map((d, k) => ({
      k,
      org_id: d.item.orgId,
      type: d.item.type,
      object_id: d.item.objectId,
      subject: d.item.subject.slice(0, 200),
      body: d.item.body.slice(0, 2000),
      link: d.item.link,
      author_post: d.authorPost,
      author_in: d.authorIn,
      except_user: d.exceptUser,
      admins: d.admins,
      since: d.since,
      email_default: EMAIL_DEFAULT[d.item.type],
      id_start: idStart[k],
      id_count: need[k],
    }));
    const params: [string, string[], boolean, number] = [JSON.stringify(items), ids, mail, now];
    let rows: { k: number; wanted: number; inserted: number }[];
    if (carry && carry.texts.length > 0) {
      // One statement for the event and what it raises: the pending writes become CTEs before the statement's
      // own (data-modifying CTEs must be at the top level); their parameters come first.
      const text = `WITH ${carry.texts.map((t, i) => `w${i} AS (${t})`).join(", ")}, ${raiseText().slice(5)}`;
      const before = carry.params;
      carry.texts = [];
      carry.params = [];
      carry.postIds = [];
      rows = await raw(tx, app.dialect, text, [...before, ...params]);
    } else rows = await run(tx, app.dialect, raiseForEvents, params);
    const wanted = new Map(rows.map((r) => [Number(r.k), Number(r.wanted)]));
    for (const [k, n] of wanted) {
      const d = described[k]!;
      if (d.admins) {
        if (adminsSeen.size >= 10_000) adminsSeen.clear();
        adminsSeen.set(d.item.orgId, n);
      }
    }
    const total = rows.reduce((sum, r) => sum + Number(r.wanted), 0);
    if (total === 0 || Number(rows[0]!.inserted) === total) return total;
    // Members joined since the guess: one more try with room for each (and a few more).
    need = described.map((_, k) => (wanted.get(k) ?? 0) + 4);
  }
}
