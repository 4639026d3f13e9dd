// What every /v1 request goes through (reference §1): request ID, bearer auth, org status, rate limit, query and
// body rules, Idempotency-Key, the handler, problem details, security headers, request log and access.denied.
import type { App } from "../app/context.ts";
import { isUnavailable } from "../db/index.ts";
import { type Actor, credentialOf } from "../domain/actor.ts";
import { auditDenied } from "../domain/audit/service.ts";
import { AnswerInTx, KeyTakenMeanwhile, storeAnswer } from "../domain/idempotency/in-tx.ts";
import { type AnswerSeal, openAnswer, sealAnswer, showsSecret } from "../domain/idempotency/sealed.ts";
import {
  checkKey,
  claim,
  complete,
  existingKey,
  findKey,
  fingerprintOf,
  keyInUse,
} from "../domain/idempotency/service.ts";
import { authenticate } from "../domain/identity/auth/authenticate.ts";
import { authenticateOperator, type OperatorActor } from "../domain/identity/auth/operator.ts";
import { guardText } from "../domain/input.ts";
import { operatorActor } from "../domain/operator/actor.ts";
import type { RequestLog } from "../domain/requests/log.ts";
import { badRequest, ServiceError } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { jsonOf } from "../lib/json-text.ts";
import { readJsonBody } from "./body.ts";
import { internalError, problemBody } from "./problem.ts";
import type { RateLimiter } from "./ratelimit.ts";
import { isReply, type RouteDef } from "./route.ts";

export { MAX_BODY_BYTES } from "./body.ts";

export interface HttpContext {
  app: App;
  limiter: RateLimiter;
  requestLog: RequestLog;
}

export const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "X-Frame-Options": "DENY",
};

export function jsonResponse(
  status: number,
  body: unknown,
  requestId: string,
  extra?: Record<string, string>,
  problem = false,
): Response {
  const headers: Record<string, string> = {
    "Content-Type": problem ? "application/problem+json" : "application/json",
    "Cache-Control": "no-store",
    "Request-Id": requestId,
    ...SECURITY_HEADERS,
    ...extra,
  };
  return new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers });
}

export function problemResponse(
  e: ServiceError,
  requestId: string,
  extra?: Record<string, string>,
): Response {
  const headers = { ...extra, ...e.headers };
  if (e.status === 503 && !headers["Retry-After"]) headers["Retry-After"] = "30";
  return jsonResponse(e.status, problemBody(e, requestId), requestId, headers, true);
}

/** Maps anything thrown to a ServiceError: ours as they are, a lost database as 503, the rest as 500. */
export function asServiceError(app: App, e: unknown, requestId: string): ServiceError {
  if (e instanceof ServiceError) return e;
  if (isUnavailable(e)) {
    return new ServiceError(
      503,
      "database_unavailable",
      "The database cannot be reached right now; retry shortly.",
      { headers: { "Retry-After": "30" } },
    );
  }
  app.log.error("unhandled error", {
    request_id: requestId,
    error: e instanceof Error ? (e.stack ?? e.message) : String(e),
  });
  return internalError();
}

const LIST_PARAMS = ["limit", "starting_after", "ending_before"];

function parseQuery(url: URL, route: RouteDef): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) {
    const known =
      route.query?.includes(k) ||
      (route.list && LIST_PARAMS.includes(k)) ||
      route.queryPrefixes?.some((p) => k.startsWith(p));
    if (!known) throw badRequest("parameter_unknown", `Unknown query parameter ${k}.`, k);
    guardText(k, k);
    guardText(v, k);
    out[k] = v;
  }
  return out;
}

