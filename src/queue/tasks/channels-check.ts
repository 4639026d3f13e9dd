// channels.check (hourly run; each live channel is checked once a day): verifies credentials with the network and
// marks refused ones needs_reauth with `channel.needs_reauth` (src/domain/channels/check.ts).
import type { TaskDef } from "../tasks.ts";

export const channelsCheck: TaskDef = {
  name: "channels.check",
  schedule: "0 20 * * * *",
  timeoutMs: 30 * 60_000,
  async run(app) {
    // Loaded when the hourly run first fires: an idle process never needs it (docs/performance.md).
    const { checkDueChannels } = await import("../../domain/channels/check.ts");
    const counts = await checkDueChannels(app, 500);
    if (counts.needs_reauth || counts.unavailable) app.log.info("channels checked", counts);
  },
};
