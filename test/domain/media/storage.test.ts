// Where media bytes live: the database by default, an S3-compatible bucket (a real local server) once
// SVC_S3_BUCKET is set; media stored before stay readable where they are, and deleting removes the object.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { mediaUrl } from "../../../src/domain/media/link.ts";
import { readBytes } from "../../../src/domain/media/storage.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { pruneMedia } from "../../../src/queue/tasks/media-prune.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, mp4Header, upload } from "../../helpers/media.ts";
import { type LocalS3, localS3 } from "../../helpers/s3.ts";

describeEachDialect("media storage", (dialect) => {
  let s3: LocalS3;
  let plain: TestApp;
  let withS3: TestApp;
  let a: Tenant;
  let bucket: S3Client;
  const clock = new FakeClock(Date.now());
  beforeAll(async () => {
    s3 = await localS3();
    plain = await testApp(dialect);
    a = await tenant(plain.app, "Storage Org");
    // The same install restarted with a bucket configured: same database, same master key.
    withS3 = await testApp(dialect, {
      url: plain.dbUrl,
      clock,
      env: { ...s3.env, SVC_MASTER_KEYS: plain.masterKeys },
    });
    bucket = new S3Client({
      endpoint: s3.endpoint,
      region: "auto",
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
  });
  afterAll(async () => {
    await withS3.app.close();
    await plain.close();
    await s3.close();
  });

  const row = (t: TestApp, id: string) =>
    t.app.db.selectFrom("media").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  test("without a bucket the bytes go to the database; with one, to the bucket; both stay readable", async () => {
    const first = await jpeg(120, 80);
    const second = await jpeg(90, 60);
    const before = (await upload(plain, a.testKey, { brand: a.brandId, file: { bytes: first } })).body;
    const after = (await upload(withS3, a.testKey, { brand: a.brandId, file: { bytes: second } })).body;

    const r1 = await row(withS3, before.id);
    const r2 = await row(withS3, after.id);
    expect([r1.storage, r1.bucket, r1.object_key]).toEqual(["database", null, null]);
    expect([r2.storage, r2.bucket, r2.object_key]).toEqual(["s3", s3.bucket, `media/${a.orgId}/${after.id}`]);
    // The object is really in the bucket, byte for byte; the database holds no copy of it.
    const obj = await bucket.send(new GetObjectCommand({ Bucket: s3.bucket, Key: r2.object_key! }));
    expect(Buffer.from(await obj.Body!.transformToByteArray()).equals(second)).toBe(true);
    expect(
      await withS3.app.db
        .selectFrom("media_blobs")
        .select("media_id")
        .where("media_id", "=", after.id)
        .execute(),
    ).toEqual([]);

    expect(Buffer.from(await readBytes(withS3.app, withS3.app.db, r1)).equals(first)).toBe(true);
    expect(Buffer.from(await readBytes(withS3.app, withS3.app.db, r2)).equals(second)).toBe(true);
  });

  test("deleting a medium removes its object", async () => {
    const m = (await upload(withS3, a.testKey, { brand: a.brandId, file: { bytes: await jpeg(10, 10) } }))
      .body;
    const key = (await row(withS3, m.id)).object_key!;
    await bucket.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
    expect((await withS3.request("DELETE", `/v1/media/${m.id}`, { key: a.testKey })).status).toBe(200);
    await expect(bucket.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }))).rejects.toThrow();
  });

  test("an object gone from the bucket: its signed link answers media_unreadable, not a server error", async () => {
    const m = (await upload(withS3, a.testKey, { brand: a.brandId, file: { bytes: await jpeg(10, 10) } }))
      .body;
    await bucket.send(
      new DeleteObjectCommand({ Bucket: s3.bucket, Key: (await row(withS3, m.id)).object_key! }),
    );
    const link = mediaUrl(withS3.app, m.id, "sandbox").replace(withS3.app.config.baseUrl, "http://localhost");
    const res = await withS3.http.handle(new Request(link));
    expect(res.status).toBe(422);
    expect(((await res.json()) as { code: string }).code).toBe("media_unreadable");
  });

  test("a video without an index is refused as media_unreadable and its streamed object removed", async () => {
    const r = await upload(withS3, a.testKey, { brand: a.brandId, file: { bytes: mp4Header() } });
    expect([r.status, r.body.code]).toEqual([422, "media_unreadable"]);
    const listed = await withS3.app.db.selectFrom("media").select("id").where("kind", "=", "video").execute();
    expect(listed).toEqual([]);
  });

  test("media.prune deletes media no post uses after a day, bucket objects included", async () => {
    const used = (await upload(withS3, a.testKey, { brand: a.brandId, file: { bytes: await jpeg(20, 20) } }))
      .body;
    const unused = (
      await upload(withS3, a.testKey, { brand: a.brandId, file: { bytes: await jpeg(21, 21) } })
    ).body;
    const post = await withS3.request("POST", "/v1/posts", {
      key: a.testKey,
      body: { brand: a.brandId, content: { body: "Kept" }, media: [used.id], publish_at: "next_slot" },
    });
    expect(post.status).toBe(201);
    const unusedKey = (await row(withS3, unused.id)).object_key!;

    clock.advance(23 * 3600_000);
    await pruneMedia(withS3.app);
    expect((await withS3.request("GET", `/v1/media/${unused.id}`, { key: a.testKey })).status).toBe(200);

    clock.advance(2 * 3600_000);
    await pruneMedia(withS3.app);
    expect((await withS3.request("GET", `/v1/media/${unused.id}`, { key: a.testKey })).status).toBe(404);
    expect((await withS3.request("GET", `/v1/media/${used.id}`, { key: a.testKey })).status).toBe(200);
    await expect(bucket.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: unusedKey }))).rejects.toThrow();
    // The database-stored media of the first test went too, their blobs with them.
    expect(await withS3.app.db.selectFrom("media_blobs").select("media_id").execute()).toEqual([]);
  });
});
