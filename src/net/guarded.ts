// The one guarded client for requests to addresses a tenant chooses (ARCHITECTURE rule 7): webhooks, media URLs,
// self-hosted network servers. A host given by name goes through node:http/node:https because Bun's fetch ignores
// a custom DNS lookup: the lookup in ./lookup.ts checks the resolved address when the socket is opened. A host
// given as an IP literal has nothing to resolve: it is checked before connecting, and the request (unless its body
// is a stream) goes through Bun's fetch, which costs a fraction of the CPU of Bun's node:http per request; the
// address connected to is the literal that was checked, so the guard is the same. Redirects are followed by hand
// so every hop is checked again, whichever way it is sent.

import type http from "node:http";
import type https from "node:https";
import { type AllowSetting, NOTHING_ALLOWED, parseAllowSetting } from "./allow.ts";
import { Deadline } from "./deadline.ts";
import { OutboundError, originOf, toOutboundError } from "./errors.ts";
import { checkLiteralHost, guardedLookup, type Resolver, resolveChecked, systemResolver } from "./lookup.ts";
import { bodyFailed, isStreamBody, type StreamBody, writeStream } from "./stream-body.ts";

export { OutboundError, type OutboundErrorKind } from "./errors.ts";
export type { ResolvedAddress, Resolver } from "./lookup.ts";
export type { StreamBody } from "./stream-body.ts";

export interface GuardedRequestOptions {
  method?: string;
  url: string | URL;
  headers?: Record<string, string>;
  /** Bytes, or a stream of exactly `length` bytes sent as it is read (a video never held whole). */
  body?: string | Uint8Array | StreamBody;
  /** Deadline for the whole exchange, redirects and body included. Default 10 000 ms. */
  timeoutMs?: number;
  /** Keep at most this many bytes of the final response body; the rest is discarded. Default 1 MiB. */
  maxResponseBytes?: number;
  /** Which non-public addresses may be reached: a parsed setting, or its text. Default: none. */
  allow?: AllowSetting | string;
  /** Follow 301/302/303/307/308 (at most 5 hops), checking each. Default false: the 3xx is returned. */
  followRedirects?: boolean;
  /** Replaces the system resolver (tests). Requests with one never share pooled connections. */
  resolve?: Resolver;
  /** Aborting it ends the exchange at once, like the deadline (an OutboundError of kind "timeout"). */
  signal?: AbortSignal;
}

export interface GuardedResponse {
  status: number;
  headers: Headers;
  /** The body, cut at maxResponseBytes. */
  body: Uint8Array;
  /** True when the body was longer than maxResponseBytes. */
  truncated: boolean;
  /** The URL that answered, after redirects. */
  url: string;
  durationMs: number;
}

export const MAX_REDIRECTS = 5;
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
/** Past the kept bytes, read this much more so the connection can be reused; beyond it, close the socket. */
const DRAIN_BYTES = 64 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

interface Agents {
  http: http.Agent;
  https: https.Agent;
}

// Pooled sockets were checked under the setting that opened them, so pools are kept per allow setting and a
// stricter caller never reuses a socket a laxer one opened.
const pools = new Map<string, Agents>();

function makeAgents(keepAlive: boolean): Agents {
  const opts = { keepAlive, maxSockets: 64, maxFreeSockets: 16, scheduling: "lifo" as const };
  // node:http and node:https load with the first outbound request, not at start-up.
  const { Agent: HttpAgent } = require("node:http") as typeof http;
  const { Agent: HttpsAgent } = require("node:https") as typeof https;
  return { http: new HttpAgent(opts), https: new HttpsAgent(opts) };
}

function pooledAgents(allow: AllowSetting): Agents {
  let agents = pools.get(allow.source);
  if (!agents) {
    agents = makeAgents(true);
    pools.set(allow.source, agents);
  }
  return agents;
}

/** Closes pooled connections (process shutdown, tests). */
export function closeOutboundPools(): void {
  for (const agents of pools.values()) {
    agents.http.destroy();
    agents.https.destroy();
  }
  pools.clear();
}

