// newsletters.handoff (every minute): gives due newsletter deliveries to their mail providers as scheduled
// campaigns, exactly once (src/domain/newsletters/handoff.ts).
import type { TaskDef } from "../tasks.ts";

export const newslettersHandoff: TaskDef = {
  name: "newsletters.handoff",
  schedule: "15 * * * * *",
  timeoutMs: 4 * 60_000,
  async run(app) {
    // Most minutes nothing is due: one look for an issue to hand off or one whose send time passed (what
    // handOffDue does), and the hand-off (the email renderer with markdown-it, the providers' clients) loads only
    // when there is one.
    const now = app.clock.now();
    const due = await app.db
      .selectFrom("newsletters")
      .select("id")
      .where((eb) =>
        eb.or([
          eb("handoff_due_at", "<=", now),
          eb.and([
            eb("status", "=", "scheduled"),
            eb("handoff_due_at", "is", null),
            eb("send_at", "<=", now),
          ]),
        ]),
      )
      .limit(1)
      .executeTakeFirst();
    if (!due) return;
    const { handOffDue } = await import("../../domain/newsletters/handoff.ts");
    await handOffDue(app);
  },
};
