// A `fetch`-compatible function over the guarded client, for libraries that take a fetch (for example
// @atproto/api's `fetch` option): every call they make is checked against the allow setting at connection time,
// like any other outbound request to an address a tenant chose (ARCHITECTURE rule 7).
//
// A failure is thrown as the guarded client's OutboundError (the library usually wraps it; its `cause` keeps it),
// so an adapter can tell "nothing was sent" (blocked address, refused, host not found) from "the network may have
// it" (timeout or reset after sending): see `mayHaveBeenSent`.
//
// A ReadableStream body with a Content-Length header is sent as it is read (a video from the bucket), never held
// whole; a stream without one is read into memory first, as the guarded client needs the length up front.
import { type AllowSetting, networksAllow } from "./allow.ts";
import { OutboundError } from "./errors.ts";
import { guardedRequest, type StreamBody } from "./guarded.ts";

export interface GuardedFetchOptions {
  /** Which non-public addresses may be reached (default none). */
  allow?: AllowSetting | string | null | undefined;
  /**
   * Deadline per request, redirects and body included. Default 30 000 ms. A request body adds one second per
   * 256 KiB on top (a 100 MB upload over a slow uplink is not a hung server).
   */
  timeoutMs?: number;
  /** Largest response body accepted; a longer one fails. Default 8 MiB. */
  maxResponseBytes?: number;
}

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A fetch that reaches only what `allow` permits. Redirects are followed (and each hop checked) unless told. */
export function guardedFetch(opts: GuardedFetchOptions = {}): FetchLike {
  const maxBytes = opts.maxResponseBytes ?? 8 * 1024 * 1024;
  return async (input, init) => {
    const req = input instanceof Request ? input : null;
    const url = req ? req.url : String(input);
    const method = (init?.method ?? req?.method ?? "GET").toUpperCase();
    const headers: Record<string, string> = {};
    new Headers(init?.headers ?? req?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body = await requestBody(
      init?.body ?? (req && method !== "GET" && method !== "HEAD" ? req.body : null),
      headers["content-length"],
    );
    const length = body === undefined ? 0 : body instanceof Uint8Array ? body.byteLength : body.length;
    const signal = init?.signal ?? req?.signal ?? undefined;
    const res = await guardedRequest({
      url,
      method,
      headers,
      body,
      allow: opts.allow ?? undefined,
      timeoutMs: (opts.timeoutMs ?? 30_000) + Math.ceil((length / UPLOAD_FLOOR_BYTES_PER_S) * 1000),
      maxResponseBytes: maxBytes,
      followRedirects: (init?.redirect ?? "follow") === "follow",
      signal: signal ?? undefined,
    });
    if (res.truncated)
      throw new OutboundError("connection", `${new URL(url).origin}: response longer than ${maxBytes} bytes`);
    const nullBody = method === "HEAD" || res.status === 204 || res.status === 304;
    return new Response(nullBody ? null : res.body, { status: res.status, headers: res.headers });
  };
}

/** The guarded fetch network adapters use: private addresses only as SVC_ALLOW_PRIVATE_NETWORKS allows. */
export function networkFetch(
  app: { config: { allowPrivateNetworks: string | null } },
  opts: Omit<GuardedFetchOptions, "allow"> = {},
): FetchLike {
  return guardedFetch({ ...opts, allow: networksAllow(app.config) });
}

/** The slowest upload rate the deadline allows for (2 Mbit/s). */
const UPLOAD_FLOOR_BYTES_PER_S = 256 * 1024;

const encoder = new TextEncoder();

async function requestBody(
  body: RequestInit["body"],
  contentLength: string | undefined,
): Promise<Uint8Array | StreamBody | undefined> {
  if (body === null || body === undefined) return undefined;
  if (body instanceof ReadableStream && contentLength !== undefined && /^\d{1,15}$/.test(contentLength))
    return { stream: body as ReadableStream<Uint8Array>, length: Number(contentLength) };
  if (typeof body === "string") return encoder.encode(body);
  // A form (an OAuth token request): its text, as Response would serialise it, without a Response.
  if (body instanceof URLSearchParams) return encoder.encode(body.toString());
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  // Blob, FormData, URLSearchParams, streams: let Response serialise them.
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/** The guarded client's error behind whatever a library wrapped it in (Error.cause chain), if any. */
export function outboundCause(err: unknown): OutboundError | null {
  for (let e = err, i = 0; e && i < 5; i++) {
    if (e instanceof OutboundError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * Whether a failed request may have reached the network: false when it cannot have (refused, blocked, host not
 * found, bad URL, TLS handshake), true when it may (a timeout or a reset once the connection was open).
 */
export function mayHaveBeenSent(err: OutboundError): boolean {
  if (err.kind === "timeout") return true;
  if (err.kind !== "connection") return false;
  const code = String((err.cause as { code?: unknown } | undefined)?.code ?? "");
  return !/^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EAI_NONAME|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL)$/.test(code);
}
