// Wakes publish workers when targets become due: NOTIFY (delivered on commit) for other Postgres processes, and
// the in-process signal for a worker in this process (the only wake-up on SQLite besides polling).
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { notifyPublishWorkers } from "../../db/sql/notify-publish-workers.ts";
import { run } from "../../db/sql/statement.ts";

export async function notifyDue(tx: Tx, app: App): Promise<void> {
  await run(tx, app.dialect, notifyPublishWorkers, []);
}

/** After the commit: wake a worker in this process. */
export const wakeLocal = (app: App) => app.signals.emit("publish");
