// ServiceError → RFC 9457 problem details with our extensions (reference §1).
import { type Problem, ServiceError } from "../lib/errors.ts";

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/** The install's own page of error codes (views/error-codes.tsx, from src/lib/error-codes.ts). */
export const ERROR_CODES_PATH = "/docs/errors";

/**
 * The problem body of an error. `baseUrl` is the install's public address: `doc_url` points at the error codes
 * page this install serves, which documents exactly the codes it can answer with.
 */
export function problemBody(e: ServiceError, requestId: string, baseUrl: string) {
  return {
    type: "about:blank",
    title: TITLES[e.status] ?? "Error",
    status: e.status,
    detail: typeof e.detail === "string" ? e.detail : e.message,
    code: e.code,
    param: e.param ?? null,
    request_id: requestId,
    doc_url: `${baseUrl}${ERROR_CODES_PATH}#${e.code}`,
    ...(e.detail !== undefined && typeof e.detail !== "string" ? { details: e.detail } : {}),
    ...(e.errors
      ? {
          errors: e.errors.map((p: Problem) => ({
            code: p.code,
            param: p.param ?? null,
            message: p.message,
            detail: p.detail ?? null,
          })),
        }
      : {}),
  };
}

export const internalError = () =>
  new ServiceError(
    500,
    "internal_error",
    "Something went wrong on our side; the request ID helps us find it.",
  );
