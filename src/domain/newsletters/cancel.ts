// POST /v1/newsletters/{id}/cancel: an issue not sent yet is canceled for good; its images are no longer held.
import type { App } from "../../app/context.ts";
import { conflict } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { inTx } from "../tx.ts";
import { handoffState, reachProviders } from "./handed-off.ts";
import { loadIssue } from "./load.ts";
import { transition } from "./transition.ts";

export async function cancelIssue(app: App, actor: Actor, id: string) {
  requireScope(actor, "newsletters:write");
  const before = await loadIssue(app.db, actor, id);
  if (before.status === "scheduled") {
    const state = await handoffState(app, before);
    // Handed off: each provider's campaign is canceled first, then the issue.
    if (state.kind === "handed_off")
      await reachProviders(app, state.deliveries, (p, creds, campaign, ctx) =>
        p.cancelCampaign(app, creds, campaign, ctx),
      );
  }
  return inTx(app, async (tx) => {
    const out = await transition(tx, app, actor, await loadIssue(tx, actor, id), {
      from: ["draft", "pending_approval", "scheduled"],
      refuse: () => conflict("issue_not_cancelable", "The issue is sent, failed or canceled already."),
      set: { status: "canceled", handoff_due_at: null },
      deliveries: "canceled",
      event: "newsletter.canceled",
      action: "newsletter.cancel",
    });
    await tx.deleteFrom("media_holds").where("holder", "=", out.id).execute();
    return out;
  });
}