/** Parses and vets a URL for the guarded client: http(s) only, no userinfo. */
export function parseOutboundUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    throw new OutboundError("invalid_url", "not a valid absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new OutboundError("invalid_url", `scheme ${url.protocol} is not allowed; use http or https`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new OutboundError("invalid_url", `${originOf(url)}: URLs with credentials are not allowed`);
  }
  if (url.hostname === "") throw new OutboundError("invalid_url", "URL has no host");
  return url;
}

function resolveAllow(allow: AllowSetting | string | undefined): AllowSetting {
  if (allow === undefined) return NOTHING_ALLOWED;
  return typeof allow === "string" ? parseAllowSetting(allow) : allow;
}

/**
 * Checks now that a URL is acceptable and its host resolves only to allowed addresses, e.g. when a webhook
 * endpoint is saved. This is advice for a quick error; the connection-time check in guardedRequest is the guard.
 */
export async function checkOutboundUrl(
  input: string | URL,
  opts: { allow?: AllowSetting | string; resolve?: Resolver } = {},
): Promise<URL> {
  const url = parseOutboundUrl(input);
  const allow = resolveAllow(opts.allow);
  if (!checkLiteralHost(url, allow)) {
    await resolveChecked(url.hostname, allow, opts.resolve ?? systemResolver, originOf(url));
  }
  return url;
}

interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array | StreamBody | undefined;
}

interface HopResult {
  status: number;
  headers: Headers;
  body: Uint8Array;
  truncated: boolean;
}

