// Streams one object into the bucket as it arrives, with memory fixed in advance: a small pool of part-sized
// buffers is filled from the incoming chunks and each full one goes out as a multipart UploadPart; the next chunk
// waits while every buffer is in flight, so the sender is slowed to the bucket's pace. A file smaller than one part
// goes out as a single PutObject.
//
// Why not lib-storage's Upload: it builds every part as a fresh Buffer (concatenating the chunks), and Bun's
// collector is lazy about memory held outside its heap, so a 1 GiB upload left hundreds of MiB of finished parts
// resident unless a full collection was forced after parts, which halved the throughput. Reused buffers allocate
// nothing per part.
import type { CompletedPart, S3Client } from "@aws-sdk/client-s3";
import { loadS3 } from "./s3.ts";

/** S3 takes at most 10,000 parts, each (but the last) at least 5 MiB. */
const MAX_PARTS = 10_000;
const MIN_PART_BYTES = 5 * 1024 * 1024;

export interface BucketWriterOptions {
  client: S3Client;
  bucket: string;
  key: string;
  contentType: string;
  /** The largest object this writer may be given (sizes its parts so 10,000 of them are enough). */
  maxBytes: number;
  /** Parts uploading at once (default 1: the next part fills while one goes out); memory is (inFlight + 1) x part
   * size, 10 MiB by default. */
  inFlight?: number;
}

export class BucketWriter {
  readonly partBytes: number;
  private readonly free: Uint8Array[] = [];
  private current: Uint8Array;
  private filled = 0;
  private uploadId: string | null = null;
  private nextPart = 1;
  private readonly parts: CompletedPart[] = [];
  private readonly pending = new Set<Promise<void>>();
  private failure: Error | null = null;
  private finished = false;

  constructor(private readonly o: BucketWriterOptions) {
    this.partBytes = Math.max(MIN_PART_BYTES, Math.ceil(o.maxBytes / MAX_PARTS));
    const buffers = (o.inFlight ?? 1) + 1;
    for (let i = 0; i < buffers; i++) this.free.push(new Uint8Array(this.partBytes));
    this.current = this.free.pop()!;
  }

  /** Copies a chunk in; resolves once there is room for the next (a part may have had to finish first). */
  async write(chunk: Uint8Array): Promise<void> {
    if (this.finished) throw new Error("The upload has already finished.");
    let at = 0;
    while (at < chunk.byteLength) {
      this.throwIfFailed();
      const n = Math.min(chunk.byteLength - at, this.partBytes - this.filled);
      this.current.set(chunk.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      if (this.filled === this.partBytes) await this.sendCurrent();
    }
  }

  /** Sends what is left and completes the object. */
  async finish(): Promise<void> {
    this.throwIfFailed();
    this.finished = true;
    const { client, bucket, key, contentType } = this.o;
    const { CompleteMultipartUploadCommand, PutObjectCommand } = await loadS3();
    if (this.uploadId === null) {
      // Smaller than one part: one request.
      const command = new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        ContentType: contentType,
        Body: this.current.subarray(0, this.filled),
      });
      await client.send(command);
      return;
    }
    if (this.filled > 0) this.track(this.sendPart(this.current.subarray(0, this.filled)));
    await Promise.all(this.pending);
    this.throwIfFailed();
    this.parts.sort((a, b) => a.PartNumber! - b.PartNumber!);
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId: this.uploadId,
        MultipartUpload: { Parts: this.parts },
      }),
    );
  }

  /** Gives up: the parts already in the bucket are discarded with the upload. */
  async abort(): Promise<void> {
    this.finished = true;
    await Promise.allSettled(this.pending);
    if (this.uploadId === null) return;
    const { AbortMultipartUploadCommand } = await loadS3();
    await this.o.client
      .send(
        new AbortMultipartUploadCommand({ Bucket: this.o.bucket, Key: this.o.key, UploadId: this.uploadId }),
      )
      .catch(() => {});
  }

  private throwIfFailed() {
    if (this.failure) throw this.failure;
  }

  /** The current buffer is full: send it as the next part and take a free buffer (waiting for one if need be). */
  private async sendCurrent() {
    if (this.uploadId === null) {
      const { CreateMultipartUploadCommand } = await loadS3();
      const out = await this.o.client.send(
        new CreateMultipartUploadCommand({
          Bucket: this.o.bucket,
          Key: this.o.key,
          ContentType: this.o.contentType,
        }),
      );
      this.uploadId = out.UploadId!;
    }
    const full = this.current;
    this.track(
      this.sendPart(full).then(() => {
        this.free.push(full);
      }),
    );
    this.filled = 0;
    while (this.free.length === 0) {
      await Promise.race(this.pending);
      this.throwIfFailed();
    }
    this.current = this.free.pop()!;
  }

  private async sendPart(body: Uint8Array) {
    const PartNumber = this.nextPart++;
    const { UploadPartCommand } = await loadS3();
    const out = await this.o.client.send(
      new UploadPartCommand({
        Bucket: this.o.bucket,
        Key: this.o.key,
        UploadId: this.uploadId!,
        PartNumber,
        Body: body,
        ContentLength: body.byteLength,
      }),
    );
    this.parts.push({ PartNumber, ETag: out.ETag, ChecksumCRC32: out.ChecksumCRC32 });
  }

  private track(p: Promise<void>) {
    const tracked = p.then(
      () => {
        this.pending.delete(tracked);
      },
      (e: Error) => {
        this.pending.delete(tracked);
        this.failure ??= e;
      },
    );
    this.pending.add(tracked);
  }
}
