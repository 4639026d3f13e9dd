// sessions.prune (hourly): dashboard sessions are deleted a day after they expired, and counts of secret guesses
// a day after they were last touched (no window or pause lasts that long).
import { pruneGuesses } from "../../domain/identity/guesses/guard.ts";
import { pruneSessions } from "../../domain/identity/sessions/service.ts";
import type { TaskDef } from "../tasks.ts";

export const sessionsPrune: TaskDef = {
  name: "sessions.prune",
  schedule: "0 20 * * * *",
  timeoutMs: 5 * 60_000,
  async run(app) {
    await pruneSessions(app);
    await pruneGuesses(app);
  },
};
