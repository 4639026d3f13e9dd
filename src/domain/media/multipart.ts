// Reads a multipart upload as it arrives (busboy over the request stream): the fields `brand` and `alt`, and one
// file part `file`. An image is kept in memory up to the 16 MiB limit; a video is never held: its bytes flow on
// into the bucket (a multipart upload through a fixed pool of part buffers) at the pace the bucket takes them.
import { once } from "node:events";
import type { Readable } from "node:stream";
import type busboy from "busboy";
import type { App } from "../../app/context.ts";
import { nodeCrypto } from "../../crypto/node.ts";
import { badRequest, invalid, problem, type ServiceError } from "../../lib/errors.ts";
import { once as loadOnce } from "../../lib/once.ts";
import { BucketWriter } from "./bucket-writer.ts";
import { GrowthCollector } from "./growth.ts";
import { loadS3, objectKey, s3Client } from "./s3.ts";
import { SNIFF_BYTES, type Sniffed, sniff } from "./sniff.ts";

// busboy loads with the first upload, not at start-up.
const loadBusboy = loadOnce(async () => (await import("busboy")).default);

export const MAX_IMAGE_BYTES = 16 * 1024 * 1024;
const FIELDS = ["brand", "alt"];

export interface UploadedFile {
  filename: string | null;
  sniffed: Sniffed;
  size: number;
  sha256: string;
  /** An image's bytes (a video's are in the bucket). */
  bytes: Uint8Array | null;
  /** Where a video went. */
  object: { bucket: string; key: string } | null;
}

interface VideoSink {
  writer: BucketWriter;
  bucket: string;
  key: string;
}

export interface ParsedForm {
  fields: Record<string, string>;
  file: UploadedFile | null;
}

export const tooLarge = (limit: number, what: string) =>
  invalid([problem("media_too_large", `${what} may be at most ${limit} bytes.`, "file", { limit })]);

export async function readMultipart(
  app: App,
  request: Request,
  ids: { orgId: string; mediaId: string },
): Promise<ParsedForm> {
  if (!request.body) throw badRequest("file_missing", "The form has no part named file.", "file");
  const busboy = await loadBusboy();
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      limits: { fieldSize: 4096, fields: 10, files: 2, parts: 12 },
    });
  } catch (e) {
    throw badRequest("form_invalid", `The multipart form cannot be read: ${(e as Error).message}`);
  }
  const fields: Record<string, string> = {};
  let failure: ServiceError | null = null;
  const fail = (e: ServiceError) => {
    failure ??= e;
  };
  const state: { file: Promise<UploadedFile | null> | null } = { file: null };

  parser.on("field", (name, value, info) => {
    if (!FIELDS.includes(name)) fail(badRequest("form_invalid", `Unknown form field ${name}.`, name));
    else if (info.valueTruncated)
      fail(
        name === "alt"
          ? invalid([problem("alt_too_long", "alt is at most 1,000 characters.", "alt")])
          : badRequest("form_invalid", `Field ${name} is too long.`, name),
      );
    else fields[name] = value;
  });
  parser.on("file", (name, stream, info) => {
    if (name !== "file" || state.file) {
      fail(badRequest("form_invalid", `Only one file part, named file, is taken (got ${name}).`, name));
      stream.resume();
      return;
    }
    state.file = receiveFile(app, stream, info.filename || null, ids).catch((e) => {
      fail(e as ServiceError);
      return null;
    });
  });
  const done = new Promise<void>((resolve, reject) => {
    parser.on("close", resolve);
    parser.on("error", reject);
  });
  // Fed by hand from the request's own reader: one chunk at a time, the next read only once busboy has taken the
  // last (write() true, or its drain). Nothing is read ahead of what the bucket accepts, so the body is never
  // buffered in the process (a Node stream adapter over the web stream read ahead and piled chunks up).
  const feeding = feed(request.body, parser);
  try {
    await Promise.all([done, feeding]);
  } catch (e) {
    throw badRequest("form_invalid", `The multipart form cannot be read: ${(e as Error).message}`);
  }
  const file = state.file ? await state.file : null;
  const failed = failure as ServiceError | null;
  if (failed) {
    if (file?.object) await discardObject(app, file.object);
    throw failed;
  }
  return { fields, file };
}

