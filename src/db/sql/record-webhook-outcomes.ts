// Recording finished webhook attempts in batches (domain/webhooks/outcome.ts): the worker writes many at once.
import { rowMarks } from "../raw.ts";
import { shaped } from "./statement.ts";

// Both dialects name VALUES columns column1, column2, … and accept CAST, so the statement is the same.
const ROW = `(CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS BIGINT), CAST(? AS INTEGER),
  CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS BIGINT))`;

/**
 * Moves `rows` deliveries on in one UPDATE … FROM (VALUES …), each row (id, status, attempts, next_attempt_at,
 * response_status, response_body, error, duration_ms, last_attempt_at), then the lease owner when `owned`. Only the
 * lease holder may: a delivery whose lease was reclaimed, or that went with its deleted endpoint, is left alone.
 * Returns the IDs it moved.
 */
export const finishWebhookDeliveries = shaped<[rows: number, owned: boolean], unknown[], { id: string }>(
  (rows, owned) => `UPDATE webhook_deliveries AS w SET
      status = v.column2, attempts = v.column3, next_attempt_at = v.column4, leased_until = NULL,
      lease_owner = NULL, response_status = v.column5, response_body = v.column6, error = v.column7,
      duration_ms = v.column8, last_attempt_at = v.column9
    FROM (VALUES ${Array.from({ length: rows }, () => ROW).join(", ")}) AS v
    WHERE w.id = v.column1 AND w.status = 'delivering' AND ${owned ? "w.lease_owner = ?" : "w.lease_owner IS NULL"}
    RETURNING id`,
  [2, true],
);

/** One attempt row per recorded attempt: (id, delivery_id, org_id, attempt, started_at, response_status,
 * response_body, error, duration_ms). */
export const insertWebhookAttempts = shaped<[rows: number]>(
  (rows) =>
    `INSERT INTO webhook_attempts (id, delivery_id, org_id, attempt, started_at, response_status, response_body, error, duration_ms) VALUES ${rowMarks(rows, 9)}`,
  [2],
);
