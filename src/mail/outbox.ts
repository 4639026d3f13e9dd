// The mail outbox: account notices are written in the transaction of the change they report (so a rolled-back
// change sends nothing), sent right after commit, and retried after 1, 5, 30 minutes, then 2, 6, 12 hours, then
// dropped; a permanent SMTP refusal (5xx) drops at once (interface.md Notifications). Sending never blocks or
// undoes the change: failures are logged and kept on the row.

import type { Db, Tx } from "../db/index.ts";
import { newId } from "../lib/ids.ts";
import type { MailHost } from "./host.ts";
import { isPermanentSmtpError, mailerOf } from "./mailer.ts";
import type { MailView } from "./views.ts";

export const RETRY_AFTER_MS = [1, 5, 30, 120, 360, 720].map((m) => m * 60_000);
/** A row being sent is leased this long, so two processes do not send it twice. */
const LEASE_MS = 2 * 60_000;

export async function enqueueMail(
  tx: Tx | Db,
  app: MailHost,
  m: { userId: string | null; to: string; kind: string; view: MailView; headers?: Record<string, string> },
): Promise<string> {
  const now = app.clock.now();
  const id = newId("mail", now);
  await tx
    .insertInto("mail_outbox")
    .values({
      id,
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
      headers: m.headers ? JSON.stringify(m.headers) : null,
    })
    .execute();
  return id;
}

/** Sent rows are recorded this many at a time: a crash re-sends at most these after the lease. */
const RECORD_EVERY = 10;

/**
 * Sends every due row once; returns how many were sent. Safe to run in several processes at once: the due rows
 * are claimed in one statement (moving next_attempt_at past the lease), and each process sends only what its
 * claim returned. Successes are recorded in small groups, failures one by one.
 */
export async function deliverDueMail(app: MailHost, limit = 50): Promise<number> {
  const mailer = mailerOf(app);
  if (!mailer) return 0;
  const now = app.clock.now();
  const due = await app.db
    .selectFrom("mail_outbox")
    .select("id")
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", now)
    .orderBy("next_attempt_at")
    .limit(limit)
    .execute();
  if (due.length === 0) return 0;
  const rows = await app.db
    .updateTable("mail_outbox")
    .set({ next_attempt_at: now + LEASE_MS })
    .where(
      "id",
      "in",
      due.map((d) => d.id),
    )
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", now)
    .returningAll()
    .execute();
  rows.sort((a, b) => (a.id < b.id ? -1 : 1));
  let sent = 0;
  let done: { id: string; attempts: number }[] = [];
  const record = async () => {
    if (done.length === 0) return;
    const ids = done.map((d) => d.id);
    done = [];
    await app.db
      .updateTable("mail_outbox")
      .set((eb) => ({
        status: "sent",
        attempts: eb("attempts", "+", 1),
        sent_at: app.clock.now(),
        next_attempt_at: null,
        last_error: null,
      }))
      .where("id", "in", ids)
      .execute();
  };
  for (const row of rows) {
    const attempts = row.attempts + 1;
    try {
      await mailer.send({
        to: row.to_address,
        subject: row.subject,
        text: row.body_text,
        html: row.body_html,
        ...(row.headers ? { headers: JSON.parse(row.headers) as Record<string, string> } : {}),
      });
      done.push({ id: row.id, attempts });
      sent++;
      if (done.length >= RECORD_EVERY) await record();
    } catch (e) {
      const giveUp = isPermanentSmtpError(e) || attempts > RETRY_AFTER_MS.length;
      const error = e instanceof Error ? e.message : String(e);
      app.log.warn("sending mail failed", { mail: row.id, kind: row.kind, attempts, error, dropped: giveUp });
      await app.db
        .updateTable("mail_outbox")
        .set({
          status: giveUp ? "failed" : "pending",
          attempts,
          last_error: error.slice(0, 500),
          next_attempt_at: giveUp ? null : app.clock.now() + RETRY_AFTER_MS[attempts - 1]!,
        })
        .where("id", "=", row.id)
        .execute();
    }
  }
  await record();
  return sent;
}

/** After a commit that queued mail: send now, in the background; errors are logged, never thrown. */
export function kickMail(app: MailHost): Promise<void> {
  if (!mailerOf(app)) return Promise.resolve();
  return deliverDueMail(app).then(
    () => {},
    (e) => app.log.warn("mail outbox run failed", { error: String(e) }),
  );
}
