// The tables of the live schema that hold an org's rows, read from the database itself rather than listed by
// hand, so a table a later migration adds is covered by org deletion without anyone remembering it.
import { sql } from "kysely";
import type { Dialect, Tx } from "../../db/index.ts";

export async function tablesWithColumn(tx: Tx, dialect: Dialect, column: string): Promise<string[]> {
  if (dialect === "postgres") {
    const r = await sql<{ table_name: string }>`
      SELECT c.table_name FROM information_schema.columns c
      JOIN information_schema.tables t ON t.table_name = c.table_name AND t.table_schema = c.table_schema
      WHERE c.column_name = ${column} AND c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
      ORDER BY c.table_name`.execute(tx);
    return r.rows.map((x) => x.table_name);
  }
  const tables = await sql<{ name: string }>`
    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`.execute(
    tx,
  );
  const out: string[] = [];
  for (const t of tables.rows) {
    const cols = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${t.name})`.execute(tx);
    if (cols.rows.some((c) => c.name === column)) out.push(t.name);
  }
  return out;
}
