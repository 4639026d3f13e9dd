// A real S3-compatible server for tests: s3rver on 127.0.0.1 and a free port, keeping objects in a temporary
// directory, with one bucket. It does not check request signatures (signing is the SDK's, tested upstream).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** SVC_S3_* variables for a test app that stores media in this bucket. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function localS3(bucket = "svc-media"): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), "svc-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const info = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${info.port}`;
  return {
    endpoint,
    bucket,
    env: {
      SVC_S3_BUCKET: bucket,
      SVC_S3_ENDPOINT: endpoint,
      SVC_S3_ACCESS_KEY_ID: "S3RVER",
      SVC_S3_SECRET_ACCESS_KEY: "S3RVER",
      SVC_S3_PREFIX: "media/",
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