/** Sends one request, retrying nothing, following redirects only when asked. Throws OutboundError. */
export async function guardedRequest(opts: GuardedRequestOptions): Promise<GuardedResponse> {
  const started = performance.now();
  const allow = resolveAllow(opts.allow);
  const resolve = opts.resolve ?? systemResolver;
  const agents = opts.resolve ? makeAgents(false) : pooledAgents(allow);
  const maxBytes = Math.max(0, opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const body = typeof opts.body === "string" ? new TextEncoder().encode(opts.body) : opts.body;

  let hop: Hop = {
    url: parseOutboundUrl(opts.url),
    method: (opts.method ?? "GET").toUpperCase(),
    headers: { ...opts.headers },
    body,
  };

  const deadline = new Deadline(timeoutMs);
  const onAbort = () => deadline.expireNow("the request was aborted");
  if (opts.signal?.aborted) onAbort();
  opts.signal?.addEventListener("abort", onAbort);
  try {
    for (let redirects = 0; ; redirects++) {
      const result = await sendHop(hop, { allow, resolve, agents, deadline, maxBytes });
      const location = result.headers.get("location");
      if (
        !opts.followRedirects ||
        !REDIRECTS.has(result.status) ||
        location === null ||
        (isStreamBody(hop.body) && keepsBody(hop.method, result.status))
      ) {
        return { ...result, url: hop.url.href, durationMs: Math.round(performance.now() - started) };
      }
      if (redirects >= MAX_REDIRECTS) {
        throw new OutboundError(
          "too_many_redirects",
          `${originOf(hop.url)}: more than ${MAX_REDIRECTS} redirects`,
        );
      }
      hop = nextHop(hop, result.status, location);
    }
  } finally {
    opts.signal?.removeEventListener("abort", onAbort);
    deadline.clear();
    if (opts.resolve) {
      agents.http.destroy();
      agents.https.destroy();
    }
  }
}

/** Whether following this redirect sends the request body again (307 and 308 always; 301/302 unless POST). */
function keepsBody(method: string, status: number): boolean {
  if (status === 303) return false;
  return !((status === 301 || status === 302) && method === "POST");
}

function nextHop(hop: Hop, status: number, location: string): Hop {
  let url: URL;
  try {
    url = parseOutboundUrl(new URL(location, hop.url));
  } catch (err) {
    const why = err instanceof OutboundError ? err.message : "not a valid URL";
    throw new OutboundError("invalid_url", `${originOf(hop.url)} redirected to an unusable URL: ${why}`);
  }
  const headers = { ...hop.headers };
  let { method, body } = hop;
  if (status === 303 ? method !== "HEAD" : (status === 301 || status === 302) && method === "POST") {
    method = "GET";
    body = undefined;
    for (const name of Object.keys(headers)) {
      if (/^(content-type|content-length|content-encoding|transfer-encoding)$/i.test(name))
        delete headers[name];
    }
  }
  // Credentials meant for one origin do not travel to another.
  if (url.origin !== hop.url.origin) {
    for (const name of Object.keys(headers)) {
      if (/^(authorization|cookie|proxy-authorization)$/i.test(name)) delete headers[name];
    }
  }
  return { url, method, headers, body };
}

interface HopContext {
  allow: AllowSetting;
  resolve: Resolver;
  agents: Agents;
  deadline: Deadline;
  maxBytes: number;
}

function sendHop(hop: Hop, ctx: HopContext): Promise<HopResult> {
  const { url } = hop;
  const literal = checkLiteralHost(url, ctx.allow);
  if (literal && !isStreamBody(hop.body)) return sendHopByFetch(hop, ctx);
  const isHttps = url.protocol === "https:";
  const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const headers: Record<string, string> = {};
  const body = hop.body;
  for (const [name, value] of Object.entries(hop.headers)) {
    if (/^(content-length|transfer-encoding)$/i.test(name)) continue;
    if (isStreamBody(body) && /^connection$/i.test(name)) continue;
    headers[name] = value;
  }
  if (body !== undefined)
    headers["content-length"] = String(isStreamBody(body) ? body.length : body.byteLength);

  return new Promise<HopResult>((resolvePromise, rejectPromise) => {
    let settled = false;
    // Once an answer has begun, the request's own errors no longer count: a server may answer (413) and hang up
    // before a streamed body is all sent, and that answer is what the caller needs.
    let answered = false;
    let req: http.ClientRequest | undefined;
    // A streamed body's source, released as soon as the exchange ends (an early answer, the deadline, a failure)
    // even while a read from it is pending.
    const reader = isStreamBody(body) ? body.stream.getReader() : undefined;
    const release = () => {
      reader?.cancel().catch(() => {});
    };
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      release();
      req?.destroy();
      rejectPromise(toOutboundError(err, url));
    };
    const succeed = (result: HopResult) => {
      if (settled) return;
      settled = true;
      release();
      // Answered before a streamed body was all sent (a 413): that socket is mid-request, never to be reused.
      if (reader && !req?.writableEnded) req?.destroy();
      resolvePromise(result);
    };

    const requestOptions: https.RequestOptions = {
      protocol: url.protocol,
      hostname,
      port: url.port === "" ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: hop.method,
      headers,
      agent: isHttps ? ctx.agents.https : ctx.agents.http,
      lookup: guardedLookup(ctx.allow, ctx.resolve, () =>
        originOf(url),
      ) as unknown as https.RequestOptions["lookup"],
    };
    const mod = (isHttps ? require("node:https") : require("node:http")) as typeof https;
    req = mod.request(requestOptions, (res) => {
      answered = true;
      const status = res.statusCode ?? 0;
      const resHeaders = toHeaders(res.rawHeaders);
      readBody(
        res,
        ctx.maxBytes,
        (body, truncated) => succeed({ status, headers: resHeaders, body, truncated }),
        fail,
      );
    });
    req.on("error", (err) => {
      if (!answered) fail(err);
    });
    // A server that answers a byte at a time (headers, then a trickle) is cut at the same total bound as one that
    // never answers; the message says which, so a stored attempt tells a slow server from a silent one.
    ctx.deadline.watch((err) =>
      fail(
        answered && !ctx.deadline.cancelled
          ? new OutboundError(
              "timeout",
              `${originOf(url)} began its answer but did not finish it within ${ctx.deadline.timeoutMs} ms`,
            )
          : err,
      ),
    );
    if (reader && isStreamBody(body)) {
      writeStream(req, reader, body.length, () => settled || answered).catch((err) => {
        if (!answered) fail(bodyFailed(url, err));
      });
    } else req.end(body as Uint8Array | undefined);
  });
}

/**
 * One hop to a checked IP literal through Bun's fetch, with the same bounds as the node:http path: the deadline
 * (or the caller's abort) cuts it wherever it is, the body is kept up to maxBytes and drained a little past that,
 * and failures become the same OutboundErrors.
 */
