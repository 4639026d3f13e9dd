// Running publish workers in tests until the queue has nothing left to publish.
import type { App } from "../../src/app/context.ts";
import type { PublishWorker } from "../../src/queue/publish/worker.ts";

/** Targets still queued or being published (at most one: whether any is left). */
export const targetsLeft = (app: App) =>
  app.db
    .selectFrom("post_targets")
    .select("id")
    .where("status", "in", ["queued", "publishing"])
    .limit(1)
    .execute();

/** Waits until no target is left (polling every 50 ms, for at most `waitMs`), then stops the workers. */
export async function runUntilDone(app: App, workers: PublishWorker[], waitMs: number): Promise<void> {
  for (let waited = 0; waited < waitMs && (await targetsLeft(app)).length; waited += 50) await Bun.sleep(50);
  for (const w of workers) await w.stop();
}
