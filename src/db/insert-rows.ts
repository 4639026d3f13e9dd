// A multi-row INSERT as plain text: the create paths run thousands a second, and building Kysely's operation
// tree for a row (parsing each value, freezing each node) cost more than SQLite took to insert it. The columns
// are the first row's keys, as with Kysely's values().
import type { Db, Dialect, Tx } from "./index.ts";
import { raw, rowMarks } from "./raw.ts";

const texts = new Map<string, string>();

export async function insertRows(
  db: Db | Tx,
  dialect: Dialect,
  table: string,
  rows: readonly object[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const shape = `${table}|${rows.length}|${columns.join(",")}`;
  let text = texts.get(shape);
  if (text === undefined) {
    text = `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${rowMarks(rows.length, columns.length)}`;
    texts.set(shape, text);
  }
  const params: unknown[] = [];
  for (const row of rows) {
    const r = row as Record<string, unknown>;
    for (const c of columns) params.push(r[c] ?? null);
  }
  await raw(db, dialect, text, params);
}
