// The writer that streams a video into the bucket, against a real local S3 server: a file of several parts arrives
// whole and in order, a small one in one request, an abandoned upload leaves nothing, and a bucket's refusal reaches
// the writer rather than being lost in a part in flight.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash, randomBytes } from "node:crypto";
import { GetObjectCommand, HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { BucketWriter } from "../../../src/domain/media/bucket-writer.ts";
import { s3Client } from "../../../src/domain/media/s3.ts";
import { type LocalS3, localS3 } from "../../helpers/s3.ts";

const MiB = 1024 * 1024;
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

describe("BucketWriter", () => {
  let s3: LocalS3;
  let client: S3Client;
  beforeAll(async () => {
    s3 = await localS3();
    client = new S3Client({
      endpoint: s3.endpoint,
      region: "auto",
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
  });
  afterAll(() => s3.close());

  const writer = (key: string, bucket = s3.bucket) =>
    new BucketWriter({ client, bucket, key, contentType: "video/mp4", maxBytes: 100 * MiB });
  /** Feeds bytes in chunks of an awkward size, as a request body arrives. */
  const feed = async (w: BucketWriter, bytes: Uint8Array, chunk = 333_333) => {
    for (let at = 0; at < bytes.length; at += chunk) await w.write(bytes.subarray(at, at + chunk));
  };
  const read = async (key: string) => {
    const out = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
    return { bytes: await out.Body!.transformToByteArray(), type: out.ContentType };
  };

  test("a file of several parts arrives whole and in order", async () => {
    const w = writer("several");
    const bytes = randomBytes(Math.floor(w.partBytes * 2.5));
    await feed(w, bytes);
    await w.finish();
    const got = await read("several");
    expect(got.bytes.length).toBe(bytes.length);
    expect(sha(got.bytes)).toBe(sha(bytes));
    expect(got.type).toBe("video/mp4");
  });

  test("exactly whole parts, with nothing left over for a last one", async () => {
    const w = writer("whole");
    const bytes = randomBytes(w.partBytes * 2);
    await feed(w, bytes, 1 * MiB);
    await w.finish();
    expect(sha((await read("whole")).bytes)).toBe(sha(bytes));
  });

  test("a file smaller than one part goes in one request", async () => {
    const w = writer("small");
    const bytes = randomBytes(100_000);
    await feed(w, bytes, 4096);
    await w.finish();
    const got = await read("small");
    expect(sha(got.bytes)).toBe(sha(bytes));
    expect(got.type).toBe("video/mp4");
  });

  test("parts are sized so 10,000 of them hold the largest file allowed", () => {
    const w = new BucketWriter({
      client,
      bucket: s3.bucket,
      key: "k",
      contentType: "video/mp4",
      maxBytes: 200_000 * MiB,
    });
    expect(w.partBytes * 10_000).toBeGreaterThanOrEqual(200_000 * MiB);
    expect(writer("k").partBytes).toBe(5 * MiB);
  });

  test("abandoned after some parts: no object is left, and the writer takes no more", async () => {
    const w = writer("abandoned");
    await feed(w, randomBytes(w.partBytes * 2 + 1000));
    await w.abort();
    const head = await client
      .send(new HeadObjectCommand({ Bucket: s3.bucket, Key: "abandoned" }))
      .catch((e) => e);
    expect(head.name).toBe("NotFound");
    await expect(w.write(new Uint8Array(1))).rejects.toThrow("already finished");
  });

  test("the bucket's refusal reaches the writer", async () => {
    const w = writer("nowhere", "no-such-bucket");
    const bytes = randomBytes(w.partBytes * 3);
    const failed = await feed(w, bytes)
      .then(() => w.finish())
      .catch((e: Error) => e);
    expect((failed as Error).name).toBe("NoSuchBucket");
    await w.abort();
  });
});

describe("svc's bucket client", () => {
  test("bytes go with a CRC32 checksum the bucket verifies, not hashed a second time for the signature", async () => {
    const s3 = await localS3();
    // A recording proxy in front of the real server: what svc's client sends, as sent.
    const seen: { method: string; path: string; sha: string | null; crc: string | null }[] = [];
    const proxy = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(r) {
        const url = new URL(r.url);
        seen.push({
          method: r.method,
          path: url.pathname + url.search,
          sha: r.headers.get("x-amz-content-sha256"),
          crc: r.headers.get("x-amz-checksum-crc32"),
        });
        const body = r.method === "GET" || r.method === "HEAD" ? undefined : await r.arrayBuffer();
        return fetch(`${s3.endpoint}${url.pathname}${url.search}`, {
          method: r.method,
          headers: r.headers,
          body,
        });
      },
    });
    const { testApp } = await import("../../helpers/app.ts");
    const t = await testApp("sqlite", {
      env: { ...s3.env, SVC_S3_ENDPOINT: `http://127.0.0.1:${proxy.port}` },
    });
    try {
      const w = new BucketWriter({
        client: (await s3Client(t.app))!,
        bucket: s3.bucket,
        key: "checked",
        contentType: "video/mp4",
        maxBytes: 100 * MiB,
      });
      const bytes = randomBytes(w.partBytes + 10);
      await w.write(bytes);
      await w.finish();
      const parts = seen.filter((s) => s.method === "PUT");
      expect(parts).toHaveLength(2);
      for (const p of parts) {
        expect(p.sha).toBe("UNSIGNED-PAYLOAD");
        expect(p.crc).toMatch(/^[A-Za-z0-9+/]{6}==$/);
      }
      const crc = (b: Uint8Array) =>
        Buffer.from(Bun.hash.crc32(b).toString(16).padStart(8, "0"), "hex").toString("base64");
      const first = parts.find((p) => p.path.includes("partNumber=1&"));
      expect(first?.crc).toBe(crc(bytes.subarray(0, w.partBytes)));
    } finally {
      await t.close();
      proxy.stop(true);
      await s3.close();
    }
  });
});
