// Bluesky engagement counts from a real AppView: a local PDS whose app.bsky.* reads go to @atproto/bsky indexing
// the PDS's firehose (on the local Postgres). svc publishes a post; other accounts like, repost, reply to and quote
// it on the PDS; engagement.collect reads the counts through the channel's PDS. Then the post is deleted and the
// next reading says so. Both databases (for svc; the AppView always uses Postgres).
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { collectDue } from "../../../src/domain/engagement/collect.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import { startPublishWorker } from "../../../src/queue/publish/worker.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { type Pds, type PdsAccount, startPds } from "../../helpers/bluesky/pds.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

let pds: Pds;
beforeAll(async () => {
  pds = await startPds({ appview: true });
}, 90_000);
afterAll(async () => {
  await pds.stop();
});

let n = 0;
const name = () => `e${Date.now().toString(36)}${(n++).toString(36)}`;

/** Polls the AppView (through the PDS) until `check` holds: it indexes the firehose a moment later. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await Bun.sleep(100);
  }
  throw new Error(`the AppView never showed ${what}`);
}

describeEachDialect("Bluesky engagement through an AppView", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  const clock = new FakeClock(Date.now());
  afterEach(async () => {
    await t.close();
  });

  test("likes, reposts, replies and quotes are read 1 h after publishing; a deleted post is deleted", async () => {
    t = await testApp(dialect, { clock, env: { SVC_ALLOW_PRIVATE_NETWORKS: "true" } });
    a = await tenant(t.app);
    const owner = await pds.createAccount(name());
    const fans: PdsAccount[] = [];
    for (let i = 0; i < 3; i++) fans.push(await pds.createAccount(name()));
    const ch = await t.request("POST", "/v1/channels", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        provider: "bluesky",
        fields: {
          identifier: owner.handle,
          app_password: await pds.appPassword(owner, "svc"),
          service: pds.url,
        },
      },
    });
    expect(ch.status).toBe(201);
    const p = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: { brand: a.brandId, channels: [ch.body.id], content: { body: "Tell us what you think" } },
    });
    const w = startPublishWorker(t.app, { adapterFor, pollMs: 20 });
    let target = p.body.targets[0];
    for (let i = 0; i < 100 && target.status !== "published"; i++) {
      await Bun.sleep(30);
      target = (await t.request("GET", `/v1/posts/${p.body.id}`, { key: a.liveKey })).body.targets[0];
    }
    await w.stop();
    expect(target.status).toBe("published");
    const [record] = await pds.records(owner.did);
    const subject = { uri: record!.uri, cid: record!.cid };

    for (const fan of fans) await pds.createRecord(fan, "app.bsky.feed.like", { subject });
    await pds.createRecord(fans[0]!, "app.bsky.feed.repost", { subject });
    await pds.createRecord(fans[1]!, "app.bsky.feed.post", {
      text: "Love it",
      reply: { root: subject, parent: subject },
    });
    await pds.createRecord(fans[2]!, "app.bsky.feed.post", {
      text: "Look at this",
      embed: { $type: "app.bsky.embed.record", record: subject },
    });
    await eventually(async () => {
      const r = await fetch(
        `${pds.url}/xrpc/app.bsky.feed.getPosts?uris=${encodeURIComponent(subject.uri)}`,
        { headers: { authorization: `Bearer ${owner.accessJwt}` } },
      );
      const post = (
        (await r.json()) as { posts?: { likeCount?: number; quoteCount?: number; replyCount?: number }[] }
      ).posts?.[0];
      return post?.likeCount === 3 && post.quoteCount === 1 && post.replyCount === 1;
    }, "the likes, reply and quote");

    clock.advance(3600_000);
    expect(await collectDue(t.app)).toEqual({ read: 1, failed: 0, deleted: 0, unsupported: 0 });
    const e = (await t.request("GET", `/v1/posts/${p.body.id}`, { key: a.liveKey })).body.targets[0]
      .engagement;
    expect(e).toMatchObject({
      likes: 3,
      reposts: 1,
      replies: 1,
      quotes: 1,
      views: null,
      total: 6,
      state: "collecting",
    });
    const readings = await t.request("GET", `/v1/post_targets/${target.id}/engagement`, { key: a.liveKey });
    expect(readings.body.data).toHaveLength(1);

    // The owner deletes the post on Bluesky: the next reading finds it gone.
    const rkey = subject.uri.slice(subject.uri.lastIndexOf("/") + 1);
    const del = await fetch(`${pds.url}/xrpc/com.atproto.repo.deleteRecord`, {
      method: "POST",
      headers: { authorization: `Bearer ${owner.accessJwt}`, "content-type": "application/json" },
      body: JSON.stringify({ repo: owner.did, collection: "app.bsky.feed.post", rkey }),
    });
    expect(del.status).toBe(200);
    await eventually(async () => {
      const r = await fetch(
        `${pds.url}/xrpc/app.bsky.feed.getPosts?uris=${encodeURIComponent(subject.uri)}`,
        { headers: { authorization: `Bearer ${owner.accessJwt}` } },
      );
      return ((await r.json()) as { posts?: unknown[] }).posts?.length === 0;
    }, "the deletion");
    clock.advance(5 * 3600_000);
    expect((await collectDue(t.app)).deleted).toBe(1);
    const gone = (await t.request("GET", `/v1/posts/${p.body.id}`, { key: a.liveKey })).body.targets[0]
      .engagement;
    expect(gone.state).toBe("deleted");
    expect(gone.likes).toBe(3);
  }, 60_000);
});
