// POST /v1/newsletters/{id}/schedule {send_at}: a draft is scheduled (or waits for approval when the brand's
// policy asks, as a post would); a scheduled issue is moved. send_at is 2 minutes to one year ahead; the brand
// must have a postal address and the issue a delivery. newsletters.handoff gives the deliveries to their
// providers one day before send_at, or at once when that is sooner.
import type { App } from "../../app/context.ts";
import { conflict, invalid, problem } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { themeOf } from "../brands/email-theme.ts";
import { loadBrand } from "../brands/service.ts";
import { needsApproval } from "../posts/approval.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { handoffState, reachProviders } from "./handed-off.ts";
import { deliveriesOf, loadIssue } from "./load.ts";
import { Schedule } from "./schema.ts";
import { transition } from "./transition.ts";

export const MIN_LEAD_MS = 2 * 60_000;
export const MAX_AHEAD_MS = 366 * 86400_000;
export const HANDOFF_BEFORE_MS = 86400_000;

export const handoffDue = (sendAt: number, now: number) => Math.max(now, sendAt - HANDOFF_BEFORE_MS);

export function parseSendAt(raw: string, now: number): number {
  const ok = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i.test(raw);
  const t = ok ? Date.parse(raw) : Number.NaN;
  if (!Number.isFinite(t) || t < now + MIN_LEAD_MS || t > now + MAX_AHEAD_MS)
    throw invalid([
      problem(
        "send_at_invalid",
        "send_at must be an RFC 3339 time from 2 minutes to one year ahead.",
        "send_at",
      ),
    ]);
  return t;
}

const notSchedulable = () =>
  conflict("issue_not_schedulable", "Only a draft or scheduled issue can be scheduled or moved.");

export async function scheduleIssue(app: App, actor: Actor, id: string, input: unknown) {
  requireScope(actor, "newsletters:write");
  const b = parse(Schedule, input);
  const now = app.clock.now();
  const sendAt = parseSendAt(b.send_at, now);
  const before = await loadIssue(app.db, actor, id);
  const state =
    before.status === "scheduled" ? await handoffState(app, before) : ({ kind: "local" } as const);
  // Handed off: each provider's campaign moves first (outside any transaction), then the issue.
  if (state.kind === "handed_off")
    await reachProviders(app, state.deliveries, (p, creds, campaign, ctx) =>
      p.moveCampaign(app, creds, campaign, sendAt, ctx),
    );
  return inTx(app, async (tx) => {
    const cur = await loadIssue(tx, actor, id);
    if (cur.status !== "draft" && cur.status !== "scheduled") throw notSchedulable();
    const brand = await loadBrand(tx, actor, cur.brand_id);
    const problems = [];
    if (!themeOf(brand).postal_address)
      problems.push(
        problem(
          "postal_address_missing",
          "Set the brand's postal address (POST /v1/brands/{id}/email_theme) first; every newsletter carries it.",
          "brand",
        ),
      );
    if ((await deliveriesOf(tx, [cur.id])).length === 0)
      problems.push(
        problem(
          "deliveries_missing",
          "Add at least one delivery (a mail account and its audiences).",
          "deliveries",
        ),
      );
    if (problems.length) throw invalid(problems);
    if (cur.status === "scheduled")
      return transition(tx, app, actor, cur, {
        from: ["scheduled"],
        refuse: notSchedulable,
        set: {
          status: "scheduled",
          send_at: sendAt,
          handoff_due_at: state.kind === "handed_off" ? null : handoffDue(sendAt, now),
        },
        event: "newsletter.rescheduled",
        action: "newsletter.reschedule",
        detail: { send_at: new Date(sendAt).toISOString() },
      });
    const approval = needsApproval(null, brand.approval_policy, actor);
    return transition(tx, app, actor, cur, {
      from: ["draft"],
      refuse: notSchedulable,
      set: approval
        ? { status: "pending_approval", send_at: sendAt, handoff_due_at: null, approval_required: 1 }
        : {
            status: "scheduled",
            send_at: sendAt,
            handoff_due_at: handoffDue(sendAt, now),
            approval_required: 0,
          },
      deliveries: approval ? "held" : "queued",
      event: approval ? "newsletter.approval_requested" : "newsletter.scheduled",
      action: "newsletter.schedule",
      detail: { send_at: new Date(sendAt).toISOString(), approval },
    });
  });
}
