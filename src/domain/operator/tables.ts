// The tables of the live schema that hold an org's rows, read from the database itself rather than listed by
// hand, so a table a later migration adds is covered by org deletion without anyone remembering it.
import type { Dialect, Tx } from "../../db/index.ts";
import { run } from "../../db/sql/statement.ts";
import { tablesWithColumn as tablesWith } from "../../db/sql/tables-with-column.ts";

export async function tablesWithColumn(tx: Tx, dialect: Dialect, column: string): Promise<string[]> {
  return (await run(tx, dialect, tablesWith, [column])).map((t) => t.table_name);
}