export async function runRoute(
  ctx: HttpContext,
  route: RouteDef,
  request: Request,
  params: Record<string, string>,
): Promise<Response> {
  const { app } = ctx;
  const started = performance.now();
  const requestId = newId("req");
  const url = new URL(request.url);
  let actor: Actor | null = null;
  let operator: OperatorActor | null = null;
  let rateHeaders: Record<string, string> = {};
  let status = 500;
  let code: string | null = null;
  let idem: { credential: string; key: string } | null = null;
  let seal: AnswerSeal | null = null;
  let response: Response;
  try {
    if (!(await app.schemaReady())) {
      throw new ServiceError(
        503,
        "service_unavailable",
        "The database schema is being migrated; retry shortly.",
      );
    }
    let a: Awaited<ReturnType<typeof authenticate>>;
    if (route.operator) {
      operator = await authenticateOperator(app, request.headers.get("authorization"), requestId);
      a = { ...operatorActor(operator), orgStatus: "active", orgStatusNote: null };
    } else {
      a = await authenticate(app, {
        authorization: request.headers.get("authorization"),
        org: request.headers.get("svc-org"),
        requestId,
      });
      actor = a;
    }
    const rl = ctx.limiter.take(credentialOf(a) ?? a.userTokenId ?? a.orgId, app.clock.now());
    rateHeaders = rl.headers;
    if (!rl.ok) {
      throw new ServiceError(429, "rate_limited", "Too many requests; slow down.", {
        headers: { "Retry-After": String(rl.retryAfter) },
      });
    }
    if (a.orgStatus === "read_only" && route.method !== "GET" && !route.safe) {
      throw new ServiceError(
        403,
        "org_read_only",
        `This org is read-only.${a.orgStatusNote ? ` ${a.orgStatusNote}` : ""}`,
      );
    }
    // Path parameters are text the route looks up or stores: held to the same rule as body and query.
    for (const [k, v] of Object.entries(params ?? {})) guardText(v, k);
    const query = parseQuery(url, route);
    let body: unknown = {};
    let raw = "";
    if (route.method !== "GET" && !route.rawBody) {
      ({ raw, body } = await readJsonBody(route, request));
    }
    const idemKey = request.headers.get("idempotency-key");
    let answer: AnswerInTx | null = null;
    // Keys keep their answers per credential: an API key (and its roll chain), or the operator's key.
    if (idemKey !== null && route.method === "POST" && (a.kind === "api_key" || a.kind === "operator")) {
      checkKey(idemKey);
      const fingerprint = fingerprintOf(route.method, url.pathname, raw);
      // Keys are stored per credential: a key and the keys it was rolled to share them.
      const credential = credentialOf(a)!;
      // Where the answer is bound when it is stored sealed (a route that shows a secret once, or any answer that
      // carries one): a secret is never stored in clear.
      seal = { orgId: a.orgId, credentialId: credential, key: idemKey };
      // A key never seen, on a route whose change is one transaction: the answer is stored with the change.
      // A stored key (an answer, a running or abandoned claim) goes through the claim as before.
      if (route.answerInTx && !(await findKey(app, credential, idemKey))) {
        answer = new AnswerInTx(
          credential,
          idemKey,
          fingerprint,
          route.status ?? 200,
          seal,
          !!route.secretOnce,
        );
      } else {
        const c = await claim(app, credential, idemKey, fingerprint);
        if (c.kind === "replay") return replay(c.status, await opened(c.body));
        idem = { credential, key: idemKey };
      }
    }
    let out: unknown;
    try {
      out = await route.handler({
        app,
        actor: a,
        operator,
        params,
        query,
        body,
        request,
        idempotency: answer,
      });
    } catch (e) {
      if (!(e instanceof KeyTakenMeanwhile) || !answer) throw e;
      // Our change rolled back; the request that stored its answer first decides, as if it had claimed first.
      const row = await findKey(app, answer.credentialId, answer.key);
      const found = row ? existingKey(row, answer.fingerprint, app.clock.now()) : "abandoned";
      if (found === "abandoned" || found.kind !== "replay") throw keyInUse();
      return replay(found.status, await opened(found.body));
    }
    if (out instanceof Response) {
      // A streamed answer (server-sent events): the handler has checked everything that can fail.
      status = out.status;
      const headers = { "Request-Id": requestId, ...SECURITY_HEADERS, ...rateHeaders };
      for (const [k, v] of Object.entries(headers)) out.headers.set(k, v);
      return finish(out);
    }
    const r = isReply(out) ? out : { status: route.status ?? 200, body: out };
    status = r.status;
    const text = answer?.text ?? jsonOf(r.body);
    if (answer && answer.text === null && status >= 200 && status < 300) {
      // The domain call answered without storing (it changed nothing): keep the key as the claim path would.
      await storeAnswer(app.db, app, answer, r.body, text).catch((e) =>
        app.log.warn("storing an idempotent answer failed", { request_id: requestId, error: String(e) }),
      );
    }
    if (idem) {
      // The change is committed: a failure to store the answer must not turn it into an error the client would
      // retry. The key stays claimed, so a retry within 5 minutes is told it is in use rather than run twice.
      const key = idem;
      idem = null;
      const sealWith =
        status >= 200 && status < 300 && (route.secretOnce || showsSecret(r.body)) ? seal : null;
      const stored = async () => (sealWith ? sealAnswer(app.db, app, sealWith, text) : text);
      await stored()
        .then((body) => complete(app, key.credential, key.key, status, body))
        .catch((e) =>
          app.log.warn("storing an idempotent answer failed", { request_id: requestId, error: String(e) }),
        );
    }
    response = jsonResponse(status, text, requestId, { ...rateHeaders, ...r.headers });
  } catch (e) {
    const err = asServiceError(app, e, requestId);
    status = err.status;
    code = err.code;
    if (idem) await complete(app, idem.credential, idem.key, status, "").catch(() => {});
    if (err.status === 403 && actor) {
      await auditDenied(app, actor, `${route.method} ${route.path}`, err.code, err.message).catch((x) =>
        app.log.warn("access.denied audit failed", { error: String(x) }),
      );
    }
    response = problemResponse(err, requestId, rateHeaders);
  }
  return finish(response);

  async function opened(body: string): Promise<string> {
    return seal ? openAnswer(app, seal, body) : body;
  }

  function replay(replayStatus: number, replayBody: string): Response {
    status = replayStatus;
    return finish(
      jsonResponse(replayStatus, replayBody, requestId, { ...rateHeaders, "Idempotent-Replayed": "true" }),
    );
  }

  function finish(res: Response): Response {
    if (actor) {
      ctx.requestLog.add({
        id: requestId,
        org_id: actor.orgId,
        livemode: actor.livemode ? 1 : 0,
        method: route.method,
        path: url.pathname,
        status,
        code,
        duration_ms: Math.round(performance.now() - started),
        api_key_id: actor.apiKeyId,
        user_token_id: actor.userTokenId,
        created_at: app.clock.now(),
      });
    }
    return res;
  }
}
