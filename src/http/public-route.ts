// /v1 routes that take no credential (the CLI's device sign-in). They run through their own small pipeline:
// request ID, schema readiness, a per-client-IP rate limit, strict bodies, problem details, security headers.
// They are listed in the OpenAPI document with `security: []`.
import type * as v from "valibot";
import type { App } from "../app/context.ts";
import type { Method } from "./route.ts";

export interface PublicReq {
  app: App;
  body: unknown;
  request: Request;
  /** The client's IP (http/client-ip.ts): the socket's peer, or the entry the trusted proxy added. */
  ip: string | null;
}

export interface PublicRouteDef {
  method: Method;
  path: string;
  summary: string;
  tag: string;
  body?: v.GenericSchema;
  response: string;
  status?: number;
  /**
   * OAuth-style errors (RFC 6749 §5.2, RFC 8628 §3.5): 4xx answers are `application/json` and carry the RFC's
   * `error` (and `error_description`) beside the usual problem fields, so a standard OAuth client understands them.
   * Form-encoded bodies are accepted as well, with the OAuth fields such a client adds.
   */
  oauth?: boolean;
  handler: (req: PublicReq) => Promise<unknown>;
}
