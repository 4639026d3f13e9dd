// Idempotency-Key on POST (reference §1): per credential, fingerprint = SHA-256 of "METHOD PATH\n" + raw body,
// kept 24 h. Only a 2xx keeps the key; a claim older than 5 minutes counts as abandoned.
import type { App } from "../../app/context.ts";
import { sha256hex } from "../../crypto/hash.ts";
import { raw } from "../../db/raw.ts";
import { conflict, ServiceError } from "../../lib/errors.ts";
import { isUniqueViolation } from "../tx.ts";

const ABANDONED_MS = 5 * 60_000;
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

export type Claim = { kind: "claimed" } | { kind: "replay"; status: number; body: string };

export interface KeyRow {
  fingerprint: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
  created_at: number;
}

export function checkKey(key: string): void {
  if (key.length === 0 || key.length > 255) {
    throw new ServiceError(422, "idempotency_key_invalid", "Idempotency-Key must be 1 to 255 characters.", {
      param: "Idempotency-Key",
    });
  }
}

export const fingerprintOf = (method: string, path: string, rawBody: string) =>
  sha256hex(`${method} ${path}\n${rawBody}`);

export const keyInUse = () =>
  conflict("idempotency_key_in_use", "A request with this Idempotency-Key is still running; retry shortly.", {
    param: "Idempotency-Key",
  });

export async function findKey(app: App, credentialId: string, key: string): Promise<KeyRow | undefined> {
  const [row] = await raw<KeyRow>(
    app.db,
    app.dialect,
    "SELECT fingerprint, state, response_status, response_body, created_at FROM idempotency_keys WHERE credential_id = ? AND key = ?",
    [credentialId, key],
  );
  return row;
}

/**
 * What a key already stored means for a request with `fingerprint`: its stored answer, or a refusal (another
 * request's key, or one still running); "abandoned" when a running claim is old enough to be taken over.
 */
export function existingKey(row: KeyRow, fingerprint: string, now: number): Claim | "abandoned" {
  if (row.fingerprint !== fingerprint) {
    throw conflict("idempotency_key_reused", "This Idempotency-Key was used for a different request.", {
      param: "Idempotency-Key",
    });
  }
  if (row.state === "done") return { kind: "replay", status: row.response_status!, body: row.response_body! };
  if (now - Number(row.created_at) < ABANDONED_MS) throw keyInUse();
  return "abandoned";
}

export async function claim(
  app: App,
  credentialId: string,
  key: string,
  fingerprint: string,
): Promise<Claim> {
  const now = app.clock.now();
  for (let i = 0; i < 2; i++) {
    try {
      await app.db
        .insertInto("idempotency_keys")
        .values({
          credential_id: credentialId,
          key,
          fingerprint,
          state: "running",
          response_status: null,
          response_body: null,
          created_at: now,
        })
        .execute();
      return { kind: "claimed" };
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
    }
    const row = await findKey(app, credentialId, key);
    if (!row) continue; // released between our insert and read: try once more
    const found = existingKey(row, fingerprint, now);
    if (found !== "abandoned") return found;
    // Abandoned claim (its process died): take it over.
    const r = await app.db
      .updateTable("idempotency_keys")
      .set({ created_at: now })
      .where("credential_id", "=", credentialId)
      .where("key", "=", key)
      .where("state", "=", "running")
      .where("created_at", "=", row.created_at)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 1) return { kind: "claimed" };
  }
  throw keyInUse();
}

export async function complete(
  app: App,
  credentialId: string,
  key: string,
  status: number,
  body: string,
): Promise<void> {
  if (status >= 200 && status < 300) {
    await app.db
      .updateTable("idempotency_keys")
      .set({ state: "done", response_status: status, response_body: body })
      .where("credential_id", "=", credentialId)
      .where("key", "=", key)
      .execute();
  } else {
    await app.db
      .deleteFrom("idempotency_keys")
      .where("credential_id", "=", credentialId)
      .where("key", "=", key)
      .execute();
  }
}
