// The last stage, whatever happened before: a refusal becomes problem details (a 403 also an access.denied
// audit row), and every request of an org's credential goes into the request log.
import { auditDenied } from "../../domain/audit/service.ts";
import { asServiceError, problemResponse } from "../respond.ts";
import type { Exchange } from "./exchange.ts";
import { releaseKey } from "./idempotency.ts";

export async function failure(x: Exchange, e: unknown): Promise<Response> {
  const { app, route, actor } = x;
  const err = asServiceError(app, e, x.requestId);
  x.status = err.status;
  x.code = err.code;
  await releaseKey(x);
  if (err.status === 403 && actor) {
    await auditDenied(app, actor, `${route.method} ${route.path}`, err.code, err.message).catch((a) =>
      app.log.warn("access.denied audit failed", { error: String(a) }),
    );
  }
  return problemResponse(app, err, x.requestId, x.rateHeaders);
}

export function log(x: Exchange, res: Response): Response {
  const { actor } = x;
  if (actor) {
    x.ctx.requestLog.add({
      id: x.requestId,
      org_id: actor.orgId,
      livemode: actor.livemode ? 1 : 0,
      method: x.route.method,
      path: x.url.pathname,
      status: x.status,
      code: x.code,
      duration_ms: Math.round(performance.now() - x.started),
      api_key_id: actor.apiKeyId,
      user_token_id: actor.userTokenId,
      created_at: x.app.clock.now(),
    });
  }
  return res;
}
