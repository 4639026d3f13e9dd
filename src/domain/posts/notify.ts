// Wakes publish workers when targets become due: NOTIFY (delivered on commit) for other Postgres processes, and
// the in-process signal for a worker in this process (the only wake-up on SQLite besides polling).
import { sql } from "kysely";
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";

export async function notifyDue(tx: Tx, app: App): Promise<void> {
  if (app.dialect === "postgres") await sql`SELECT pg_notify('svc_publish', '')`.execute(tx);
}

/** After the commit: wake a worker in this process. */
export const wakeLocal = (app: App) => app.signals.emit("publish");
