// Stage 5: the route's handler (a thin call into the domain), and its answer as JSON or as a stream.
import { jsonOf } from "../../lib/json-text.ts";
import { jsonResponse, SECURITY_HEADERS } from "../respond.ts";
import { isReply } from "../route.ts";
import type { Exchange } from "./exchange.ts";
import { keepAnswer, lostToAnother } from "./idempotency.ts";

export async function handler(x: Exchange): Promise<Response> {
  const { app, route, requestId } = x;
  let out: unknown;
  try {
    out = await route.handler({
      app,
      actor: x.caller!,
      operator: x.operator,
      params: x.params,
      query: x.query,
      body: x.body,
      request: x.request,
      idempotency: x.answer,
    });
  } catch (e) {
    return lostToAnother(x, e);
  }
  if (out instanceof Response) {
    // A streamed answer (server-sent events): the handler has checked everything that can fail.
    x.status = out.status;
    const headers = { "Request-Id": requestId, ...SECURITY_HEADERS, ...x.rateHeaders };
    for (const [k, v] of Object.entries(headers)) out.headers.set(k, v);
    return out;
  }
  const r = isReply(out) ? out : { status: route.status ?? 200, body: out };
  x.status = r.status;
  const text = x.answer?.text ?? jsonOf(r.body);
  await keepAnswer(x, r.body, text);
  return jsonResponse(x.status, text, requestId, { ...x.rateHeaders, ...r.headers });
}
