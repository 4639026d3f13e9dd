// POST /v1/mcp: MCP Streamable HTTP, stateless (no session, no server-initiated messages), JSON answers and 202
// for notifications. The caller's credential is checked before anything else, and every tool call runs the /v1
// route it needs in process with that same credential, so the request acts exactly as the key (or user token).
// A browser's cross-site request is refused by its Origin, so a page cannot drive an agent's key.
import type { App } from "../app/context.ts";
import { credentialOf } from "../domain/actor.ts";
import { authenticate } from "../domain/identity/auth/authenticate.ts";
import { guardJson } from "../domain/input.ts";
import { MAX_BODY_BYTES, readBody } from "../http/body.ts";
import type { RateLimiter } from "../http/ratelimit.ts";
import { asServiceError, problemResponse, SECURITY_HEADERS } from "../http/respond.ts";
import { ServiceError } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { once } from "../lib/once.ts";
import { type ApiCall, requestParts } from "./api.ts";

// The MCP SDK (with its zod and ajv), the tools and their JSON Schemas load with the first MCP request, not at
// start-up: about 45 ms and 15 MiB a server that agents never call need not pay.
const loadSdk = once(() =>
  Promise.all([
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    import("./server.ts"),
  ]),
);

/** A browser says where a request comes from; only the install's own pages (and non-browser clients) may call. */
function crossSite(app: App, request: Request): boolean {
  if (request.headers.get("sec-fetch-site") === "cross-site") return true;
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  const own = new Set([new URL(app.config.baseUrl).origin, new URL(request.url).origin]);
  const host = request.headers.get("host");
  if (host) own.add(`${new URL(request.url).protocol}//${host}`);
  return !own.has(origin);
}

/**
 * `limiter`: the API's per-credential bucket. Every MCP request takes from it, whatever its method: a request
 * that calls no route (initialize, tools/list, a ping) would otherwise be free of any limit; the /v1 calls a
 * tool makes take their own tokens as any API request does.
 */
export function mcpHandler(
  app: App,
  dispatch: (request: Request) => Promise<Response>,
  limiter: RateLimiter,
) {
  return async (request: Request): Promise<Response> => {
    const requestId = newId("req");
    let rateHeaders: Record<string, string> = {};
    try {
      if (crossSite(app, request))
        throw new ServiceError(403, "forbidden", "Requests from another site's pages cannot use /v1/mcp.");
      const authorization = request.headers.get("authorization");
      const org = request.headers.get("svc-org");
      const actor = await authenticate(app, { authorization, org, requestId });
      const rl = limiter.take(credentialOf(actor) ?? actor.userTokenId ?? actor.orgId, app.clock.now());
      rateHeaders = rl.headers;
      if (!rl.ok)
        throw new ServiceError(429, "rate_limited", "Too many requests; slow down.", {
          headers: { "Retry-After": String(rl.retryAfter) },
        });

      const api: ApiCall = async (req) => {
        const { pathAndQuery, body } = requestParts(req);
        const headers: Record<string, string> = { authorization: authorization! };
        if (org !== null) headers["svc-org"] = org;
        if (body !== undefined) headers["content-type"] = "application/json";
        if (req.idempotencyKey) headers["idempotency-key"] = req.idempotencyKey;
        const res = await dispatch(
          new Request(new URL(pathAndQuery, request.url).toString(), { method: req.method, headers, body }),
        );
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : null };
      };
      const [{ WebStandardStreamableHTTPServerTransport }, { createMcpServer }] = await loadSdk();
      const server = createMcpServer(api, { baseUrl: app.config.baseUrl, requestId: () => requestId });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
        maxRequestBodySize: MAX_BODY_BYTES,
      });
      await server.connect(transport);
      // The body is held to the API's rules (1 MiB, UTF-8, storable strings, bounded depth) before the SDK sees it.
      const text = await readBody(request);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined; // the transport answers a JSON-RPC parse error
      }
      if (parsed !== undefined) guardJson(parsed);
      const res = await transport.handleRequest(
        new Request(request.url, { method: request.method, headers: request.headers, body: text }),
        parsed === undefined ? undefined : { parsedBody: parsed },
      );
      // The JSON answer is complete once handleRequest returns; nothing is kept for a later request.
      await server.close();
      const headers = new Headers(res.headers);
      headers.set("Request-Id", requestId);
      headers.set("Cache-Control", "no-store");
      for (const [k, v] of Object.entries({ ...SECURITY_HEADERS, ...rateHeaders })) headers.set(k, v);
      return new Response(res.body, { status: res.status, headers });
    } catch (e) {
      return problemResponse(app, asServiceError(app, e, requestId), requestId, rateHeaders);
    }
  };
}
