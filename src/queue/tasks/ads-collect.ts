// ads.collect (every 10 min): reads ad accounts that are due — 30 days after connecting, then the last 7 daily
// (src/domain/ads/collect.ts).
import type { TaskDef } from "../tasks.ts";

export const adsCollect: TaskDef = {
  name: "ads.collect",
  schedule: "0 */10 * * * *",
  timeoutMs: 540_000,
  async run(app) {
    // Loaded when the task first fires, not at start.
    const { collectDueAdAccounts } = await import("../../domain/ads/collect.ts");
    await collectDueAdAccounts(app);
  },
};
