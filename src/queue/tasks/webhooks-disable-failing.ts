// webhooks.disable_failing (every 10 min): an endpoint whose every attempt failed for 72 h is disabled, with the
// event webhook_endpoint.disabled (delivered to the org's other endpoints) and an audit row. Emailing the org's
// admins needs the mailer, which this build does not have yet.
import { adminActor } from "../../domain/actor.ts";
import { audit } from "../../domain/audit/service.ts";
import { recordEvent } from "../../domain/events/record.ts";
import { DISABLE_AFTER_MS } from "../../domain/webhooks/backoff.ts";
import { presentEndpoint } from "../../domain/webhooks/present.ts";
import type { TaskDef } from "../tasks.ts";

export const webhooksDisableFailing: TaskDef = {
  name: "webhooks.disable_failing",
  schedule: "0 */10 * * * *",
  timeoutMs: 5 * 60_000,
  async run(app) {
    const now = app.clock.now();
    const bound = now - DISABLE_AFTER_MS;
    const failing = await app.db
      .selectFrom("webhook_endpoints")
      .selectAll()
      .where("status", "=", "enabled")
      .where("failing_since", "<=", bound)
      .execute();
    let disabled = 0;
    for (const e of failing) {
      const done = await app.db.transaction().execute(async (tx) => {
        const r = await tx
          .updateTable("webhook_endpoints")
          .set({ status: "disabled", disabled_reason: "failing", updated_at: now })
          .where("id", "=", e.id)
          .where("status", "=", "enabled")
          .where("failing_since", "<=", bound)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) return false;
        const row = { ...e, status: "disabled" as const, disabled_reason: "failing", updated_at: now };
        const actor = {
          ...adminActor(e.org_id, "task webhooks.disable_failing", new Set(), e.livemode === 1),
          requestId: "task",
        };
        await recordEvent(
          tx,
          app,
          { orgId: e.org_id, livemode: e.livemode === 1, requestId: null },
          "webhook_endpoint.disabled",
          presentEndpoint(row),
        );
        await audit(tx, app, actor, {
          action: "webhook_endpoint.disable",
          target: e.id,
          detail: { reason: "failing", failing_since: new Date(e.failing_since!).toISOString() },
        });
        return true;
      });
      if (done) disabled++;
    }
    if (disabled > 0) {
      app.signals.emit("events");
      app.signals.emit("webhooks");
    }
  },
};
