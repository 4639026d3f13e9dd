// How MCP tools reach the contract: one call per /v1 request, answered with its status and JSON body. Over HTTP
// (POST /v1/mcp) the call runs in process through the same route pipeline with the caller's own credential, so
// scopes, brand limit, rate limit, Idempotency-Key and the request log apply exactly as to any API request; over
// stdio (`svc mcp`) it is a real HTTP request to the install. Tools never open the database.

export interface ApiRequest {
  method: "GET" | "POST" | "DELETE";
  /** Path under the install, starting /v1/. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  idempotencyKey?: string;
}

export interface ApiAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON from the API, shaped by its OpenAPI document
  body: any;
}

export type ApiCall = (req: ApiRequest) => Promise<ApiAnswer>;

/** The request line and body of a call, as the HTTP layer wants them. */
export function requestParts(req: ApiRequest): { pathAndQuery: string; body: string | undefined } {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) q.set(k, String(v));
  const qs = q.toString();
  return {
    pathAndQuery: qs ? `${req.path}?${qs}` : req.path,
    body: req.method === "GET" || req.body === undefined ? undefined : JSON.stringify(req.body),
  };
}

/** A path segment from a tool argument: IDs and slugs only, so an argument cannot reach another route. */
export function segment(value: string): string {
  return encodeURIComponent(value);
}
