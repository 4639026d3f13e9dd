// A request body of known length sent through the guarded client as it is read (a video from the bucket): the
// socket's pace sets how much is read, and a source that fails or gives another length cuts the request.
import type http from "node:http";
import { OutboundError, originOf } from "./errors.ts";

/**
 * A body read as it is sent, never held whole (a video from the bucket). Its length is announced up front
 * (Content-Length: servers that refuse chunked uploads take it), and a stream that yields more or fewer bytes fails
 * the request, cut before it is whole. It can be sent once only, so a redirect that would send it again is returned
 * rather than followed.
 */
export interface StreamBody {
  stream: ReadableStream<Uint8Array>;
  length: number;
}

/** What is used of a stream's reader (Bun's and node:stream/web's types differ in the rest). */
interface ByteReader {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  cancel(reason?: unknown): Promise<void>;
}

export function isStreamBody(body: unknown): body is StreamBody {
  return typeof body === "object" && body !== null && "stream" in body;
}

export function bodyFailed(url: URL, err: unknown): OutboundError {
  const why = err instanceof Error ? err.message : String(err);
  return new OutboundError("body", `the body for ${originOf(url)} could not be read: ${why}`, { cause: err });
}

/**
 * Writes a streamed body chunk by chunk, waiting for the socket to drain, so at most a few chunks are in memory.
 * Stops once the exchange is over (answered early, or failed); fails when the source errs or gives more or fewer
 * bytes than announced, and then the request is cut before it is whole, so the server cannot act on it.
 */
export async function writeStream(
  req: http.ClientRequest,
  reader: ByteReader,
  length: number,
  over: () => boolean,
): Promise<void> {
  let sent = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (over()) return;
    if (done) break;
    if (!value) continue;
    sent += value.byteLength;
    if (sent > length) throw new Error(`it is longer than the ${length} bytes announced`);
    if (!req.write(value) && !over()) await drained(req);
  }
  if (sent !== length) throw new Error(`it ended after ${sent} of the ${length} bytes announced`);
  req.end();
}

/** Resolves when the socket takes more, or the request is gone. */
function drained(req: http.ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      req.off("drain", done);
      req.off("close", done);
      resolve();
    };
    req.on("drain", done);
    req.on("close", done);
  });
}
