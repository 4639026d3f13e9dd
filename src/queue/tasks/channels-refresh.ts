// channels.refresh (hourly): renews sign-in channels' tokens that expire within 7 days, each under a lock on its
// channel row so two workers never use one refresh token twice (src/domain/connect/renew.ts).
import type { TaskDef } from "../tasks.ts";

export const channelsRefresh: TaskDef = {
  name: "channels.refresh",
  schedule: "0 40 * * * *",
  timeoutMs: 30 * 60_000,
  async run(app) {
    // Loaded when the hourly run first fires (with the OAuth client behind it).
    const { renewDueTokens } = await import("../../domain/connect/renew.ts");
    const counts = await renewDueTokens(app, 500);
    if (counts.renewed || counts.refused || counts.unavailable) app.log.info("tokens renewed", counts);
  },
};
