// newsletters.read (every 5 minutes): reads sent newsletters' results from their providers
// (src/domain/newsletters/read-results.ts).
import type { TaskDef } from "../tasks.ts";

export const newslettersRead: TaskDef = {
  name: "newsletters.read",
  schedule: "40 */5 * * * *",
  timeoutMs: 4 * 60_000,
  async run(app) {
    // Loaded only when a delivery's results are due (one look at their index first).
    const due = await app.db
      .selectFrom("newsletter_deliveries")
      .select("id")
      .where("results_next_at", "<=", app.clock.now())
      .limit(1)
      .executeTakeFirst();
    if (!due) return;
    const { readResults } = await import("../../domain/newsletters/read-results.ts");
    await readResults(app);
  },
};
