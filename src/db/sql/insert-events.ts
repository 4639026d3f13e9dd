// Writing events (domain/events/record.ts): every change writes its events in its own transaction, and the
// publish worker writes a batch of them for every batch of outcomes, so this is plain text.
import { columns, rowMarks } from "../raw.ts";
import { rows } from "./statement.ts";

export interface EventRow {
  id: string;
  org_id: string;
  livemode: 0 | 1;
  type: string;
  request_id: string | null;
  /** `{"object": …}` as JSON. */
  data: string;
  created_at: number;
}

const COLUMNS = [
  "id",
  "org_id",
  "livemode",
  "type",
  "request_id",
  "data",
  "created_at",
] as const satisfies readonly (keyof EventRow)[];

/**
 * SQLite: one VALUES row per event. Postgres: one array per column, so one prepared text serves any number of
 * events (seq and tx come from their defaults: the sequence, and the inserting transaction's ID).
 */
export const insertEvents = rows<EventRow>({
  columns: COLUMNS,
  sqlite: (n) => `INSERT INTO events (${columns(COLUMNS)}) VALUES ${rowMarks(n, COLUMNS.length)}`,
  postgres: `INSERT INTO events (${columns(COLUMNS)})
  SELECT * FROM unnest(?::text[], ?::text[], ?::int[], ?::text[], ?::text[], ?::text[], ?::bigint[])`,
});
