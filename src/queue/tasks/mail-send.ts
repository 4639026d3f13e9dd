// mail.send (every 30 s): sends queued account notices whose next attempt is due (retries after 1, 5, 30 min,
// 2, 6, 12 h). A notice is first tried right after the change commits; this task picks up what that missed.
import { deliverDueMail } from "../../mail/outbox.ts";
import type { TaskDef } from "../tasks.ts";

export const mailSend: TaskDef = {
  name: "mail.send",
  schedule: "*/30 * * * * *",
  timeoutMs: 5 * 60_000,
  async run(app) {
    while ((await deliverDueMail(app, 50)) === 50) {}
  },
};