async function sendHopByFetch(hop: Hop, ctx: HopContext): Promise<HopResult> {
  const { url } = hop;
  const controller = new AbortController();
  let answered = false;
  let failure: OutboundError | undefined;
  ctx.deadline.watch((err) => {
    failure =
      answered && !ctx.deadline.cancelled
        ? new OutboundError(
            "timeout",
            `${originOf(url)} began its answer but did not finish it within ${ctx.deadline.timeoutMs} ms`,
          )
        : err;
    controller.abort(failure);
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(hop.headers))
    if (!/^(content-length|transfer-encoding|host)$/i.test(name)) headers[name] = value;
  try {
    const res = await fetch(url.href, {
      method: hop.method,
      headers,
      body: hop.body as Uint8Array<ArrayBuffer> | undefined,
      redirect: "manual",
      signal: controller.signal,
    });
    answered = true;
    // An uncompressed answer that says its length and fits is read whole (fetch holds it to that length): a token
    // or a small JSON answer costs no reader and no copy. A compressed one's length is not what it unpacks to.
    const declared = res.headers.get("content-length");
    const encoding = res.headers.get("content-encoding");
    if (
      declared !== null &&
      (encoding === null || encoding === "identity") &&
      /^\d{1,15}$/.test(declared) &&
      Number(declared) <= ctx.maxBytes
    ) {
      const whole = new Uint8Array(await res.arrayBuffer());
      const truncated = whole.byteLength > ctx.maxBytes;
      return {
        status: res.status,
        headers: res.headers,
        body: truncated ? whole.slice(0, ctx.maxBytes) : whole,
        truncated,
      };
    }
    const chunks: Uint8Array[] = [];
    let kept = 0;
    let seen = 0;
    if (res.body) {
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        seen += value.byteLength;
        if (kept < ctx.maxBytes) {
          const take = value.subarray(0, ctx.maxBytes - kept);
          chunks.push(take);
          kept += take.byteLength;
        }
        if (seen > ctx.maxBytes + DRAIN_BYTES) {
          await reader.cancel().catch(() => {});
          break;
        }
      }
    }
    const body = new Uint8Array(kept);
    let at = 0;
    for (const c of chunks) {
      body.set(c, at);
      at += c.byteLength;
    }
    return { status: res.status, headers: res.headers, body, truncated: seen > ctx.maxBytes };
  } catch (err) {
    if (failure) throw failure;
    const code = typeof err === "object" && err !== null && "code" in err ? String(err.code) : "";
    // Bun's fetch reports a server that hung up before answering and one that answered something other than HTTP
    // alike (ECONNRESET before any answer): the message names both.
    if (!answered && code === "ECONNRESET")
      throw new OutboundError(
        "connection",
        `${originOf(url)}: connection reset, or it sent an invalid HTTP response`,
        { cause: err },
      );
    throw toOutboundError(err, url);
  }
}

/**
 * Keeps the first `maxBytes` and drains a little more so the connection can be reused; past that it reports
 * what it kept and hangs up. `done` is called before the socket is destroyed, so the hang-up is not an error.
 */
function readBody(
  res: http.IncomingMessage,
  maxBytes: number,
  done: (body: Uint8Array, truncated: boolean) => void,
  fail: (err: unknown) => void,
): void {
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let seen = 0;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    const body = new Uint8Array(kept);
    let at = 0;
    for (const c of chunks) {
      body.set(c, at);
      at += c.byteLength;
    }
    done(body, seen > maxBytes);
  };
  res.on("data", (chunk: Uint8Array) => {
    seen += chunk.byteLength;
    if (kept < maxBytes) {
      const take = chunk.subarray(0, maxBytes - kept);
      chunks.push(take);
      kept += take.byteLength;
    }
    if (seen > maxBytes + DRAIN_BYTES) {
      finish();
      res.destroy();
    }
  });
  res.on("end", finish);
  res.on("error", (err) => {
    if (!finished) fail(err);
  });
  res.on("aborted", () => {
    if (!finished) fail(Object.assign(new Error("response ended early"), { code: "ECONNRESET" }));
  });
}

function toHeaders(raw: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}
