export type Dialect = "sqlite" | "postgres";

/** One schema step: statements for the dialect, applied in one transaction (reference §10). */
export interface Migration {
  name: string;
  up: (dialect: Dialect) => string[];
  /**
   * Postgres only: the statements are `CREATE INDEX CONCURRENTLY IF NOT EXISTS` and `DROP INDEX CONCURRENTLY IF
   * EXISTS`, run one by one outside a transaction (Postgres refuses them inside one), so building an index never
   * stops writes to its table. Each must be safe to run again: a migrator that stops halfway starts over. SQLite
   * runs the same step in one transaction as usual.
   */
  concurrently?: boolean;
}
