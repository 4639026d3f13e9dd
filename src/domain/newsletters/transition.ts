// Moving an issue from one status to the next in the caller's transaction: the row changes only if it is still
// in one of the expected statuses (two requests at once: the second sees the first's outcome and is refused),
// its deliveries follow, and the event and audit row are written with it.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import type { DeliveryStatus, IssueStatus, NewslettersTable } from "../../db/tables/newsletters.ts";
import type { ServiceError } from "../../lib/errors.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { recordEvent, scopeOf } from "../events/record.ts";
import { inProgress } from "./handed-off.ts";
import { presentedIssue } from "./load.ts";

export interface Transition {
  from: readonly IssueStatus[];
  refuse: () => ServiceError;
  set: Partial<NewslettersTable> & { status: IssueStatus };
  deliveries?: DeliveryStatus;
  event: string;
  action: string;
  detail?: Record<string, unknown> | null;
}

export async function transition(tx: Tx, app: App, actor: Actor, cur: NewslettersTable, t: Transition) {
  if (!t.from.includes(cur.status)) throw t.refuse();
  const now = app.clock.now();
  const set = { ...t.set, updated_at: now };
  const r = await tx
    .updateTable("newsletters")
    .set(set)
    .where("id", "=", cur.id)
    .where("status", "=", cur.status)
    // A hand-off that started meanwhile holds the issue: the change waits for it.
    .where((eb) => eb.or([eb("handoff_lease_until", "is", null), eb("handoff_lease_until", "<", now)]))
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) {
    const lease = await tx
      .selectFrom("newsletters")
      .select("handoff_lease_until")
      .where("id", "=", cur.id)
      .executeTakeFirst();
    if (lease?.handoff_lease_until && lease.handoff_lease_until >= now) throw inProgress();
    throw t.refuse();
  }
  if (t.deliveries)
    await tx
      .updateTable("newsletter_deliveries")
      .set({ status: t.deliveries, updated_at: now })
      .where("newsletter_id", "=", cur.id)
      // A delivery that failed stays failed.
      .where("status", "!=", "failed")
      .execute();
  const row = { ...cur, ...set };
  const presented = await presentedIssue(tx, row);
  // The notification of an approval request names who asked, so it is not sent to them.
  const object =
    t.event === "newsletter.approval_requested"
      ? { ...presented, requested_by: cur.created_by_user }
      : presented;
  await recordEvent(tx, app, scopeOf(actor), t.event, object);
  await audit(tx, app, actor, { action: t.action, target: cur.id, detail: t.detail ?? null });
  return presented;
}
