// Idempotency-Key for a create that is one transaction: its answer is stored in that transaction, instead of a
// claim committed before the change and the answer committed after it (three commits for one change). A request
// that fails rolls its answer back with its change, so a failed request does not keep its key. The pipeline
// looks the key up before the change (replay, reused and in-use answer as they always did); a request with the
// same key that commits in between makes storing fail, the change rolls back, and the stored key decides.
import type { App } from "../../app/context.ts";
import type { Db, Tx } from "../../db/index.ts";
import { run } from "../../db/sql/statement.ts";
import { storeIdempotentAnswer } from "../../db/sql/store-idempotent-answer.ts";
import { type AnswerSeal, sealAnswer, showsSecret } from "./sealed.ts";

export class AnswerInTx {
  /** The answer's JSON once stored: what the pipeline sends. */
  text: string | null = null;
  constructor(
    readonly credentialId: string,
    readonly key: string,
    readonly fingerprint: string,
    /** The route's success status, stored with the body. */
    readonly status: number,
    /** Where a sealed answer is bound; the answer is sealed when `sealAlways` or when it carries a secret. */
    readonly seal: AnswerSeal | null = null,
    /** The route shows a secret once (RouteDef.secretOnce). */
    readonly sealAlways = false,
  ) {}
}

/** Another request stored an answer under this key after the pipeline looked: this change must not commit. */
export class KeyTakenMeanwhile extends Error {
  constructor() {
    super("the Idempotency-Key was taken by another request");
  }
}

/**
 * Stores `body` as the key's answer; the last write of the change's transaction. `text` is its JSON when the
 * caller has serialized it already (for the change's event).
 */
export async function storeAnswer(
  tx: Tx | Db,
  app: App,
  answer: AnswerInTx,
  body: unknown,
  text: string = JSON.stringify(body),
): Promise<void> {
  const stored = await run(tx, app.dialect, storeIdempotentAnswer, [
    answer.credentialId,
    answer.key,
    answer.fingerprint,
    answer.status,
    answer.seal && (answer.sealAlways || showsSecret(body))
      ? await sealAnswer(tx, app, answer.seal, text)
      : text,
    app.clock.now(),
  ]);
  if (stored.length === 0) throw new KeyTakenMeanwhile();
  answer.text = text;
}
