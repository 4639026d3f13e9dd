// analytics.collect (every 10 min): reads analytics sources that are due — 30 days after connecting, then the
// last 7 daily (src/domain/analytics/collect.ts).
import type { TaskDef } from "../tasks.ts";

export const analyticsCollect: TaskDef = {
  name: "analytics.collect",
  schedule: "0 */10 * * * *",
  timeoutMs: 540_000,
  async run(app) {
    const { collectDueAnalyticsSources } = await import("../../domain/analytics/collect.ts");
    await collectDueAnalyticsSources(app);
  },
};
