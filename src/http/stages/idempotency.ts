// Stage 4 (before the handler) and 6 (after it): an Idempotency-Key replays a stored answer, or binds the answer
// to the change. Keys keep their answers per credential: an API key (and its roll chain), or the operator's key.
import { credentialOf } from "../../domain/actor.ts";
import { AnswerInTx, KeyTakenMeanwhile, storeAnswer } from "../../domain/idempotency/in-tx.ts";
import { openAnswer, sealAnswer, showsSecret } from "../../domain/idempotency/sealed.ts";
import {
  checkKey,
  claim,
  complete,
  existingKey,
  findKey,
  fingerprintOf,
  keyInUse,
} from "../../domain/idempotency/service.ts";
import { jsonResponse } from "../respond.ts";
import type { Exchange } from "./exchange.ts";

/** A stored answer to send again as it was (a Response), or null to go on to the handler. */
export async function idempotency(x: Exchange): Promise<Response | null> {
  const { app, route, request, url } = x;
  const a = x.caller!;
  const idemKey = request.headers.get("idempotency-key");
  if (idemKey === null || route.method !== "POST" || (a.kind !== "api_key" && a.kind !== "operator"))
    return null;
  checkKey(idemKey);
  const fingerprint = fingerprintOf(route.method, url.pathname, x.raw);
  // Keys are stored per credential: a key and the keys it was rolled to share them.
  const credential = credentialOf(a)!;
  // Where the answer is bound when it is stored sealed (a route that shows a secret once, or any answer that
  // carries one): a secret is never stored in clear.
  x.seal = { orgId: a.orgId, credentialId: credential, key: idemKey };
  // A key never seen, on a route whose change is one transaction: the answer is stored with the change.
  // A stored key (an answer, a running or abandoned claim) goes through the claim as before.
  if (route.answerInTx && !(await findKey(app, credential, idemKey))) {
    x.answer = new AnswerInTx(
      credential,
      idemKey,
      fingerprint,
      route.status ?? 200,
      x.seal,
      !!route.secretOnce,
    );
    return null;
  }
  const c = await claim(app, credential, idemKey, fingerprint);
  if (c.kind === "replay") return replay(x, c.status, c.body);
  x.claimed = { credential, key: idemKey };
  return null;
}

/**
 * The handler's change rolled back because another request stored its answer under the same key first: that
 * request decides, as if it had claimed first.
 */
export async function lostToAnother(x: Exchange, e: unknown): Promise<Response> {
  const answer = x.answer;
  if (!(e instanceof KeyTakenMeanwhile) || !answer) throw e;
  const row = await findKey(x.app, answer.credentialId, answer.key);
  const found = row ? existingKey(row, answer.fingerprint, x.app.clock.now()) : "abandoned";
  if (found === "abandoned" || found.kind !== "replay") throw keyInUse();
  return replay(x, found.status, found.body);
}

/** After the handler: keeps the answer under the key (sealed when it shows a secret). Returns the answer's text. */
export async function keepAnswer(x: Exchange, body: unknown, text: string): Promise<void> {
  const { app, route, answer, status, requestId } = x;
  const warn = (e: unknown) =>
    app.log.warn("storing an idempotent answer failed", { request_id: requestId, error: String(e) });
  if (answer && answer.text === null && status >= 200 && status < 300) {
    // The domain call answered without storing (it changed nothing): keep the key as the claim path would.
    await storeAnswer(app.db, app, answer, body, text).catch(warn);
  }
  if (x.claimed) {
    // The change is committed: a failure to store the answer must not turn it into an error the client would
    // retry. The key stays claimed, so a retry within 5 minutes is told it is in use rather than run twice.
    const key = x.claimed;
    x.claimed = null;
    const sealWith = status >= 200 && status < 300 && (route.secretOnce || showsSecret(body)) ? x.seal : null;
    const stored = async () => (sealWith ? sealAnswer(app.db, app, sealWith, text) : text);
    await stored()
      .then((b) => complete(app, key.credential, key.key, status, b))
      .catch(warn);
  }
}

/** A request that failed releases its claimed key with no answer, so the client may try again. */
export async function releaseKey(x: Exchange): Promise<void> {
  if (x.claimed) await complete(x.app, x.claimed.credential, x.claimed.key, x.status, "").catch(() => {});
}

async function replay(x: Exchange, status: number, stored: string): Promise<Response> {
  const body = x.seal ? await openAnswer(x.app, x.seal, stored) : stored;
  x.status = status;
  return jsonResponse(status, body, x.requestId, { ...x.rateHeaders, "Idempotent-Replayed": "true" });
}
