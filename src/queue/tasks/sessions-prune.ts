// sessions.prune (hourly): dashboard sessions are deleted a day after they expired, and counts of secret guesses
// a day after they were last touched (no window or pause lasts that long).
import type { TaskDef } from "../tasks.ts";

export const sessionsPrune: TaskDef = {
  name: "sessions.prune",
  schedule: "0 20 * * * *",
  timeoutMs: 5 * 60_000,
  async run(app) {
    // Loaded when the hourly run first fires, not at start.
    const [{ pruneSessions }, { pruneGuesses }] = await Promise.all([
      import("../../domain/identity/sessions/service.ts"),
      import("../../domain/identity/guesses/guard.ts"),
    ]);
    await pruneSessions(app);
    await pruneGuesses(app);
  },
};
