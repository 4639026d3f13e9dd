// How every answer of the API is written: JSON or problem details, with the request ID and the security headers.
import type { App } from "../app/context.ts";
import { databaseDown, databaseUnavailable } from "../domain/availability.ts";
import { ServiceError } from "../lib/errors.ts";
import { internalError, problemBody } from "./problem.ts";

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

/** `app` gives the install's address, where the problem's `doc_url` points. */
export function problemResponse(
  app: { config: { baseUrl: string } },
  e: ServiceError,
  requestId: string,
  extra?: Record<string, string>,
): Response {
  const headers = { ...extra, ...e.headers };
  if (e.status === 503 && !headers["Retry-After"]) headers["Retry-After"] = "30";
  return jsonResponse(e.status, problemBody(e, requestId, app.config.baseUrl), requestId, headers, true);
}

/** Maps anything thrown to a ServiceError: ours as they are, a lost database as 503, the rest as 500. */
export function asServiceError(app: App, e: unknown, requestId: string): ServiceError {
  if (e instanceof ServiceError) return e;
  if (databaseDown(e)) return databaseUnavailable();
  app.log.error("unhandled error", {
    request_id: requestId,
    error: e instanceof Error ? (e.stack ?? e.message) : String(e),
  });
  return internalError();
}
