// Runs a PublicRouteDef (see public-route.ts).

import { guardJson } from "../domain/input.ts";
import { unknownParameters } from "../domain/validate.ts";
import { badRequest, ServiceError } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { readBody } from "./body.ts";
import { clientIp } from "./client-ip.ts";
import { problemBody } from "./problem.ts";
import type { PublicRouteDef } from "./public-route.ts";
import { asServiceError, jsonResponse, problemResponse } from "./respond.ts";
import type { HttpContext } from "./stages/exchange.ts";

/** The RFC 8628 §3.5 error codes a token endpoint answers with; any other 4xx is an `invalid_request`. */
const OAUTH_ERRORS = new Set([
  "authorization_pending",
  "slow_down",
  "access_denied",
  "expired_token",
  "invalid_grant",
]);
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/** A form-encoded OAuth request as the JSON body the domain parses: OAuth's own fields checked and dropped. */
function fromForm(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    if (k === "client_id" || k === "scope") continue;
    if (k === "grant_type") {
      if (v !== DEVICE_GRANT)
        throw badRequest("parameter_invalid", `grant_type must be ${DEVICE_GRANT}.`, "grant_type");
      continue;
    }
    if (k === "livemode") {
      if (v !== "true" && v !== "false")
        throw badRequest("parameter_invalid", "livemode must be true or false.", "livemode");
      out[k] = v === "true";
      continue;
    }
    out[k] = v;
  }
  return out;
}

/** JSON (as every /v1 body), or a form for an OAuth route; checked like any body (domain/input.ts). */
function parseBody(text: string, contentType: string, oauth: boolean): unknown {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (oauth && type === "application/x-www-form-urlencoded") {
    const form = fromForm(text);
    guardJson(form);
    return form;
  }
  if (text.trim() === "") return {};
  if (type !== "" && type !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(type))
    throw badRequest(
      "json_invalid",
      `The body must be sent as Content-Type: application/json${oauth ? " or application/x-www-form-urlencoded" : ""}.`,
      "Content-Type",
    );
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw badRequest("json_invalid", `The body is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw badRequest("json_invalid", "The body must be a JSON object.");
  guardJson(body);
  return body;
}

export async function runPublicRoute(
  ctx: HttpContext,
  route: PublicRouteDef,
  request: Request,
  peer: string | null,
): Promise<Response> {
  const { app } = ctx;
  const requestId = newId("req");
  let rateHeaders: Record<string, string> = {};
  try {
    if (!(await app.schemaReady()))
      throw new ServiceError(
        503,
        "service_unavailable",
        "The database schema is being migrated; retry shortly.",
      );
    const ip = clientIp(app.config, request, peer);
    // Unauthenticated, so limited per client address (the same bucket sizes as a credential's).
    const rl = ctx.limiter.take(`ip:${ip ?? "unknown"}`, app.clock.now());
    rateHeaders = rl.headers;
    if (!rl.ok) {
      throw new ServiceError(429, "rate_limited", "Too many requests; slow down.", {
        headers: { "Retry-After": String(rl.retryAfter) },
      });
    }
    const url = new URL(request.url);
    const query = [...new Set(url.searchParams.keys())];
    if (query.length)
      throw unknownParameters(
        query.map((k) => ({ param: k, name: k })),
        () => [],
        "query parameter",
      );
    const body = parseBody(await readBody(request), request.headers.get("content-type") ?? "", !!route.oauth);
    const out = await route.handler({ app, body, request, ip });
    return jsonResponse(route.status ?? 200, out, requestId, rateHeaders);
  } catch (e) {
    const err = asServiceError(app, e, requestId);
    if (route.oauth && err.status >= 400 && err.status < 500) {
      const error = OAUTH_ERRORS.has(err.code) ? err.code : "invalid_request";
      const body = {
        error,
        error_description: err.message,
        ...problemBody(err, requestId, app.config.baseUrl),
      };
      return jsonResponse(err.status, body, requestId, { ...rateHeaders, ...err.headers });
    }
    return problemResponse(app, err, requestId, rateHeaders);
  }
}
