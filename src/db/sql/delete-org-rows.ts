// Deleting an org's rows for good (domain/operator/delete.ts).
import { shaped, statement } from "./statement.ts";

/** Stored Idempotency-Key answers belong to the org's API keys (they may hold its data), not to the org itself. */
export const deleteOrgIdempotentAnswers = statement<[orgId: string]>(
  "DELETE FROM idempotency_keys WHERE credential_id IN (SELECT id FROM api_keys WHERE org_id = ?)",
);

/** Every row of one table that carries the org's ID (the tables come from the schema: tables-with-column.ts). */
export const deleteOrgRows = shaped<[table: string], [orgId: string]>(
  (table) => `DELETE FROM "${table.replaceAll('"', '""')}" WHERE org_id = ?`,
  ["brands"],
);
