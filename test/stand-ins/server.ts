// What every stand-in shares: a Bun.serve on 127.0.0.1 and port 0 that checks each request against the network's
// description before the network's logic sees it (a request the real API would refuse is refused, and recorded
// as a problem), checks each answer it gives, and on demand produces the network's documented failures.
// `problems` collects every mismatch; a test fails when it is not empty (see expectClean).
import { expect } from "bun:test";
import type { Server } from "bun";
import type { Spec, SpecRequest } from "./spec.ts";

export interface Answer {
  status: number;
  body?: unknown;
  /** Sent as text/plain instead of JSON (Slack's incoming webhooks). */
  text?: string;
  headers?: Record<string, string>;
  /** Why this answer is outside the description (a protocol the description leaves out): it is not checked. */
  unchecked?: string;
}

/** A failure the next matching request meets. */
export type Failure =
  /** The network's rate limit, with its reset header or field. */
  | "rate_limited"
  /** The credential was revoked (or the webhook deleted). */
  | "revoked"
  /** A 5xx. */
  | "server_error"
  /** The request is read and acted on (the post is stored), then the connection is cut mid-answer. */
  | "reset_after_read"
  /** Acted on, then the answer is held this long (a worker can be killed meanwhile). */
  | { slowMs: number };

export interface Incoming extends SpecRequest {
  operationId: string | null;
  /** The unread body of a request the stand-in streams (StandInHooks.streams). */
  stream?: ReadableStream<Uint8Array> | null;
  /** The raw path before any prefix was stripped. */
  rawPath: string;
}

export interface StandInHooks {
  spec: Spec | null;
  /** A fixed port (a stand-in started again where it was); default any free one. */
  port?: number;
  /**
   * Maps the URL path to the description's path (e.g. strips /api/v10 or /bot<token>), or null for 404.
   * `unchecked` names why an endpoint the description does not cover is served without validation.
   */
  route(
    path: string,
    method: string,
  ): { path: string; params?: Record<string, string>; unchecked?: string } | null;
  /** Reshapes a request for validation only, to work around a known defect of the description. */
  adapt?(req: SpecRequest): SpecRequest;
  /** The network's logic. */
  handle(req: Incoming, params: Record<string, string>): Answer | Promise<Answer>;
  /** How the network refuses a request its API does not accept. */
  invalid(problems: string[]): Answer;
  /** How the network answers each injected failure. */
  failure(kind: Exclude<Failure, "reset_after_read" | { slowMs: number }>, req: Incoming): Answer;
  /** Which of the description's answers an answer is checked against (Slack: errors come with HTTP 200). */
  validateAs?(a: Answer): number | "default";
  /** Statuses the network documents outside its description (with where): their answers are not checked. */
  documentedElsewhere?: Record<number, string>;
  /** Which requests an injected failure applies to (default: every request). */
  failsOn?(req: Incoming): boolean;
  /**
   * Requests whose body the network's logic reads itself, as it arrives (a video upload of any size): their
   * `stream` is the body, unread, and `body` is undefined.
   */
  streams?(method: string, path: string): boolean;
}

export interface StandIn {
  url: string;
  port: number;
  /** Mismatches with the description, in requests received and answers given. */
  problems: string[];
  /** Every request received, in order. */
  requests: Incoming[];
  /**
   * The next `times` matching requests meet this failure; `only` narrows which requests match (say, a post's
   * create and not the media upload before it).
   */
  fail(failure: Failure, times?: number, only?: (req: Incoming) => boolean): void;
  stop(): void;
}

