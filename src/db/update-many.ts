// One UPDATE for many rows that each get their own values: `SET col = CASE id WHEN ? THEN CAST(? AS type) … END`.
// Works the same on SQLite and Postgres (the casts give Postgres the types its parameters lack), so a worker
// records a batch of outcomes in one statement instead of one per row.
import { type RawBuilder, sql } from "kysely";
import type { Tx } from "./index.ts";

export type ColumnType = "text" | "bigint";

export interface UpdateManyOptions<R> {
  table: string;
  key: string;
  columns: Record<string, ColumnType>;
  rows: R[];
  keyOf(row: R): string;
  valueOf(row: R, column: string): string | number | null;
  /** Extra conditions every row must meet (e.g. the lease is still ours). */
  where?: RawBuilder<unknown>;
}

/** Returns the keys of the rows that were updated. */
export async function updateMany<R>(tx: Tx, o: UpdateManyOptions<R>): Promise<string[]> {
  if (o.rows.length === 0) return [];
  const key = sql.ref(o.key);
  const sets = Object.entries(o.columns).map(([col, type]) => {
    const cases = o.rows.map(
      (r) =>
        sql`WHEN ${o.keyOf(r)} THEN CAST(${o.valueOf(r, col)} AS ${sql.raw(type === "bigint" ? "BIGINT" : "TEXT")})`,
    );
    return sql`${sql.ref(col)} = CASE ${key} ${sql.join(cases, sql` `)} END`;
  });
  const ids = sql.join(o.rows.map((r) => o.keyOf(r)));
  const r = await sql<{
    k: string;
  }>`UPDATE ${sql.table(o.table)} SET ${sql.join(sets)} WHERE ${key} IN (${ids}) ${o.where ? sql`AND ${o.where}` : sql``} RETURNING ${key} AS k`.execute(
    tx,
  );
  return r.rows.map((x) => x.k);
}
