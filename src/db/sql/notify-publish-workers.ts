// Waking publish workers in other processes when targets become due.
import { statement } from "./statement.ts";

/**
 * Postgres: NOTIFY, delivered when the transaction commits, to every worker LISTENing on svc_publish. SQLite has no
 * such thing: processes sharing the file poll, and a worker in this process is woken by App.signals.
 */
export const notifyPublishWorkers = statement<[]>({
  sqlite: null,
  postgres: "SELECT pg_notify('svc_publish', '')",
});
