export type Dialect = "sqlite" | "postgres";

/** One schema step: statements for the dialect, applied in one transaction (reference §10). */
export interface Migration {
  name: string;
  up: (dialect: Dialect) => string[];
}
