// Errors are values with stable codes (ARCHITECTURE rule 2). Every surface renders a ServiceError its own way:
// the API as problem details, MCP as a tool error with the same body, the CLI on stderr, the dashboard by a field.

import type { ErrorCode } from "./error-codes.ts";

export type { ErrorCode } from "./error-codes.ts";

/** One problem in a list, as in the `errors[]` of a 422. */
export interface Problem {
  code: ErrorCode;
  param?: string | undefined;
  message: string;
  detail?: unknown;
}

export class ServiceError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly param: string | undefined;
  readonly detail: unknown;
  readonly errors: Problem[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    opts: { param?: string; detail?: unknown; errors?: Problem[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.param = opts.param;
    this.detail = opts.detail;
    this.errors = opts.errors;
    this.headers = opts.headers;
  }
}

/**
 * The request codes the spec answers with 400 (interface.md Requests), whatever found them: a schema's shape, a
 * rule, or a domain check. One code, one status.
 */
export const BAD_REQUEST_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "json_invalid",
  "parameter_unknown",
  "parameter_invalid",
  "parameter_missing",
  "parameter_conflict",
  "body_too_large",
  "body_unreadable",
]);

/**
 * A 422 listing every problem; the first one names the error as a whole. When any problem is a request problem
 * (parameter_invalid for `1.5` where a whole number belongs), the error is that 400, still listing them all.
 */
export function invalid(problems: Problem[]): ServiceError {
  const bad = problems.find((p) => BAD_REQUEST_CODES.has(p.code));
  const first = bad ?? problems[0];
  if (!first) throw new Error("invalid() needs at least one problem");
  return new ServiceError(bad ? 400 : 422, first.code, first.message, {
    param: first.param,
    detail: first.detail,
    errors: problems,
  });
}

export const problem = (code: ErrorCode, message: string, param?: string, detail?: unknown): Problem => ({
  code,
  message,
  ...(param === undefined ? {} : { param }),
  ...(detail === undefined ? {} : { detail }),
});

export const badRequest = (code: ErrorCode, message: string, param?: string) =>
  new ServiceError(400, code, message, param === undefined ? {} : { param });
export const notFound = (message = "No such object in this org and mode.", param?: string) =>
  new ServiceError(404, "resource_missing", message, param === undefined ? {} : { param });
export const conflict = (code: ErrorCode, message: string, opts: { param?: string; detail?: unknown } = {}) =>
  new ServiceError(409, code, message, opts);
export const forbidden = (code: ErrorCode, message: string, param?: string) =>
  new ServiceError(403, code, message, param === undefined ? {} : { param });
