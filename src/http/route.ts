// A /v1 route: what the pipeline needs to run it and what the OpenAPI document says about it.
// Handlers are thin: they pass path, query and body to one domain function and return what it presents.
import type * as v from "valibot";
import type { App } from "../app/context.ts";
import type { Actor } from "../domain/actor.ts";
import type { AnswerInTx } from "../domain/idempotency/in-tx.ts";
import type { OperatorActor } from "../domain/identity/auth/operator.ts";
import type { Scope } from "../domain/scopes.ts";

export type Method = "GET" | "POST" | "DELETE";

export interface Req {
  app: App;
  actor: Actor;
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  request: Request;
  /** The operator key, on operator routes (`actor` is then the operator outside any org). */
  operator: OperatorActor | null;
  /** Set for an `answerInTx` route under a new Idempotency-Key: the domain call stores its answer with its change. */
  idempotency: AnswerInTx | null;
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface RouteDef {
  method: Method;
  /** Elysia pattern, e.g. /v1/brands/:id */
  path: string;
  summary: string;
  tag: string;
  /** The scope the route needs (documented; the domain function checks it). */
  scope?: Scope;
  /** Only user tokens may call it (members, invitations, org): API keys get 403 forbidden (checked in the domain). */
  userTokensOnly?: boolean;
  /** Allowed query parameters; `list: true` adds limit, starting_after, ending_before. */
  query?: readonly string[];
  list?: boolean;
  /** Query parameter names allowed as a prefix family, such as metadata[key]. */
  queryPrefixes?: readonly string[];
  /** The body schema, for the OpenAPI document (the domain function parses). */
  body?: v.GenericSchema;
  /** Name of the response schema in components (object name). */
  response: string;
  /** The success response's media type when it is not JSON (the event stream). */
  produces?: string;
  /** Under /v1/operator/: only operator keys (svc_op_…) are accepted, and nothing else takes them. */
  operator?: boolean;
  /** A POST that changes nothing (a preview): allowed while the org is read-only. */
  safe?: boolean;
  status?: number;
  /**
   * The change is one transaction that stores the Idempotency-Key's answer itself (the handler passes
   * `idempotency` to the domain call, which answers with `status` and the body it returns).
   */
  answerInTx?: boolean;
  /**
   * The answer shows a secret once (a new API key, a webhook signing secret): under an Idempotency-Key its stored
   * copy is sealed with the org's data key, so the secret never rests in clear. A test walks the route table:
   * every route whose response schema has a `secret` must set this.
   */
  secretOnce?: boolean;
  /**
   * The handler reads the request body itself (a multipart upload, up to its own limit and streamed); the pipeline
   * leaves it unread instead of reading at most 1 MiB of JSON. Such a handler reads JSON with readJsonObject (body.ts).
   */
  rawBody?: boolean;
  handler: (req: Req) => Promise<unknown | Reply>;
}

export const reply = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({
  status,
  body,
  ...(headers ? { headers } : {}),
});
export const isReply = (x: unknown): x is Reply =>
  typeof x === "object" &&
  x !== null &&
  "status" in x &&
  "body" in x &&
  Object.keys(x).length <= 3 &&
  typeof (x as Reply).status === "number";
