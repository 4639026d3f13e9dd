// oauth.prune (hourly, reference §6): expired sign-ins are deleted (src/domain/connect/prune.ts).
import type { TaskDef } from "../tasks.ts";

export const oauthPrune: TaskDef = {
  name: "oauth.prune",
  schedule: "0 25 * * * *",
  timeoutMs: 5 * 60_000,
  async run(app) {
    // Loaded when the hourly run first fires, not at start.
    const { pruneSignIns } = await import("../../domain/connect/prune.ts");
    await pruneSignIns(app);
  },
};
