// requests.prune (hourly): the request log keeps 14 days; access.denied throttle marks keep a few minutes. The
// log is written in batches after the requests, so a request in flight while its org was deleted can land after
// the deletion: rows of recent hours whose org is gone are removed too.
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
      .deleteFrom("request_log")
      .where("created_at", ">=", now - 2 * 3600_000)
      .where("org_id", "not in", app.db.selectFrom("orgs").select("id"))
      .execute();
    await app.db
      .deleteFrom("audit_throttle")
      .where("created_at", "<", now - 5 * 60_000)
      .execute();
  },
};
