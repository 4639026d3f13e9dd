// notifications.send (every minute): notification emails owed now, immediate or the 08:00 summary, through the
// mail outbox (src/domain/notifications/send.ts).
import { sendNotifications } from "../../domain/notifications/send.ts";
import type { TaskDef } from "../tasks.ts";

export const notificationsSend: TaskDef = {
  name: "notifications.send",
  schedule: "0 * * * * *",
  timeoutMs: 10 * 60_000,
  async run(app) {
    await sendNotifications(app);
  },
};
