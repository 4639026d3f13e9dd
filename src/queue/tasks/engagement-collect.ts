// engagement.collect (every 2 min): reads published targets' engagement when due (src/domain/engagement).
import type { TaskDef } from "../tasks.ts";

export const engagementCollect: TaskDef = {
  name: "engagement.collect",
  schedule: "0 */2 * * * *",
  timeoutMs: 110_000,
  async run(app) {
    // Loaded when the task first fires, not at start.
    const { collectDue } = await import("../../domain/engagement/collect.ts");
    await collectDue(app);
  },
};
