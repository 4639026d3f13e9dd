// idempotency.prune (hourly): keys are kept 24 hours.
import { IDEMPOTENCY_TTL_MS } from "../../domain/idempotency/service.ts";
import type { TaskDef } from "../tasks.ts";

export const idempotencyPrune: TaskDef = {
  name: "idempotency.prune",
  schedule: "0 10 * * * *",
  timeoutMs: 5 * 60_000,
  async run(app) {
    await app.db
      .deleteFrom("idempotency_keys")
      .where("created_at", "<", app.clock.now() - IDEMPOTENCY_TTL_MS)
      .execute();
  },
};
