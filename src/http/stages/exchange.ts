// One /v1 request on its way through the pipeline's stages: what each stage learns, the next one reads.
import type { App } from "../../app/context.ts";
import type { Actor } from "../../domain/actor.ts";
import type { AnswerInTx } from "../../domain/idempotency/in-tx.ts";
import type { AnswerSeal } from "../../domain/idempotency/sealed.ts";
import type { authenticate } from "../../domain/identity/auth/authenticate.ts";
import type { OperatorActor } from "../../domain/identity/auth/operator.ts";
import type { RequestLog } from "../../domain/requests/log.ts";
import { newId } from "../../lib/ids.ts";
import type { RateLimiter } from "../ratelimit.ts";
import type { RouteDef } from "../route.ts";

export interface HttpContext {
  app: App;
  limiter: RateLimiter;
  requestLog: RequestLog;
}

/** Who is calling: an org's credential, or the operator acting as an org's owner. */
export type Caller = Awaited<ReturnType<typeof authenticate>>;

export interface Exchange {
  ctx: HttpContext;
  app: App;
  route: RouteDef;
  request: Request;
  params: Record<string, string>;
  url: URL;
  requestId: string;
  started: number;
  /** Set by auth: the caller, and (for operator routes) the operator. */
  caller: Caller | null;
  /** An org credential's actor (not the operator's): the request log and access.denied are written for it. */
  actor: Actor | null;
  operator: OperatorActor | null;
  /** Set by limits: the rate limit headers every answer carries. */
  rateHeaders: Record<string, string>;
  /** Set by input. */
  query: Record<string, string>;
  body: unknown;
  raw: string;
  /** Set by idempotency: an answer stored with the change, or a claimed key completed after it. */
  answer: AnswerInTx | null;
  claimed: { credential: string; key: string } | null;
  seal: AnswerSeal | null;
  /** What the log records. */
  status: number;
  code: string | null;
}

export function exchange(
  ctx: HttpContext,
  route: RouteDef,
  request: Request,
  params: Record<string, string>,
): Exchange {
  return {
    ctx,
    app: ctx.app,
    route,
    request,
    params,
    url: new URL(request.url),
    requestId: newId("req"),
    started: performance.now(),
    caller: null,
    actor: null,
    operator: null,
    rateHeaders: {},
    query: {},
    body: {},
    raw: "",
    answer: null,
    claimed: null,
    seal: null,
    status: 500,
    code: null,
  };
}
