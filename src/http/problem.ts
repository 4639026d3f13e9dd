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

export const DOC_URL = "https://svc.dev/docs/errors";

export function problemBody(e: ServiceError, requestId: string) {
  return {
    type: "about:blank",
    title: TITLES[e.status] ?? "Error",
    status: e.status,
    detail: typeof e.detail === "string" ? e.detail : e.message,
    code: e.code,
    param: e.param ?? null,
    request_id: requestId,
    doc_url: `${DOC_URL}#${e.code}`,
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
