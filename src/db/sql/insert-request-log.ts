// The request log's batched write (domain/requests/log.ts): a busy server writes a batch every few hundred
// requests, and Kysely's operation tree for 200 rows (every value parsed and frozen) cost more than the insert.
import { columns, rowMarks } from "../raw.ts";
import type { RequestLogTable } from "../schema.ts";
import { rows } from "./statement.ts";

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

/** SQLite: one VALUES row per request. Postgres: one array per column, so a batch of any size is one text. */
export const insertRequestLog = rows<RequestLogTable>({
  columns: COLUMNS,
  sqlite: (n) => `INSERT INTO request_log (${columns(COLUMNS)}) VALUES ${rowMarks(n, COLUMNS.length)}`,
  postgres: `INSERT INTO request_log (${columns(COLUMNS)})
  SELECT * FROM unnest(?::text[], ?::text[], ?::int[], ?::text[], ?::text[], ?::int[], ?::text[], ?::int[], ?::text[], ?::text[], ?::bigint[])`,
});
