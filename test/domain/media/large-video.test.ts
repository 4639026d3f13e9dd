// A video larger than one part of the bucket's multipart upload, through POST /v1/media: its bytes arrive whole
// (the sha256 svc reports is the bucket object's), its facts still come from its index, and one over the limit is
// refused part-way with nothing left in the bucket.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { upload } from "../../helpers/media.ts";
import { type LocalS3, localS3 } from "../../helpers/s3.ts";
import { paddedVideo } from "../../helpers/video.ts";

const MiB = 1024 * 1024;

describeEachDialect("a video of several parts", (dialect) => {
  let s3: LocalS3;
  let t: TestApp;
  let a: Tenant;
  let bucket: S3Client;
  beforeAll(async () => {
    s3 = await localS3();
    t = await testApp(dialect, { env: { ...s3.env, SVC_MAX_VIDEO_BYTES: String(24 * MiB) } });
    a = await tenant(t.app, "Large Video Org");
    bucket = new S3Client({
      endpoint: s3.endpoint,
      region: "auto",
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });
  const objects = async () =>
    ((await bucket.send(new ListObjectsV2Command({ Bucket: s3.bucket }))).Contents ?? []).map((o) => o.Key);

  test("20 MiB arrives whole: the object's SHA-256 is the one svc reports", async () => {
    const bytes = paddedVideo(20 * MiB + 12_345);
    const r = await upload(t, a.testKey, { brand: a.brandId, file: { bytes, name: "long.mp4" } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ type: "video/mp4", size: bytes.length, video: { duration_ms: 4000 } });
    const sha = createHash("sha256").update(bytes).digest("hex");
    expect(r.body.sha256).toBe(sha);
    const out = await bucket.send(
      new GetObjectCommand({ Bucket: s3.bucket, Key: `media/${a.orgId}/${r.body.id}` }),
    );
    const stored = await out.Body!.transformToByteArray();
    expect(createHash("sha256").update(stored).digest("hex")).toBe(sha);
  });

  test("over the limit after parts went out: media_too_large, and nothing is left in the bucket", async () => {
    const before = await objects();
    const r = await upload(t, a.testKey, { brand: a.brandId, file: { bytes: paddedVideo(30 * MiB) } });
    expect([r.status, r.body.code]).toEqual([422, "media_too_large"]);
    expect(await objects()).toEqual(before);
  });
});
