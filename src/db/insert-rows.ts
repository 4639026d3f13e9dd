// A multi-row INSERT as plain text: the create paths run thousands a second, and building Kysely's operation
// tree for a row (parsing each value, freezing each node) cost more than SQLite took to insert it. The columns
// are the first row's keys, as with Kysely's values().
import type { Db, Dialect, Tx } from "./index.ts";
import { raw, rowMarks } from "./raw.ts";

interface Shape {
  columns: readonly string[];
  text: string;
}
/**
 * Texts by table and row count, then by column list. The list is compared name by name rather than joined into
 * a key: joining twenty-odd names on every call cost more than the lookup it served.
 */
const shapes = new Map<string, Shape[]>();

function sameColumns(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function shapeOf(table: string, rowCount: number, columns: string[]): Shape {
  const key = `${table}|${rowCount}`;
  let known = shapes.get(key);
  if (known === undefined) {
    known = [];
    shapes.set(key, known);
  }
  for (const s of known) if (sameColumns(s.columns, columns)) return s;
  const shape = {
    columns,
    text: `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${rowMarks(rowCount, columns.length)}`,
  };
  known.push(shape);
  return shape;
}

export async function insertRows(
  db: Db | Tx,
  dialect: Dialect,
  table: string,
  rows: readonly object[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const { text } = shapeOf(table, rows.length, columns);
  const n = columns.length;
  const params: unknown[] = new Array(rows.length * n);
  let k = 0;
  for (const row of rows) {
    const r = row as Record<string, unknown>;
    for (let i = 0; i < n; i++) params[k++] = r[columns[i]!] ?? null;
  }
  await raw(db, dialect, text, params);
}