async function feed(body: ReadableStream<Uint8Array>, parser: busboy.Busboy): Promise<void> {
  const reader = body.getReader();
  let closed = false;
  parser.once("close", () => {
    closed = true;
  });
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done || closed) break;
      if (!parser.write(next.value)) await once(parser, "drain");
    }
    if (!closed) parser.end();
  } catch (e) {
    parser.destroy(e as Error);
  } finally {
    reader.releaseLock();
  }
}

async function discardObject(app: App, object: { bucket: string; key: string }) {
  const { DeleteObjectCommand } = await loadS3();
  await (await s3Client(app))
    ?.send(new DeleteObjectCommand({ Bucket: object.bucket, Key: object.key }))
    .catch(() => {});
}

/** Consumes one file part: sniffs its first bytes, then keeps an image or streams a video into the bucket. */
async function receiveFile(
  app: App,
  stream: Readable,
  filename: string | null,
  ids: { orgId: string; mediaId: string },
): Promise<UploadedFile> {
  const hash = nodeCrypto().createHash("sha256");
  const head: Uint8Array[] = [];
  let headSize = 0;
  let size = 0;
  const st: { sniffed: Sniffed | null; video: VideoSink | null } = { sniffed: null, video: null };
  const kept: Uint8Array[] = [];

  const decide = async (): Promise<void> => {
    const sniffed = await sniff(Buffer.concat(head));
    st.sniffed = sniffed;
    if (sniffed.kind === "other")
      throw invalid([
        problem(
          "media_type_unsupported",
          "The file is not a JPEG, PNG, GIF or WebP image, nor an MP4 or QuickTime video.",
          "file",
        ),
      ]);
    if (sniffed.kind === "image") {
      kept.push(...head);
      return;
    }
    const client = await s3Client(app);
    if (!client || !app.config.s3)
      throw invalid([
        problem("video_needs_s3", "Video needs S3 storage (SVC_S3_BUCKET); this install has none.", "file"),
      ]);
    const key = objectKey(app, ids.orgId, ids.mediaId);
    const writer = new BucketWriter({
      client,
      bucket: app.config.s3.bucket,
      key,
      contentType: sniffed.type,
      maxBytes: app.config.maxVideoBytes,
    });
    st.video = { writer, bucket: app.config.s3.bucket, key };
    for (const chunk of head) await writer.write(chunk);
  };

  const collector = new GrowthCollector();
  // Read by hand, not with for-await: leaving a for-await early destroys the part, and busboy then never
  // finishes the form. On a refusal the rest of the part is read and dropped, so the form completes.
  const chunks = (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  try {
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
      const chunk = next.value;
      size += chunk.byteLength;
      hash.update(chunk);
      if (!st.sniffed) {
        head.push(chunk);
        headSize += chunk.byteLength;
        if (headSize >= SNIFF_BYTES) await decide();
        continue;
      }
      if (st.video) {
        if (size > app.config.maxVideoBytes) throw tooLarge(app.config.maxVideoBytes, "A video");
        await st.video.writer.write(chunk);
        collector.received(chunk.byteLength);
      } else {
        if (size > MAX_IMAGE_BYTES) throw tooLarge(MAX_IMAGE_BYTES, "An image");
        kept.push(chunk);
      }
    }
    if (size === 0) throw invalid([problem("media_empty", "The file is empty.", "file")]);
    if (!st.sniffed) await decide();
    if (!st.video && size > MAX_IMAGE_BYTES) throw tooLarge(MAX_IMAGE_BYTES, "An image");
    if (st.video) await st.video.writer.finish();
  } catch (e) {
    const v = st.video;
    if (v) {
      await v.writer.abort();
      await discardObject(app, { bucket: v.bucket, key: v.key });
    }
    try {
      for (let next = await chunks.next(); !next.done; next = await chunks.next());
    } catch {}
    throw e;
  }
  const v = st.video;
  return {
    filename,
    sniffed: st.sniffed as Sniffed,
    size,
    sha256: hash.digest("hex"),
    bytes: v ? null : Buffer.concat(kept),
    object: v ? { bucket: v.bucket, key: v.key } : null,
  };
}
