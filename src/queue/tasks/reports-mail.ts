// reports.mail (hourly): in the first 7 days of a month in each brand's zone, the brand's monthly report email to
// its recipients, once per month (src/domain/reports/mail.ts); the mail outbox sends what it queues.
import type { TaskDef } from "../tasks.ts";

export const reportsMail: TaskDef = {
  name: "reports.mail",
  schedule: "0 5 * * * *",
  timeoutMs: 10 * 60_000,
  async run(app) {
    // Loaded at the first run, not at start (the report sections and the mail views come with it).
    const { mailReports } = await import("../../domain/reports/mail.ts");
    const { deliverDueMail } = await import("../../mail/outbox.ts");
    if ((await mailReports(app)) > 0) while ((await deliverDueMail(app, 50)) === 50) {}
  },
};
