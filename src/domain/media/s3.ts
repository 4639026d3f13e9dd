// The S3-compatible bucket new media go to when SVC_S3_BUCKET is set. One client per process. Path-style
// addressing (bucket in the path) everywhere except AWS itself: MinIO, Garage, R2 and local stores expect it.
import { S3Client } from "@aws-sdk/client-s3";
import type { Config } from "../../app/config.ts";
import type { App } from "../../app/context.ts";

const clients = new WeakMap<Config, S3Client>();

export type S3Settings = NonNullable<Config["s3"]>;

export function s3Client(app: App): S3Client | null {
  const s3 = app.config.s3;
  if (!s3) return null;
  let client = clients.get(app.config);
  if (!client) {
    client = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      forcePathStyle: !/\.amazonaws\.com$/i.test(new URL(s3.endpoint).hostname),
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    clients.set(app.config, client);
  }
  return client;
}

/** The object key of a medium: the configured prefix, then the org (so a bucket lists by tenant), then the ID. */
export const objectKey = (app: App, orgId: string, mediaId: string) =>
  `${app.config.s3?.prefix ?? "media/"}${orgId}/${mediaId}`;
