// newsletters.read (every 5 minutes): reads sent newsletters' results from their providers
// (src/domain/newsletters/read-results.ts).
import type { TaskDef } from "../tasks.ts";

export const newslettersRead: TaskDef = {
  name: "newsletters.read",
  schedule: "40 */5 * * * *",
  timeoutMs: 4 * 60_000,
  async run(app) {
    // Loaded when the task first runs, not at start.
    const { readResults } = await import("../../domain/newsletters/read-results.ts");
    await readResults(app);
  },
};
