// Where a medium's bytes live. Each media row records its place (the database's media_blobs, or a bucket and
// key), so media stored before S3 was configured (or before the bucket changed) stay readable where they are.
import type { App } from "../../app/context.ts";
import type { Db, Tx } from "../../db/index.ts";
import type { MediaTable } from "../../db/tables/media.ts";
import { ServiceError } from "../../lib/errors.ts";
import { loadS3, objectKey, s3Client } from "./s3.ts";

export type Placement = Pick<MediaTable, "storage" | "bucket" | "object_key">;

export const unreadable = (why: string) =>
  new ServiceError(422, "media_unreadable", `The media's bytes cannot be read: ${why}`);

/** Puts an image's bytes in the bucket when one is configured; else says they go to the database. */
export async function placeBytes(
  app: App,
  orgId: string,
  mediaId: string,
  bytes: Uint8Array,
  type: string,
): Promise<Placement> {
  const client = await s3Client(app);
  if (!client || !app.config.s3) return { storage: "database", bucket: null, object_key: null };
  const key = objectKey(app, orgId, mediaId);
  const { PutObjectCommand } = await loadS3();
  await client.send(
    new PutObjectCommand({ Bucket: app.config.s3.bucket, Key: key, Body: bytes, ContentType: type }),
  );
  return { storage: "s3", bucket: app.config.s3.bucket, object_key: key };
}

/** Writes the database copy, in the transaction that writes the media row (after it: the blob refers to it). */
export async function writeBlob(tx: Tx, place: Placement, mediaId: string, bytes: Uint8Array): Promise<void> {
  if (place.storage === "database")
    await tx.insertInto("media_blobs").values({ media_id: mediaId, bytes }).execute();
}

async function bucketOf(app: App, row: Placement) {
  const client = await s3Client(app);
  if (!client) throw unreadable("it is in an S3 bucket and S3 is not configured (SVC_S3_BUCKET).");
  const { DeleteObjectCommand, GetObjectCommand } = await loadS3();
  return { client, Bucket: row.bucket!, Key: row.object_key!, DeleteObjectCommand, GetObjectCommand };
}

export async function readBytes(app: App, db: Db | Tx, row: Placement & { id: string }): Promise<Uint8Array> {
  if (row.storage === "database") {
    const b = await db
      .selectFrom("media_blobs")
      .select("bytes")
      .where("media_id", "=", row.id)
      .executeTakeFirst();
    if (!b) throw unreadable("its stored copy is missing.");
    return b.bytes instanceof Uint8Array ? b.bytes : new Uint8Array(b.bytes as ArrayBuffer);
  }
  const { client, Bucket, Key, GetObjectCommand } = await bucketOf(app, row);
  try {
    const out = await client.send(new GetObjectCommand({ Bucket, Key }));
    return await out.Body!.transformToByteArray();
  } catch (e) {
    throw unreadable(`the bucket answered ${(e as Error).name}.`);
  }
}

/** Bytes [start, end] (inclusive) of a stored object: a video's index is read this way, never the whole file. */
export async function readRange(app: App, row: Placement, start: number, end: number): Promise<Uint8Array> {
  const { client, Bucket, Key, GetObjectCommand } = await bucketOf(app, row);
  const out = await client.send(new GetObjectCommand({ Bucket, Key, Range: `bytes=${start}-${end}` }));
  return out.Body!.transformToByteArray();
}

/**
 * The bytes as a stream (signed links serve video this way, never loading it whole), from byte `from` on (an
 * upload a network resumes asks only for the rest).
 */
export async function openStream(
  app: App,
  db: Db | Tx,
  row: Placement & { id: string },
  from = 0,
): Promise<ReadableStream<Uint8Array>> {
  if (row.storage === "database") {
    const bytes = await readBytes(app, db, row);
    return new Blob([bytes.subarray(from) as Uint8Array<ArrayBuffer>]).stream();
  }
  const { client, Bucket, Key, GetObjectCommand } = await bucketOf(app, row);
  try {
    const out = await client.send(
      new GetObjectCommand({ Bucket, Key, ...(from > 0 ? { Range: `bytes=${from}-` } : {}) }),
    );
    return out.Body!.transformToWebStream() as ReadableStream<Uint8Array>;
  } catch (e) {
    throw unreadable(`the bucket answered ${(e as Error).name}.`);
  }
}

/** Removes the bucket's copy (the database copy goes with its row). */
export async function deleteObject(app: App, row: Placement): Promise<void> {
  if (row.storage !== "s3") return;
  const { client, Bucket, Key, DeleteObjectCommand } = await bucketOf(app, row);
  await client.send(new DeleteObjectCommand({ Bucket, Key }));
}

export { objectKey };
