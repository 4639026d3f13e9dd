// POST /v1/newsletters/{id}/unschedule: a scheduled issue (or one waiting for approval) returns to draft.
import type { App } from "../../app/context.ts";
import { conflict } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { inTx } from "../tx.ts";
import { handoffState } from "./handed-off.ts";
import { loadIssue } from "./load.ts";
import { transition } from "./transition.ts";

export async function unscheduleIssue(app: App, actor: Actor, id: string) {
  requireScope(actor, "newsletters:write");
  const before = await loadIssue(app.db, actor, id);
  if (before.status === "scheduled" && (await handoffState(app, before)).kind === "handed_off")
    throw conflict(
      "issue_not_scheduled",
      "The issue is with its mail providers already: move it (schedule) or cancel it instead.",
    );
  return inTx(app, async (tx) =>
    transition(tx, app, actor, await loadIssue(tx, actor, id), {
      from: ["scheduled", "pending_approval"],
      refuse: () =>
        conflict(
          "issue_not_scheduled",
          "Only a scheduled issue (or one waiting for approval) returns to draft.",
        ),
      set: { status: "draft", send_at: null, handoff_due_at: null },
      deliveries: "draft",
      event: "newsletter.unscheduled",
      action: "newsletter.unschedule",
    }),
  );
}
