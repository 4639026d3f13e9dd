// What every /v1 request goes through (reference §1), in named stages: auth (request ID, schema, bearer
// credential), limits (rate limit, org status), input (query and body rules), idempotency (Idempotency-Key),
// the handler, then problem details and the request log. Each stage is a file under stages/, a seam for
// telemetry and for tests.
import type { RouteDef } from "./route.ts";
import { auth } from "./stages/auth.ts";
import { exchange, type HttpContext } from "./stages/exchange.ts";
import { handler } from "./stages/handler.ts";
import { idempotency } from "./stages/idempotency.ts";
import { input } from "./stages/input.ts";
import { limits } from "./stages/limits.ts";
import { failure, log } from "./stages/log.ts";

export type { HttpContext };

export function runRoute(
  ctx: HttpContext,
  route: RouteDef,
  request: Request,
  params: Record<string, string>,
): Promise<Response> {
  const telemetry = ctx.app.telemetry;
  if (!telemetry.enabled) return stages(ctx, route, request, params);
  // Named by the route's pattern, never its path: IDs stay out of spans.
  const attributes = { "http.request.method": route.method, "http.route": route.path };
  return telemetry.span(`${route.method} ${route.path}`, attributes, async (end) => {
    const response = await stages(ctx, route, request, params);
    end({ "http.response.status_code": response.status });
    return response;
  });
}

async function stages(
  ctx: HttpContext,
  route: RouteDef,
  request: Request,
  params: Record<string, string>,
): Promise<Response> {
  const x = exchange(ctx, route, request, params);
  let response: Response;
  try {
    await auth(x);
    limits(x);
    await input(x);
    response = (await idempotency(x)) ?? (await handler(x));
  } catch (e) {
    response = await failure(x, e);
  }
  return log(x, response);
}
