// Operator keys (`svc_op_…`): accepted only under /v1/operator/ (the operator API comes with org hosting);
// stored only as SHA-256 hashes. `svc admin operator-keys create|list|revoke` issues them.
import type { App } from "../../../app/context.ts";
import { hintOf, newOperatorKey, parseCredential } from "../../../crypto/credentials.ts";
import { sha256hex } from "../../../crypto/hash.ts";
import { ServiceError } from "../../../lib/errors.ts";
import { newId } from "../../../lib/ids.ts";

const refuse = (code: "operator_key_invalid" | "operator_key_revoked", message: string) =>
  new ServiceError(401, code, message, { headers: { "WWW-Authenticate": 'Bearer realm="svc"' } });

export interface OperatorActor {
  kind: "operator";
  operatorKeyId: string;
  name: string;
  requestId: string;
}

export async function authenticateOperator(
  app: App,
  authorization: string | null,
  requestId: string,
): Promise<OperatorActor> {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  const cred = m ? parseCredential(m[1]!) : null;
  if (cred?.kind !== "operator_key")
    throw refuse("operator_key_invalid", "The operator API needs an operator key (svc_op_…).");
  const row = await app.db
    .selectFrom("operator_keys")
    .selectAll()
    .where("hash", "=", cred.hash)
    .executeTakeFirst();
  if (!row) throw refuse("operator_key_invalid", "This operator key is not known.");
  if (row.revoked_at !== null) throw refuse("operator_key_revoked", "This operator key was revoked.");
  return { kind: "operator", operatorKeyId: row.id, name: row.name, requestId };
}

/** Issues an operator key; the secret is returned once. */
export async function createOperatorKey(app: App, name: string): Promise<{ id: string; secret: string }> {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100)
    throw new ServiceError(422, "name_invalid", "Name must be 1 to 100 characters.", { param: "name" });
  name = trimmed;
  const secret = newOperatorKey();
  const now = app.clock.now();
  const id = newId("opkey", now);
  await app.db
    .insertInto("operator_keys")
    .values({
      id,
      name,
      hash: sha256hex(secret),
      hint: hintOf(secret),
      created_at: now,
      last_used_at: null,
      revoked_at: null,
    })
    .execute();
  return { id, secret };
}

export async function revokeOperatorKey(app: App, id: string): Promise<boolean> {
  const r = await app.db
    .updateTable("operator_keys")
    .set({ revoked_at: app.clock.now() })
    .where("id", "=", id)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function listOperatorKeys(app: App) {
  const rows = await app.db.selectFrom("operator_keys").selectAll().orderBy("id", "desc").execute();
  return rows.map((r) => ({
    id: r.id,
    object: "operator_key" as const,
    name: r.name,
    hint: r.hint,
    created_at: new Date(r.created_at).toISOString(),
    last_used_at: r.last_used_at === null ? null : new Date(r.last_used_at).toISOString(),
    revoked_at: r.revoked_at === null ? null : new Date(r.revoked_at).toISOString(),
  }));
}
