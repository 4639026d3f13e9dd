// webhooks.reclaim (every 30 s): a delivery whose lease ran out lost its worker mid-attempt. The attempt is
// logged as failed and the delivery follows the usual backoff (or fails after 72 h), so one that keeps killing
// its worker cannot loop forever.
import { recordOutcomes } from "../../domain/webhooks/outcome.ts";
import type { TaskDef } from "../tasks.ts";

const BATCH = 100;

export const webhooksReclaim: TaskDef = {
  name: "webhooks.reclaim",
  schedule: "*/30 * * * * *",
  timeoutMs: 25_000,
  async run(app) {
    for (;;) {
      const now = app.clock.now();
      const lost = await app.db
        .selectFrom("webhook_deliveries")
        .selectAll()
        .where("status", "=", "delivering")
        .where("leased_until", "<", now)
        .orderBy("leased_until")
        .limit(BATCH)
        .execute();
      let moved = 0;
      for (const d of lost) {
        const recorded = await app.db.transaction().execute((tx) =>
          recordOutcomes(
            tx,
            app.dialect,
            [
              {
                delivery: d,
                outcome: {
                  startedAt: now,
                  status: null,
                  body: null,
                  error: "worker_lost: the worker stopped during the attempt; outcome unknown",
                  durationMs: 0,
                },
              },
            ],
            d.lease_owner,
          ),
        );
        moved += recorded;
      }
      if (moved > 0) app.signals.emit("webhooks");
      if (lost.length < BATCH) return;
    }
  },
};
