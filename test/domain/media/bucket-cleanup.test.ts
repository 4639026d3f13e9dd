// Nothing of a tenant outlives it in the bucket, and nothing a crashed upload left there lives for ever. Deleting an
// org deletes its media objects (every key its rows name, and everything under its prefix, so objects no row
// names too) and its audit_throttle rows; media.prune deletes objects under the bucket's prefix that no media row
// names once they are a day old (a `kill -9` between writing an object and committing its row leaves one).
// Against a real local S3 server (s3rver).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { createOperatorKey } from "../../../src/domain/identity/auth/operator.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { pruneMedia } from "../../../src/queue/tasks/media-prune.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { png, upload } from "../../helpers/media.ts";
import { type LocalS3, localS3 } from "../../helpers/s3.ts";

describeEachDialect("media objects and tenants' leftovers", (dialect) => {
  let s3: LocalS3;
  let t: TestApp;
  let bucket: S3Client;
  const clock = new FakeClock(Date.now());
  beforeAll(async () => {
    s3 = await localS3();
    t = await testApp(dialect, { env: s3.env, clock });
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

  const objects = async (prefix = "") =>
    ((await bucket.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }))).Contents ?? [])
      .map((o) => o.Key!)
      .sort();
  /** An object as an upload killed after writing it and before committing its row leaves it. */
  const stray = (orgId: string, name: string) =>
    bucket.send(
      new PutObjectCommand({
        Bucket: s3.bucket,
        Key: `media/${orgId}/${name}`,
        Body: new Uint8Array([1, 2, 3]),
      }),
    );
  const uploaded = async (who: Tenant) => {
    const r = await upload(t, who.testKey, {
      brand: who.brandId,
      file: { bytes: await png(32, 32), name: "a.png" },
    });
    expect(r.status).toBe(201);
    return r.body.id as string;
  };
  const throttleKeyOf = async (who: Tenant) => {
    const k = await t.app.db
      .selectFrom("api_keys")
      .select("id")
      .where("org_id", "=", who.orgId)
      .executeTakeFirstOrThrow();
    // As auditDenied writes it: credential, route, minute.
    const key = `${k.id}|GET /v1/audit_events|${Math.floor(clock.now() / 60_000)}`;
    await t.app.db.insertInto("audit_throttle").values({ key, created_at: clock.now() }).execute();
    return key;
  };

  test("deleting an org removes its bucket objects, named or not, and its audit_throttle rows; other orgs keep theirs", async () => {
    const a = await tenant(t.app, "Doomed");
    const b = await tenant(t.app, "Survivor");
    const op = (await createOperatorKey(t.app, "ops")).secret;
    const mine = await uploaded(a);
    const theirs = await uploaded(b);
    await stray(a.orgId, "media_killed_mid_upload");
    const [aThrottle, bThrottle] = [await throttleKeyOf(a), await throttleKeyOf(b)];
    expect(await objects(`media/${a.orgId}/`)).toEqual(
      [`media/${a.orgId}/${mine}`, `media/${a.orgId}/media_killed_mid_upload`].sort(),
    );

    const r = await t.request("DELETE", `/v1/operator/orgs/${a.orgId}?confirm=Doomed`, { key: op });
    expect(r.status).toBe(200);

    expect(await objects(`media/${a.orgId}/`)).toEqual([]);
    expect(await objects(`media/${b.orgId}/`)).toEqual([`media/${b.orgId}/${theirs}`]);
    const throttles = (await t.app.db.selectFrom("audit_throttle").select("key").execute()).map((x) => x.key);
    expect(throttles).not.toContain(aThrottle);
    expect(throttles).toContain(bThrottle);
  });

  test("media.prune deletes objects no row names once a day old, and keeps every object a row names", async () => {
    const c = await tenant(t.app, "Crashed upload");
    await stray(c.orgId, "media_orphan");
    // A day and more later: the orphan is old enough; a medium uploaded now is young and named by its row.
    clock.advance(2 * 24 * 3600_000);
    const kept = await uploaded(c);
    await pruneMedia(t.app);
    expect(await objects(`media/${c.orgId}/`)).toEqual([`media/${c.orgId}/${kept}`]);
  });

  test("media.prune leaves an unnamed object younger than a day: its upload may still be committing its row", async () => {
    const c = await tenant(t.app, "Uploading");
    // Written now by the bucket's clock, with the app's clock 23 hours ahead of it: not yet a day old.
    clock.set(Date.now() + 23 * 3600_000);
    await stray(c.orgId, "media_in_flight");
    await pruneMedia(t.app);
    expect(await objects(`media/${c.orgId}/`)).toEqual([`media/${c.orgId}/media_in_flight`]);
  });
});
