// One change per form: the dashboard's composer mints an Idempotency-Key for each form it renders and sends it
// with the form, so a double click or a form sent again makes one post. The key is kept exactly as an API key's
// is (the same table, fingerprint, 24 hours, the answer stored in the change's own transaction); only the
// credential differs: the person, since a session has no API key.
import type { App } from "../../app/context.ts";
import { AnswerInTx, KeyTakenMeanwhile } from "./in-tx.ts";
import { checkKey, existingKey, findKey, fingerprintOf, keyInUse } from "./service.ts";

export type Once<T> = { replayed: false; body: T } | { replayed: true; body: unknown };

/**
 * Runs `change` once per (credential, key): a key already answered gives that answer back (replayed), a key used
 * for a different request is `idempotency_key_reused`. `request` is what the change is asked to do, compared by
 * its fingerprint. `change` must store the answer in its transaction (as createPost does with `idempotency`).
 */
export async function once<T>(
  app: App,
  credentialId: string,
  key: string,
  route: string,
  request: unknown,
  status: number,
  change: (answer: AnswerInTx) => Promise<T>,
): Promise<Once<T>> {
  checkKey(key);
  const fingerprint = fingerprintOf("POST", route, JSON.stringify(request));
  const stored = async (): Promise<Once<T>> => {
    const row = await findKey(app, credentialId, key);
    const found = row ? existingKey(row, fingerprint, app.clock.now()) : "abandoned";
    if (found === "abandoned" || found.kind !== "replay") throw keyInUse();
    return { replayed: true, body: JSON.parse(found.body) as unknown };
  };
  if (await findKey(app, credentialId, key)) return stored();
  try {
    return { replayed: false, body: await change(new AnswerInTx(credentialId, key, fingerprint, status)) };
  } catch (e) {
    // The same form sent twice at once: the other request committed first, and its post is the answer.
    if (e instanceof KeyTakenMeanwhile) return stored();
    throw e;
  }
}
