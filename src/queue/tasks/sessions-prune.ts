// sessions.prune (hourly): dashboard sessions are deleted a day after they expired.
import { pruneSessions } from "../../domain/identity/sessions/service.ts";
import type { TaskDef } from "../tasks.ts";

export const sessionsPrune: TaskDef = {
  name: "sessions.prune",
  schedule: "0 20 * * * *",
  timeoutMs: 5 * 60_000,
  async run(app) {
    await pruneSessions(app);
  },
};
