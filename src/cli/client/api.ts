// HTTP to /v1 for client commands: bearer credential, Svc-Org, User-Agent svc-cli/<version>. A problem response
// becomes an ApiError carrying every listed problem; an unreachable server a plain message.
import pkg from "../../../package.json" with { type: "json" };
import { ApiError, type Problem } from "./errors.ts";
import { SourceChanged, type StreamedBody } from "./multipart.ts";

export { ApiError, type Problem } from "./errors.ts";

export interface ApiTarget {
  url: string;
  token?: string | null;
  org?: string | null;
}

export interface RequestOptions {
  query?: Record<string, string | string[] | undefined>;
  body?: unknown;
  /** A raw body (sent as JSON unless a content-type header says otherwise). */
  raw?: string | Uint8Array;
  /** A body streamed with its length and type (a file upload). */
  stream?: StreamedBody;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: bodies are the API's JSON, read field by field
  body: any;
}

export const USER_AGENT = `svc-cli/${pkg.version}`;

/** `/posts` and `posts` mean `/v1/posts`; a path already under /v1 (or another root such as /readyz) stays. */
export function apiPath(path: string): string {
  const p = path.startsWith("/") ? path : `/${path}`;
  return /^\/(v1|readyz|healthz)(\/|\?|$)/.test(p) ? p : `/v1${p}`;
}

export function buildUrl(base: string, path: string, query?: RequestOptions["query"]): URL {
  const u = new URL(base + apiPath(path));
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) u.searchParams.append(k, one);
  }
  return u;
}

/** Sends one request; answers whatever status came back (callers that want errors thrown use `call`). */
export async function send(
  target: ApiTarget,
  method: string,
  path: string,
  o: RequestOptions = {},
): Promise<ApiResponse> {
  const url = buildUrl(target.url, path, o.query);
  const headers: Record<string, string> = { "user-agent": USER_AGENT, accept: "application/json" };
  if (target.token) headers.authorization = `Bearer ${target.token}`;
  if (target.org) headers["svc-org"] = target.org;
  let body: string | Uint8Array | ReadableStream<Uint8Array> | undefined;
  if (o.body !== undefined) body = JSON.stringify(o.body);
  else if (o.raw !== undefined) body = o.raw;
  if (body !== undefined) headers["content-type"] = "application/json";
  if (o.stream) {
    body = o.stream.body;
    headers["content-type"] = o.stream.contentType;
    // Declared, so the body goes with a Content-Length rather than chunked.
    headers["content-length"] = String(o.stream.length);
  }
  Object.assign(headers, lower(o.headers ?? {}));
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body, signal: o.signal, redirect: "manual" });
  } catch (e) {
    if (o.signal?.aborted || e instanceof SourceChanged) throw e;
    throw new Error(`cannot reach ${target.url}: ${reason(e)}`);
  }
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (an HTML error page from a proxy, say): keep the text.
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

/** Sends one request and throws an ApiError for anything but 2xx. */
export async function call(
  target: ApiTarget,
  method: string,
  path: string,
  o: RequestOptions = {},
): Promise<ApiResponse> {
  const r = await send(target, method, path, o);
  if (r.status >= 200 && r.status < 300) return r;
  throw problemError(r);
}

export function problemError(r: ApiResponse): ApiError {
  const b = (r.body && typeof r.body === "object" ? r.body : {}) as {
    code?: string;
    detail?: string;
    title?: string;
    errors?: Problem[];
  };
  const code = b.code ?? `http_${r.status}`;
  const message = b.detail ?? b.title ?? (r.text && r.text.length < 200 ? r.text.trim() : `HTTP ${r.status}`);
  return new ApiError(r.status, code, message, Array.isArray(b.errors) ? b.errors : [], r.body);
}

function lower(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

/** A short reason for a failed connection: "connection refused", "host not found", … */
export function reason(e: unknown): string {
  const err = e as { code?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code;
  if (code === "ConnectionRefused" || code === "ECONNREFUSED") return "connection refused";
  if (code === "ENOTFOUND" || code === "DNSException") return "host not found";
  if (code === "UNABLE_TO_VERIFY_LEAF_SIGNATURE" || code === "DEPTH_ZERO_SELF_SIGNED_CERT")
    return "its TLS certificate is not trusted";
  if (code === "ConnectionClosed" || code === "ECONNRESET") return "the connection was closed";
  if (code === "TimeoutError") return "timed out";
  return (err.message ?? String(e)).split("\n")[0]!;
}
