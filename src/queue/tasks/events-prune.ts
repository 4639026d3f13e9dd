// events.prune (hourly): events are kept 30 days, and so are webhook deliveries (their attempts go with them).
// Event IDs sort by creation time, so the old events are an ID range of the unique ID index: events needs no
// index on created_at (one B-tree less to write for every event, migration 0007).
import { EVENT_RETENTION_MS } from "../../domain/events/service.ts";
import { idAtTime } from "../../lib/ids.ts";
import type { TaskDef } from "../tasks.ts";

export const eventsPrune: TaskDef = {
  name: "events.prune",
  schedule: "0 15 * * * *",
  timeoutMs: 10 * 60_000,
  async run(app) {
    const before = app.clock.now() - EVENT_RETENTION_MS;
    await app.db.deleteFrom("webhook_deliveries").where("created_at", "<", before).execute();
    await app.db.deleteFrom("events").where("id", "<", idAtTime("evt", before)).execute();
  },
};
