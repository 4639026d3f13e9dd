// requests.prune (hourly): the request log keeps 14 days; access.denied throttle marks keep a few minutes.
import type { TaskDef } from "../tasks.ts";

export const requestsPrune: TaskDef = {
  name: "requests.prune",
  schedule: "0 5 * * * *",
  timeoutMs: 5 * 60_000,
  async run(app) {
    const now = app.clock.now();
    await app.db
      .deleteFrom("request_log")
      .where("created_at", "<", now - 14 * 86400_000)
      .execute();
    await app.db
      .deleteFrom("audit_throttle")
      .where("created_at", "<", now - 5 * 60_000)
      .execute();
  },
};
