// The request log (admins and owners read it): method, path, status, code, duration, key, request ID; no bodies.
// Rows are buffered and written in batches so logging does not add a write to every request.
import type { App } from "../../app/context.ts";
import type { RequestLogTable } from "../../db/schema.ts";
import { insertRequestLog } from "../../db/sql/insert-request-log.ts";
import { runRows } from "../../db/sql/statement.ts";

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
        await runRows(this.app.db, this.app.dialect, insertRequestLog, rows);
      } catch (e) {
        this.app.log.warn("request log write failed", { rows: rows.length, error: String(e) });
      }
    });
    return this.flushing;
  }
}
