// identity.prune (hourly): device sign-ins and reset links a day past their end, invitations a month past theirs,
// and sent or dropped account notices after 30 days. None of them is of use after that.
import type { TaskDef } from "../tasks.ts";

const DAY = 86400_000;

export const identityPrune: TaskDef = {
  name: "identity.prune",
  schedule: "0 25 * * * *",
  timeoutMs: 5 * 60_000,
  async run(app) {
    const now = app.clock.now();
    await app.db
      .deleteFrom("device_authorizations")
      .where("expires_at", "<", now - DAY)
      .execute();
    await app.db
      .deleteFrom("password_resets")
      .where("expires_at", "<", now - DAY)
      .execute();
    await app.db
      .deleteFrom("invitations")
      .where("expires_at", "<", now - 30 * DAY)
      .execute();
    await app.db
      .deleteFrom("mail_outbox")
      .where("status", "in", ["sent", "failed"])
      .where("created_at", "<", now - 30 * DAY)
      .execute();
  },
};
