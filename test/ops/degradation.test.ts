// svc degrades rather than stops when a dependency goes away, and recovers by itself:
// - the database (Postgres behind a real TCP proxy that is stopped and started): the publish worker keeps running
//   while every query fails, and publishes the post that fell due meanwhile once the database is back;
// - the S3 store (a real S3-compatible server, stopped): an image upload fails with a clear answer and nothing is
//   half-written, while text-only posts keep publishing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FakeClock } from "../../src/lib/clock.ts";
import { adapterFor } from "../../src/platforms/adapter-registry.ts";
import { startPublishWorker } from "../../src/queue/publish/worker.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { dialects } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { jpeg, upload } from "../helpers/media.ts";
import { drain } from "../helpers/networks.ts";
import { type LocalS3, localS3 } from "../helpers/s3.ts";
import { TcpProxy } from "../helpers/tcp-proxy.ts";

const pgOnly = dialects.includes("postgres") ? describe : describe.skip;

pgOnly("the database goes away (postgres)", () => {
  const proxy = new TcpProxy();
  const clock = new FakeClock(Date.parse("2026-04-01T08:00:00Z"));
  let direct: TestApp;
  let viaProxy: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    direct = await testApp("postgres", { clock });
    a = await tenant(direct.app);
    await proxy.start();
    const u = new URL(direct.dbUrl);
    u.host = `127.0.0.1:${proxy.port}`;
    viaProxy = await testApp("postgres", {
      url: u.toString(),
      clock,
      env: { SVC_MASTER_KEYS: direct.masterKeys },
    });
  });
  afterAll(async () => {
    await proxy.stop();
    await viaProxy.close();
    await direct.close();
  });

  test("the worker waits while it is down and publishes what fell due once it is back", async () => {
    const channel = (await direct.request("GET", "/v1/channels", { key: a.testKey })).body.data[0].id;
    const post = await direct.request("POST", "/v1/posts", {
      key: a.testKey,
      body: {
        brand: a.brandId,
        channels: [channel],
        content: { body: "Due while the database was away" },
        publish_at: "2026-04-01T08:05:00Z",
      },
    });
    expect(post.status).toBe(201);

    const worker = startPublishWorker(viaProxy.app, { adapterFor, pollMs: 20 });
    try {
      await proxy.stop();
      clock.set(Date.parse("2026-04-01T08:05:01Z"));
      await Bun.sleep(1500); // many polls, every one failing to reach the database
      const during = await direct.request("GET", `/v1/posts/${post.body.id}`, { key: a.testKey });
      expect(during.body.status).toBe("scheduled");

      await proxy.start(); // the same port
      let status = "";
      for (let i = 0; i < 150 && status !== "published"; i++) {
        await Bun.sleep(50);
        status = (await direct.request("GET", `/v1/posts/${post.body.id}`, { key: a.testKey })).body.status;
      }
      expect(status).toBe("published");
    } finally {
      await worker.stop();
    }
  }, 60_000);
});

describe.each(dialects)("the S3 store goes away (%s)", (dialect) => {
  let s3: LocalS3;
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    s3 = await localS3();
    t = await testApp(dialect, { env: s3.env });
    a = await tenant(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  test("an upload fails clearly and leaves nothing behind; text-only posts still publish", async () => {
    const ok = await upload(t, a.testKey, { brand: a.brandId, file: { bytes: await jpeg(64, 64) } });
    expect(ok.status).toBe(201);
    await s3.close();

    const failed = await upload(t, a.testKey, { brand: a.brandId, file: { bytes: await jpeg(80, 80) } });
    expect(failed.status).toBe(503);
    expect(failed.body.code).toBe("media_storage_unavailable");
    expect(failed.headers.get("retry-after")).toBeTruthy();
    const listed = await t.request("GET", "/v1/media", { key: a.testKey });
    expect(listed.body.data.map((m: { id: string }) => m.id)).toEqual([ok.body.id]);

    const channel = (await t.request("GET", "/v1/channels", { key: a.testKey })).body.data[0].id;
    const post = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: { brand: a.brandId, channels: [channel], content: { body: "Text goes on without S3" } },
    });
    expect(post.status).toBe(201);
    await drain(t);
    const got = await t.request("GET", `/v1/posts/${post.body.id}`, { key: a.testKey });
    expect(got.body.status).toBe("published");
  }, 60_000);
});
