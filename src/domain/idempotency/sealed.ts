// The stored answer of a route that shows a secret once (a new API key, a webhook signing secret) is sealed with
// the org's data key, bound to its idempotency_keys row, so the replay of a retried request still shows the secret
// while the table never holds it in clear. Routes say so (RouteDef.secretOnce); any other answer that carries a
// `secret` is sealed too, so a route that forgets to say so still stores no secret in clear. Other answers are
// stored as they are (no cost on hot creates).
import type { App } from "../../app/context.ts";
import type { SealedAt } from "../../crypto/keyring.ts";
import type { Db, Tx } from "../../db/index.ts";

const SEALED = "v1:";

const at = (credentialId: string, key: string): SealedAt => ({
  table: "idempotency_keys",
  // A credential ID holds no ':', so credential and key cannot be confused.
  row: `${credentialId}:${key}`,
  column: "response_body",
});

export interface AnswerSeal {
  orgId: string;
  credentialId: string;
  key: string;
}

/** Whether an answer carries a secret (a top-level `secret` string, as every secret-showing object does). */
export const showsSecret = (body: unknown): boolean =>
  typeof body === "object" && body !== null && typeof (body as { secret?: unknown }).secret === "string";

export const sealAnswer = (db: Db | Tx, app: App, s: AnswerSeal, text: string): Promise<string> =>
  app.keys.seal(db, s.orgId, at(s.credentialId, s.key), text);

/** The stored answer as sent: opened when sealed (JSON text never starts with "v1:"). */
export async function openAnswer(app: App, s: AnswerSeal, stored: string): Promise<string> {
  if (!stored.startsWith(SEALED)) return stored;
  return app.keys.open(app.db, s.orgId, at(s.credentialId, s.key), stored);
}
