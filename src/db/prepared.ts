/**
 * Postgres statement names by text: every text run through raw.ts is prepared once per connection (index.ts), so
 * a hot statement is parsed and planned once rather than on each call. Texts name their columns rather than `*`:
 * a prepared statement must keep its result shape when a migration adds a column.
 */
export const preparedNames = new Map<string, string>();
