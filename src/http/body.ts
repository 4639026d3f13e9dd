// The request body of a /v1 route (reference §1): at most 1 MiB of UTF-8, JSON (an empty body is `{}`), sent as
// application/json, an object, storable and not too deep (domain/input.ts); a route that takes no body refuses
// any field.

import { guardJson } from "../domain/input.ts";
import { unknownParameters } from "../domain/validate.ts";
import { badRequest, ServiceError } from "../lib/errors.ts";
import type { RouteDef } from "./route.ts";

export const MAX_BODY_BYTES = 1024 * 1024;

/** Reads, checks and parses the body; returns the raw text (for the idempotency fingerprint) and the value. */
export async function readJsonBody(
  route: RouteDef,
  request: Request,
): Promise<{ raw: string; body: unknown }> {
  const raw = await readBody(request);
  if (raw.trim() === "") return { raw, body: {} };
  checkContentType(request.headers.get("content-type"));
  const body = parseJson(raw);
  guardJson(body);
  if (!route.body) {
    // Nothing to say to this route (revoke, cancel, resend, delete): a field is unknown, as anywhere else.
    const fields = Object.keys(body as object);
    if (fields.length)
      throw unknownParameters(
        fields.map((k) => ({ param: k, name: k })),
        () => [],
      );
  }
  return { raw, body };
}

/** The JSON object of a route that reads its own body (`rawBody`, such as a media upload sent as JSON). */
export async function readJsonObject(request: Request): Promise<unknown> {
  const raw = await readBody(request);
  if (raw.trim() === "") return {};
  checkContentType(request.headers.get("content-type"));
  const body = parseJson(raw);
  guardJson(body);
  return body;
}

/**
 * A body is JSON only when it says so: text/plain or a form is refused rather than parsed as JSON (a browser can
 * send those across origins without asking first). No Content-Type at all is taken as JSON, as curl --json and
 * most clients would mean. Refused as json_invalid: the body is not a JSON body.
 */
function checkContentType(header: string | null): void {
  if (header === null) return;
  const type = header.split(";")[0]!.trim().toLowerCase();
  if (type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type)) return;
  throw badRequest(
    "json_invalid",
    `The body must be sent as Content-Type: application/json (got ${type || "an empty type"}).`,
    "Content-Type",
  );
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Reads at most 1 MiB of body as UTF-8 text. */
export async function readBody(request: Request): Promise<string> {
  return utf8(await readBoundedBytes(request, MAX_BODY_BYTES, tooLarge));
}

const tooLarge = () => badRequest("body_too_large", "The request body is over 1 MiB.");

function utf8(bytes: ArrayBuffer | Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw badRequest("body_unreadable", "The request body is not valid UTF-8.");
  }
}

/**
 * Reads a body of at most `max` bytes, bounded while it is read: a declared length over `max` is refused before a
 * byte is read, and a body without one (chunked) is read through a stream reader that stops, and cancels the
 * rest, as soon as it passes `max`. Shared by /v1 and the dashboard, so no route holds more than its limit.
 */
export async function readBoundedBytes(
  request: Request,
  max: number,
  over: () => ServiceError,
): Promise<Uint8Array> {
  const length = request.headers.get("content-length");
  const declared = Number(length ?? "0");
  if (declared > max) throw over();
  if (length !== null && Number.isSafeInteger(declared) && declared >= 0)
    return readDeclared(request, max, over);
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel().catch(() => {});
        throw over();
      }
      chunks.push(value);
    }
  } catch (e) {
    if (e instanceof ServiceError) throw e;
    throw badRequest("body_unreadable", "The request body could not be read.");
  }
  return Buffer.concat(chunks);
}

/**
 * A body of declared length (at most `max`, checked by the caller) read whole by the runtime: HTTP framing ends
 * the body at that length, and reading it through a stream reader cost tens of µs of CPU a request. The size is
 * checked again because an in-process Request may carry more than it declares.
 */
async function readDeclared(request: Request, max: number, over: () => ServiceError): Promise<Uint8Array> {
  let bytes: ArrayBuffer;
  try {
    bytes = await request.arrayBuffer();
  } catch {
    throw badRequest("body_unreadable", "The request body could not be read.");
  }
  if (bytes.byteLength > max) throw over();
  return new Uint8Array(bytes);
}

function parseJson(raw: string): unknown {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch (e) {
    throw badRequest("json_invalid", `The body is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw badRequest("json_invalid", "The body must be a JSON object.");
  return body;
}
