// notifications.send (every minute): notification emails owed now, immediate or the 08:00 summary, through the
// mail outbox (src/domain/notifications/send.ts).
import type { TaskDef } from "../tasks.ts";

export const notificationsSend: TaskDef = {
  name: "notifications.send",
  schedule: "0 * * * * *",
  timeoutMs: 10 * 60_000,
  async run(app) {
    // Loaded at the first run, not at start (the mail views and the summaries come with it).
    const { sendNotifications } = await import("../../domain/notifications/send.ts");
    await sendNotifications(app);
  },
};
