// The tables of the live schema that have a column, read from the database itself rather than listed by hand, so
// a table a later migration adds is covered (org deletion clears every table with an org_id).
import { statement } from "./statement.ts";

/** Base tables (not views, not SQLite's own) of the current schema with the named column, by name. */
export const tablesWithColumn = statement<[column: string], { table_name: string }>({
  sqlite: `SELECT m.name AS table_name FROM sqlite_master m
    WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
      AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = ?)
    ORDER BY m.name`,
  postgres: `SELECT c.table_name FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_name = c.table_name AND t.table_schema = c.table_schema
    WHERE c.column_name = ? AND c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
    ORDER BY c.table_name`,
});
