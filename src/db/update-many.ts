// One UPDATE for many rows that each get their own values: `SET col = CASE id WHEN ? THEN CAST(? AS type) … END`.
// Works the same on SQLite and Postgres (the casts give Postgres the types its parameters lack), so a worker
// records a batch of outcomes in one statement instead of one per row.
import type { Db, Dialect, Tx } from "./index.ts";
import { marks, raw } from "./raw.ts";

export type ColumnType = "text" | "bigint";

export interface UpdateManyOptions<R> {
  table: string;
  key: string;
  columns: Record<string, ColumnType>;
  rows: R[];
  keyOf(row: R): string;
  valueOf(row: R, column: string): string | number | null;
  /** Extra conditions every row must meet (e.g. the lease is still ours), with `?` parameters. */
  where?: { text: string; params: unknown[] };
}

/** Returns the keys of the rows that were updated. */
export async function updateMany<R>(
  db: Db | Tx,
  dialect: Dialect,
  o: UpdateManyOptions<R>,
): Promise<string[]> {
  if (o.rows.length === 0) return [];
  const params: unknown[] = [];
  const keys = o.rows.map((r) => o.keyOf(r));
  const sets = Object.entries(o.columns).map(([col, type]) => {
    const cast = type === "bigint" ? "BIGINT" : "TEXT";
    const values = o.rows.map((r) => o.valueOf(r, col));
    // A value every row gets (a batch's status, times, cleared lease) is set once, not matched row by row: a
    // worker's batch of outcomes mostly shares all but a column or two, and the CASE cost SQLite per row and column.
    const first = values[0];
    if (values.every((v) => v === first)) {
      params.push(first);
      return `${col} = CAST(? AS ${cast})`;
    }
    const cases = values.map((v, i) => {
      params.push(keys[i], v);
      return `WHEN ? THEN CAST(? AS ${cast})`;
    });
    return `${col} = CASE ${o.key} ${cases.join(" ")} END`;
  });
  params.push(...keys);
  if (o.where) params.push(...o.where.params);
  const text = `UPDATE ${o.table} SET ${sets.join(", ")} WHERE ${o.key} IN (${marks(o.rows.length)})${o.where ? ` AND ${o.where.text}` : ""} RETURNING ${o.key} AS k`;
  return (await raw<{ k: string }>(db, dialect, text, params)).map((x) => x.k);
}
