// Objects in the bucket that no media row names: an org's, when the org is deleted, and any left by an upload that
// died between writing the object and committing its row (a `kill -9` mid-request), which nothing else would ever
// find. Keys are `<prefix><org id>/<media id>` (s3.ts), so both are found by listing a prefix; multipart uploads
// abandoned the same way (their parts are stored, and billed, until aborted) are listed and aborted too.
import type { ListMultipartUploadsCommandOutput } from "@aws-sdk/client-s3";
import type { App } from "../../app/context.ts";
import { loadS3, s3Client } from "./s3.ts";

export interface Listed {
  key: string;
  modified: number;
}

/**
 * Deletes the objects under `prefix` in `bucket` that `doomed` picks from each listed page (at most 1,000 keys),
 * and aborts the multipart uploads under it started before `uploadsBefore`. Answers how many objects it deleted.
 */
export async function sweepPrefix(
  app: App,
  bucket: string,
  prefix: string,
  doomed: (page: Listed[]) => Promise<string[]>,
  uploadsBefore: number,
): Promise<number> {
  const client = await s3Client(app);
  if (!client) return 0;
  const { DeleteObjectCommand, ListObjectsV2Command } = await loadS3();
  let deleted = 0;
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
    );
    const listed = (page.Contents ?? []).flatMap((o) =>
      o.Key ? [{ key: o.Key, modified: o.LastModified?.getTime() ?? 0 }] : [],
    );
    for (const key of await doomed(listed)) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      deleted++;
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  await abortUploads(app, bucket, prefix, uploadsBefore);
  return deleted;
}

async function abortUploads(app: App, bucket: string, prefix: string, before: number): Promise<void> {
  const client = (await s3Client(app))!;
  const { AbortMultipartUploadCommand, ListMultipartUploadsCommand } = await loadS3();
  let keyMarker: string | undefined;
  let idMarker: string | undefined;
  for (;;) {
    let page: ListMultipartUploadsCommandOutput;
    try {
      page = await client.send(
        new ListMultipartUploadsCommand({
          Bucket: bucket,
          Prefix: prefix,
          KeyMarker: keyMarker,
          UploadIdMarker: idMarker,
        }),
      );
    } catch (e) {
      // Some S3-compatible stores (and the local test server) do not list uploads; their objects were swept.
      app.log.warn("media: listing multipart uploads failed", { bucket, error: String(e) });
      return;
    }
    for (const u of page.Uploads ?? [])
      if (u.Key && u.UploadId && (u.Initiated?.getTime() ?? 0) < before)
        await client.send(
          new AbortMultipartUploadCommand({ Bucket: bucket, Key: u.Key, UploadId: u.UploadId }),
        );
    if (!page.IsTruncated) return;
    keyMarker = page.NextKeyMarker;
    idMarker = page.NextUploadIdMarker;
  }
}
