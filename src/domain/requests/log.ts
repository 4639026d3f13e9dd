// The request log (admins and owners read it): method, path, status, code, duration, key, request ID; no bodies.
// Rows are buffered and written in batches so logging does not add a write to every request.
import type { App } from "../../app/context.ts";
import { insertRows } from "../../db/insert-rows.ts";
import { raw } from "../../db/raw.ts";
import type { RequestLogTable } from "../../db/schema.ts";

const COLUMNS = [
  "id",
  "org_id",
  "livemode",
  "method",
  "path",
  "status",
  "code",
  "duration_ms",
  "api_key_id",
  "user_token_id",
  "created_at",
] as const satisfies readonly (keyof RequestLogTable)[];

/** Postgres: one array per column, so a batch of any size is one prepared text (VALUES would be one per size). */
const INSERT_PG = `INSERT INTO request_log (${COLUMNS.join(", ")})
  SELECT * FROM unnest(?::text[], ?::text[], ?::int[], ?::text[], ?::text[], ?::int[], ?::text[], ?::int[], ?::text[], ?::text[], ?::bigint[])`;

/**
 * Plain SQL text: a busy server writes a batch every few hundred requests, and Kysely's operation tree for 200
 * rows (every value parsed and frozen) cost more than the insert.
 */
async function writeRows(app: App, rows: RequestLogTable[]): Promise<void> {
  if (app.dialect === "sqlite") return insertRows(app.db, app.dialect, "request_log", rows);
  const cols = COLUMNS.map((c) => rows.map((r) => r[c]));
  await raw(app.db, app.dialect, INSERT_PG, cols);
}

export class RequestLog {
  private buffer: RequestLogTable[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private flushing: Promise<void> = Promise.resolve();
  constructor(
    private readonly app: App,
    private readonly maxDelayMs = 1000,
    private readonly maxRows = 200,
  ) {}

  add(row: RequestLogTable): void {
    this.buffer.push(row);
    if (this.buffer.length >= this.maxRows) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.maxDelayMs);
      this.timer.unref?.();
    }
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const rows = this.buffer;
    this.buffer = [];
    this.flushing = this.flushing.then(async () => {
      if (rows.length === 0) return;
      try {
        await writeRows(this.app, rows);
      } catch (e) {
        this.app.log.warn("request log write failed", { rows: rows.length, error: String(e) });
      }
    });
    return this.flushing;
  }
}
