// How adapters talk HTTP to a network: every request goes through the guarded outbound client (a Mastodon server
// or a webhook host is chosen by the tenant; an operator may point a fixed origin elsewhere with
// SVC_PROVIDER_ORIGINS), and a request that fails before an answer is classified by whether the network may have
// acted on it. The network libraries (masto, @slack/web-api, grammy, @discordjs/rest) are not used: none of them
// can be handed this client (masto 8 calls the global fetch, @slack/web-api uses axios), and rule 7 needs every
// request to a tenant's server to go through it.
import type { App } from "../../app/context.ts";
import { StreamedForm } from "../../lib/streamed-form.ts";
import { networksAllow } from "../../net/allow.ts";
import { guardedRequest, OutboundError, type StreamBody } from "../../net/guarded.ts";
import type { PublishOutcome } from "../adapter.ts";

export interface NetworkResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface NetworkRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  url: string;
  headers?: Record<string, string>;
  /** A JSON body (sent as application/json). */
  json?: unknown;
  /** A form body (sent as application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  /**
   * A multipart body (files and fields), sent as multipart/form-data with its boundary: a FormData is encoded
   * whole first; a StreamedForm (a video) is sent as it is read, never whole in memory.
   */
  multipart?: FormData | StreamedForm;
  /** Raw bytes with their media type (an image PUT to an upload URL). */
  bytes?: { data: Uint8Array; type: string };
  /** Raw bytes from a stream of exactly `length` bytes, sent as they are read (a video, never whole in memory). */
  stream?: { data: ReadableStream<Uint8Array>; length: number; type: string };
  /** The total bound of this call, connection to the last byte of the answer (default 30 s). */
  timeoutMs?: number;
  /**
   * The publish's own signal (PublishInput.signal): when its deadline passes, the call in flight is cut at once,
   * not left running after the worker has moved on.
   */
  signal?: AbortSignal;
}

/**
 * Why no answer came: `unsent` when the network cannot have acted on the request, else `maybe_sent`.
 * `refused` when svc itself would not send it (an address SVC_ALLOW_PRIVATE_NETWORKS does not allow, a URL that
 * is not http(s)): retrying cannot help.
 */
export class NoAnswer extends Error {
  readonly sent: "unsent" | "maybe_sent";
  readonly refused: boolean;
  constructor(
    sent: "unsent" | "maybe_sent",
    refused: boolean,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "NoAnswer";
    this.sent = sent;
    this.refused = refused;
  }
}

/** The outcome of a publish request that got no answer. */
export function noAnswerOutcome(network: string, err: NoAnswer, index: number): PublishOutcome {
  if (err.refused) return { kind: "rejected", code: "network", message: `${network}: ${err.message}` };
  return err.sent === "unsent"
    ? { kind: "transient", message: `${network}: ${err.message}; part ${index + 1} was not sent.` }
    : { kind: "uncertain", message: `${network}: ${err.message} after part ${index + 1} was sent.` };
}

// Errors raised before any byte of the request can have reached the network: the address was refused, the
// name did not resolve, nothing listened, TLS did not complete. A reset, a broken pipe, a timeout or a garbled
// answer may come after the network read the request and acted on it.
const UNSENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_NONAME",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
]);

function causeCode(err: unknown): string {
  const cause = err instanceof Error ? err.cause : undefined;
  return typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : "";
}

/** Sends one request to a network. Throws NoAnswer when no complete answer came. */
export async function networkRequest(app: App, req: NetworkRequest): Promise<NetworkResponse> {
  const headers: Record<string, string> = { accept: "application/json", ...req.headers };
  let body: string | Uint8Array | StreamBody | undefined;
  if (req.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(req.json);
  } else if (req.form !== undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(req.form).toString();
  } else if (req.multipart instanceof StreamedForm) {
    headers["content-type"] = req.multipart.contentType;
    body = { stream: req.multipart.stream(), length: req.multipart.length };
  } else if (req.stream !== undefined) {
    headers["content-type"] = req.stream.type;
    body = { stream: req.stream.data, length: req.stream.length };
  } else if (req.bytes !== undefined) {
    headers["content-type"] = req.bytes.type;
    body = req.bytes.data;
  } else if (req.multipart !== undefined) {
    // The platform encodes the form (boundary included) and the guarded client sends the bytes.
    const encoded = new Response(req.multipart);
    headers["content-type"] = encoded.headers.get("content-type") ?? "multipart/form-data";
    body = new Uint8Array(await encoded.arrayBuffer());
  }
  let res: Awaited<ReturnType<typeof guardedRequest>>;
  try {
    res = await guardedRequest({
      method: req.method,
      url: req.url,
      headers,
      ...(body !== undefined ? { body } : {}),
      timeoutMs: req.timeoutMs ?? 30_000,
      allow: networksAllow(app.config),
      ...(req.signal ? { signal: req.signal } : {}),
    });
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    const refused = err.kind === "blocked_address" || err.kind === "invalid_url";
    // A body that failed was cut before it was whole: no server acts on half a request.
    const unsent =
      refused ||
      err.kind === "tls" ||
      err.kind === "body" ||
      (err.kind === "connection" && UNSENT_CODES.has(causeCode(err)));
    throw new NoAnswer(unsent ? "unsent" : "maybe_sent", refused, err.message, { cause: err });
  }
  const text = new TextDecoder().decode(res.body);
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Milliseconds until an absolute reset time (ISO 8601 or Unix seconds), never negative. */
export function msUntil(app: App, reset: string | null): number | null {
  if (!reset) return null;
  const asNumber = Number(reset);
  const at = Number.isFinite(asNumber) ? asNumber * 1000 : Date.parse(reset);
  if (!Number.isFinite(at)) return null;
  return Math.max(0, Math.ceil(at - app.clock.now()));
}

/** Milliseconds from a delay in seconds (Retry-After, retry_after), or null. */
export function secondsToMs(value: unknown): number | null {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) && n >= 0 ? Math.ceil(n * 1000) : null;
}

/** A field of a JSON object, or undefined. */
export function field(obj: unknown, name: string): unknown {
  return typeof obj === "object" && obj !== null ? (obj as Record<string, unknown>)[name] : undefined;
}

export function str(value: unknown): string | null {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : null;
}

/** The parts still to send, in order. */
export function remainingParts<P extends { index: number }>(parts: P[], done: { index: number }[]): P[] {
  const sent = new Set(done.map((d) => d.index));
  return parts.filter((p) => !sent.has(p.index)).sort((a, b) => a.index - b.index);
}

/**
 * For channels that carry text only (a Slack incoming webhook). A part that carries media is refused as a whole
 * rather than sent without its images, which would publish something other than what was approved.
 */
export function mediaNotSent(
  network: string,
  parts: { index: number; media: unknown[] }[],
  why = `svc does not send media to ${network} yet`,
): PublishOutcome | null {
  const withMedia = parts.find((p) => p.media.length > 0);
  if (!withMedia) return null;
  return {
    kind: "rejected",
    code: "media_rejected",
    message: `${why} (part ${withMedia.index + 1} has ${withMedia.media.length}); nothing was posted.`,
  };
}
