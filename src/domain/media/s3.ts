// The S3-compatible bucket new media go to when SVC_S3_BUCKET is set. One client per process. Path-style
// addressing (bucket in the path) everywhere except AWS itself: MinIO, Garage, R2 and local stores expect it.
import type { S3Client, ServiceInputTypes, ServiceOutputTypes } from "@aws-sdk/client-s3";
import type { BuildMiddleware, InitializeMiddleware } from "@smithy/types";
import type { Config } from "../../app/config.ts";
import type { App } from "../../app/context.ts";
import { ServiceError } from "../../lib/errors.ts";
import { once } from "../../lib/once.ts";

// The SDK loads with the first medium that goes to or comes from a bucket, not at start-up (about 60 ms and
// 16 MiB): an install without S3, or a process that never touches media, never pays it.
export const loadS3 = once(() => import("@aws-sdk/client-s3"));
const loadFetchHandler = once(() => import("@smithy/fetch-http-handler"));

const clients = new WeakMap<Config, S3Client>();

export type S3Settings = NonNullable<Config["s3"]>;

export async function s3Client(app: App): Promise<S3Client | null> {
  const s3 = app.config.s3;
  if (!s3) return null;
  let client = clients.get(app.config);
  if (client) return client;
  const [{ S3Client }, { FetchHttpHandler }] = await Promise.all([loadS3(), loadFetchHandler()]);
  // Another caller may have made it while the SDK loaded.
  client = clients.get(app.config);
  if (!client) {
    client = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      forcePathStyle: !/\.amazonaws\.com$/i.test(new URL(s3.endpoint).hostname),
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      // Bun's fetch sends a part's bytes as they are; node:http in Bun copied each part once more.
      requestHandler: new FetchHttpHandler(),
    });
    client.middlewareStack.add(unsignedPayload, { step: "build", name: "svcUnsignedPayload" });
    client.middlewareStack.add(unreachable, { step: "initialize", name: "svcUnreachable", priority: "high" });
    clients.set(app.config, client);
  }
  return client;
}

/** Bytes sent to the bucket are not hashed again for the request's signature: the CRC32 checksum header the SDK
 * adds (which the bucket verifies, and which is signed with the other headers) guards them, as it guards any body
 * the SDK streams (it sends those as STREAMING-UNSIGNED-PAYLOAD-TRAILER with a CRC32, over HTTP too). SHA-256 of
 * every part cost more than all else svc does with a video's bytes. */
const unsignedPayload: BuildMiddleware<ServiceInputTypes, ServiceOutputTypes> =
  (next, context) => async (args) => {
    const request = args.request as { headers?: Record<string, string> };
    if (PAYLOAD_COMMANDS.has(context.commandName ?? "") && request.headers)
      request.headers["x-amz-content-sha256"] = "UNSIGNED-PAYLOAD";
    return next(args);
  };
const PAYLOAD_COMMANDS = new Set(["PutObjectCommand", "UploadPartCommand"]);

/** A bucket that does not answer at all (refused, reset, unresolvable, timed out) is its own 503: the connection
 * errors look like the database's, and the database was fine. An answer from the bucket, even an error, is not
 * this. The outermost step, so it is judged once the SDK's own retries are spent. */
const unreachable: InitializeMiddleware<ServiceInputTypes, ServiceOutputTypes> = (next) => async (args) => {
  try {
    return await next(args);
  } catch (e) {
    const answered = e as { $response?: unknown; $metadata?: { httpStatusCode?: number } };
    if (answered.$metadata?.httpStatusCode || answered.$response || e instanceof ServiceError) throw e;
    throw new ServiceError(
      503,
      "media_storage_unavailable",
      "The media storage (S3) cannot be reached; retry.",
      {
        detail: (e as Error).message,
        headers: { "Retry-After": "30" },
      },
    );
  }
};

/** The object key of a medium: the configured prefix, then the org (so a bucket lists by tenant), then the ID. */
export const objectKey = (app: App, orgId: string, mediaId: string) =>
  `${app.config.s3?.prefix ?? "media/"}${orgId}/${mediaId}`;
