// Approve and reject (the brand's approval policy, as for posts): only an issue waiting for approval
// (issue_not_pending), by a credential holding posts:approve, never the one who asked (the same rules as a post's
// review). Approving schedules it; rejecting returns it to draft with the note.
import type { App } from "../../app/context.ts";
import { conflict, forbidden } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { isActingCredential } from "../identity/api-keys/service.ts";
import { isRequester, reviewer } from "../posts/review.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { loadIssue } from "./load.ts";
import { handoffDue } from "./schedule.ts";
import { Review } from "./schema.ts";
import { transition } from "./transition.ts";

const notPending = () =>
  conflict("issue_not_pending", "Only an issue waiting for approval can be approved or rejected.");

async function review(app: App, actor: Actor, id: string, input: unknown, approve: boolean) {
  requireScope(actor, "posts:approve");
  const b = parse(Review, input);
  const now = app.clock.now();
  return inTx(app, async (tx) => {
    const cur = await loadIssue(tx, actor, id);
    if (cur.status !== "pending_approval") throw notPending();
    if (await isActingCredential(tx, actor, cur.created_by_key))
      throw forbidden(
        "forbidden",
        "A key cannot review an issue it (or a key it was rolled from or to) created.",
      );
    if (isRequester(actor, cur))
      throw forbidden("forbidden", "You asked for this issue's approval; another admin or owner reviews it.");
    // A post's reviewer may be a client review link; an issue's never is, and its table has no such column.
    const { updated_at: _, reviewed_by_link: _link, ...who } = reviewer(actor, now, b.note);
    return transition(tx, app, actor, cur, {
      from: ["pending_approval"],
      refuse: notPending,
      set: approve
        ? { ...who, status: "scheduled", handoff_due_at: handoffDue(cur.send_at ?? now, now) }
        : { ...who, status: "draft", send_at: null, handoff_due_at: null },
      deliveries: approve ? "queued" : "draft",
      event: approve ? "newsletter.approved" : "newsletter.rejected",
      action: approve ? "newsletter.approve" : "newsletter.reject",
      detail: b.note ? { note: b.note } : null,
    });
  });
}

export const approveIssue = (app: App, actor: Actor, id: string, input: unknown) =>
  review(app, actor, id, input, true);
export const rejectIssue = (app: App, actor: Actor, id: string, input: unknown) =>
  review(app, actor, id, input, false);