function headersOf(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  req.headers.forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

/** A file sent in a multipart body. */
export interface UploadedFile {
  name: string;
  type: string;
  bytes: Uint8Array;
}

async function bodyOf(req: Request): Promise<unknown> {
  const type0 = req.headers.get("content-type") ?? "";
  if (type0.includes("multipart/form-data")) {
    const out: Record<string, string | UploadedFile> = {};
    for (const [k, v] of (await req.formData()).entries())
      out[k] =
        typeof v === "string"
          ? v
          : { name: v.name, type: v.type, bytes: new Uint8Array(await v.arrayBuffer()) };
    return out;
  }
  // A raw upload (an image PUT to an upload URL): its bytes, unread as text.
  if (/^(image|video)\/|^application\/octet-stream/.test(type0))
    return { name: "", type: type0, bytes: new Uint8Array(await req.arrayBuffer()) } satisfies UploadedFile;
  const text = await req.text();
  if (text === "") return undefined;
  const type = req.headers.get("content-type") ?? "";
  if (type.includes("application/x-www-form-urlencoded"))
    return Object.fromEntries(new URLSearchParams(text).entries());
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function filesAsText(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(
    Object.entries(body).map(([k, v]) => [
      k,
      typeof v === "object" && v !== null && "bytes" in v ? String((v as UploadedFile).name) : v,
    ]),
  );
}

function respond(a: Answer): Response {
  const headers = new Headers(a.headers);
  if (a.text !== undefined) {
    if (!headers.has("content-type")) headers.set("content-type", "text/plain; charset=utf-8");
    return new Response(a.text, { status: a.status, headers });
  }
  if (a.body === undefined) return new Response(null, { status: a.status, headers });
  headers.set("content-type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(a.body), { status: a.status, headers });
}

/** Headers sent, then part of the body, then the connection is cut: the client sees a reset. */
function cutOff(a: Answer): Response {
  const full = a.text ?? JSON.stringify(a.body ?? {});
  const half = new TextEncoder().encode(full.slice(0, Math.max(1, Math.floor(full.length / 2))));
  const stream = new ReadableStream({
    start(c) {
      c.enqueue(half);
      setTimeout(() => c.error(new Error("stand-in: connection cut after the request was read")), 5);
    },
  });
  return new Response(stream, {
    status: a.status,
    headers: { "content-type": "application/json", "content-length": String(full.length + 10) },
  });
}

export function startStandIn(hooks: StandInHooks): StandIn {
  const problems: string[] = [];
  const requests: Incoming[] = [];
  const failures: Failure[] = [];
  /** Per queued failure, the requests it is for (null: any). */
  const onlyFor: (((req: Incoming) => boolean) | null)[] = [];

  const check = (req: Incoming, a: Answer) => {
    if (!hooks.spec || !req.operationId || a.unchecked) return;
    if (hooks.documentedElsewhere?.[a.status]) return;
    const found = hooks.spec.checkResponse(
      req.operationId,
      hooks.validateAs?.(a) ?? a.status,
      // An answer without a body (204) is checked as the description's "no content": null.
      a.text ?? (a.body === undefined ? null : a.body),
    );
    for (const p of found) problems.push(`answer ${a.status} to ${req.operationId}: ${p}`);
  };

  const server: Server<undefined> = Bun.serve({
    port: hooks.port ?? 0,
    hostname: "127.0.0.1",
    // Video uploads (streamed by the stand-ins that take them) may be far larger than Bun's default 128 MB.
    maxRequestBodySize: 8 * 1024 ** 3,
    // The cut-off answers end in an error on purpose; anything else is a fault of the stand-in.
    error: (err) => {
      if (!String(err?.message).startsWith("stand-in: connection cut"))
        problems.push(`stand-in fault: ${err?.stack}`);
      return new Response(null, { status: 500 });
    },
    async fetch(raw) {
      const url = new URL(raw.url);
      const routed = hooks.route(url.pathname, raw.method);
      const streamed = hooks.streams?.(raw.method, url.pathname) ?? false;
      const incoming: Incoming = {
        method: raw.method,
        rawPath: url.pathname,
        path: routed?.path ?? url.pathname,
        headers: headersOf(raw),
        query: Object.fromEntries(url.searchParams.entries()),
        body: streamed ? undefined : await bodyOf(raw),
        operationId: null,
        ...(streamed ? { stream: raw.body } : {}),
      };
      requests.push(incoming);
      if (!routed) return new Response("not found", { status: 404 });
      if (hooks.spec && !routed.unchecked) {
        // Validation may coerce what it checks (form fields to booleans): it works on a copy.
        // A file is checked as what the description calls it: a string in binary format.
        const { stream: _unread, ...plain } = incoming;
        const copy = structuredClone({ ...plain, body: filesAsText(incoming.body) });
        const { operationId, problems: found } = hooks.spec.checkRequest(hooks.adapt?.(copy) ?? copy);
        incoming.operationId = operationId;
        if (found.length) {
          for (const p of found) problems.push(`request ${raw.method} ${incoming.path}: ${p}`);
          const a = hooks.invalid(found);
          return respond(a);
        }
      }
      const matches =
        failures.length && (hooks.failsOn?.(incoming) ?? true) && (onlyFor[0]?.(incoming) ?? true);
      const failure = matches ? failures.shift() : undefined;
      if (matches) onlyFor.shift();
      if (failure === "rate_limited" || failure === "revoked" || failure === "server_error") {
        const a = hooks.failure(failure, incoming);
        check(incoming, a);
        return respond(a);
      }
      const a = await hooks.handle(incoming, routed.params ?? {});
      check(incoming, a);
      if (failure === "reset_after_read") return cutOff(a);
      if (failure && typeof failure === "object") await Bun.sleep(failure.slowMs);
      return respond(a);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    port: server.port ?? 0,
    problems,
    requests,
    fail(f, times = 1, only) {
      for (let i = 0; i < times; i++) {
        failures.push(f);
        onlyFor.push(only ?? null);
      }
    },
    stop: () => server.stop(true),
  };
}

/** Fails the test when a stand-in saw a request, or gave an answer, that the description does not allow. */
export function expectClean(s: StandIn): void {
  const found = s.problems.splice(0);
  expect(found).toEqual([]);
}
