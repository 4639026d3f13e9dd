// newsletters.handoff (every minute): gives due newsletter deliveries to their mail providers as scheduled
// campaigns, exactly once (src/domain/newsletters/handoff.ts).
import type { TaskDef } from "../tasks.ts";

export const newslettersHandoff: TaskDef = {
  name: "newsletters.handoff",
  schedule: "15 * * * * *",
  timeoutMs: 4 * 60_000,
  async run(app) {
    // Loaded when the task first runs, not at start.
    const { handOffDue } = await import("../../domain/newsletters/handoff.ts");
    await handOffDue(app);
  },
};
