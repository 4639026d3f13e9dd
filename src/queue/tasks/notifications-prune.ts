// notifications.prune (daily): read notifications go after 90 days, the others after a year (interface.md); used
// unsubscribe links are forgotten once no link that old can still be valid.
import { LINK_TTL_MS } from "../../domain/notifications/types.ts";
import type { TaskDef } from "../tasks.ts";

const DAY_MS = 86400_000;

export const notificationsPrune: TaskDef = {
  name: "notifications.prune",
  schedule: "0 20 3 * * *",
  timeoutMs: 10 * 60_000,
  async run(app) {
    const now = app.clock.now();
    await app.db
      .deleteFrom("notifications")
      .where("read_at", "is not", null)
      .where("created_at", "<", now - 90 * DAY_MS)
      .execute();
    await app.db
      .deleteFrom("notifications")
      .where("created_at", "<", now - 365 * DAY_MS)
      .execute();
    await app.db
      .deleteFrom("unsubscribe_uses")
      .where("used_at", "<", now - LINK_TTL_MS)
      .execute();
  },
};
