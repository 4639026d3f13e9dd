// An Idempotency-Key's answer stored in the change's own transaction (domain/idempotency/in-tx.ts).
import { statement } from "./statement.ts";

/**
 * Stores the answer, or nothing when another request stored one under the key meanwhile: the primary key
 * (credential_id, key) decides, and no row back means this change must not commit.
 */
export const storeIdempotentAnswer = statement<
  [credentialId: string, key: string, fingerprint: string, status: number, body: string, now: number],
  { key: string }
>(
  `INSERT INTO idempotency_keys (credential_id, key, fingerprint, state, response_status, response_body, created_at)
   VALUES (?, ?, ?, 'done', ?, ?, ?) ON CONFLICT (credential_id, key) DO NOTHING RETURNING key`,
);
