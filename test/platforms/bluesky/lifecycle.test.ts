// The post lifecycle against a real local PDS (@atproto/pds on 127.0.0.1): a first comment is a reply by the
// account to its own post (root and parent the post), read back from the PDS; a worker killed between the post
// and its comment posts the comment alone on the retry (two records, never the post twice); an edit accepted
// before publishing is what the PDS receives. Both databases.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { FakeClock } from "../../../src/lib/clock.ts";
import type { Adapter } from "../../../src/platforms/adapter.ts";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import { recordKey } from "../../../src/platforms/bluesky/rkey.ts";
import { startPublishWorker } from "../../../src/queue/publish/worker.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { blueskyLexicons } from "../../helpers/bluesky/lexicons.ts";
import { type Pds, startPds } from "../../helpers/bluesky/pds.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

let pds: Pds;
beforeAll(async () => {
  pds = await startPds({});
}, 60_000);
afterAll(async () => {
  await pds.stop();
});

let accounts = 0;
const uniqueName = () => `l${Date.now().toString(36)}${(accounts++).toString(36)}`;

describeEachDialect("the post lifecycle on a local PDS", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  const clock = new FakeClock(Date.now());
  afterEach(async () => {
    await t.close();
  });
  async function setUp() {
    t = await testApp(dialect, { clock, env: { SVC_ALLOW_PRIVATE_NETWORKS: "true" } });
    a = await tenant(t.app);
    const acct = await pds.createAccount(uniqueName());
    const appPassword = await pds.appPassword(acct, "svc");
    const r = await t.request("POST", "/v1/channels", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        provider: "bluesky",
        fields: { identifier: acct.handle, app_password: appPassword, service: pds.url },
      },
    });
    expect(r.status).toBe(201);
    return { acct, channel: r.body.id as string };
  }
  async function drain(adapters: (p: string) => Adapter | null = adapterFor) {
    const w = startPublishWorker(t.app, { adapterFor: adapters, pollMs: 20 });
    for (let i = 0; i < 200; i++) {
      await Bun.sleep(20);
      await w.idle();
      const due = await t.app.db
        .selectFrom("post_targets")
        .select("id")
        .where("status", "in", ["queued", "publishing"])
        .where("next_attempt_at", "<=", clock.now())
        .execute();
      if (due.length === 0) break;
    }
    await w.stop();
  }
  const getPost = async (id: string) => (await t.request("GET", `/v1/posts/${id}`, { key: a.liveKey })).body;

  test("a first comment is the account's reply to its own post", async () => {
    const { acct, channel } = await setUp();
    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        channels: [channel],
        content: { body: "Spring release is out" },
        first_comment: "Notes and downloads in the next post",
      },
    });
    expect(r.status).toBe(201);
    await drain();
    const target = (await getPost(r.body.id)).targets[0];
    expect([target.status, target.first_comment.status]).toEqual(["published", "published"]);
    const records = await pds.records(acct.did);
    expect(records).toHaveLength(2);
    const lex = blueskyLexicons();
    if (lex) for (const x of records) lex.assertValidRecord("app.bsky.feed.post", x.value);
    const byKey = new Map(records.map((x) => [x.uri.slice(x.uri.lastIndexOf("/") + 1), x]));
    const post = byKey.get(recordKey(target.id, 0))!;
    const comment = byKey.get(recordKey(target.id, 1))!;
    expect(post.value.text).toBe("Spring release is out");
    expect(comment.value.text).toBe("Notes and downloads in the next post");
    expect(comment.value.reply).toEqual({
      root: { uri: post.uri, cid: post.cid },
      parent: { uri: post.uri, cid: post.cid },
    });
    expect(target.permalink).toBe(`https://bsky.app/profile/${acct.handle}/post/${recordKey(target.id, 0)}`);
    expect(target.first_comment.permalink).toBe(
      `https://bsky.app/profile/${acct.handle}/post/${recordKey(target.id, 1)}`,
    );
  });

  test("a worker killed after the post and before its comment: the retry posts the comment alone", async () => {
    const { acct, channel } = await setUp();
    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        channels: [channel],
        content: { body: "Posted once" },
        first_comment: "Commented once",
      },
    });
    const bluesky = adapterFor("bluesky")!;
    const killed: Adapter = {
      ...bluesky,
      publish: (app, input) =>
        bluesky.publish(app, {
          ...input,
          onPartPublished: async (part) => {
            await input.onPartPublished(part);
            if (input.attempt === 1 && part.index === 0) throw new Error("worker killed");
          },
        }),
    };
    await drain((p) => (p === "bluesky" ? killed : adapterFor(p)));
    const mid = (await getPost(r.body.id)).targets[0];
    expect(mid.first_comment.status).not.toBe("published");
    expect(await pds.records(acct.did)).toHaveLength(1);
    if (mid.status !== "queued") {
      const retry = await t.request("POST", `/v1/post_targets/${mid.id}/retry`, { key: a.liveKey });
      expect(retry.status).toBe(200);
    }
    // Queued again after the back-off (Bluesky's records are keyed by part, so a repeat is safe to try).
    clock.advance(31 * 60_000);
    await drain();
    const done = (await getPost(r.body.id)).targets[0];
    expect([done.status, done.first_comment.status]).toEqual(["published", "published"]);
    const records = await pds.records(acct.did);
    expect(records.map((x) => x.value.text).sort()).toEqual(["Commented once", "Posted once"]);
  });

  test("delete_published removes the post and its comment from the PDS, once", async () => {
    const { acct, channel } = await setUp();
    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: {
        brand: a.brandId,
        channels: [channel],
        content: { body: "Here today" },
        first_comment: "Gone tomorrow",
      },
    });
    await drain();
    expect(await pds.records(acct.did)).toHaveLength(2);
    const d = await t.request("POST", `/v1/posts/${r.body.id}/delete_published`, { key: a.liveKey });
    expect(d.status).toBe(200);
    expect(d.body.results.map((x: { result: string }) => x.result)).toEqual(["deleted"]);
    expect(await pds.records(acct.did)).toHaveLength(0);
    const again = await t.request("POST", `/v1/posts/${r.body.id}/delete_published`, { key: a.liveKey });
    expect(again.body.results.map((x: { result: string }) => x.result)).toEqual(["deleted"]);
    const evs = await t.app.db
      .selectFrom("events")
      .select("type")
      .where("org_id", "=", a.orgId)
      .where("type", "=", "post_target.deleted")
      .execute();
    expect(evs).toHaveLength(1);
  });

  test("an edit accepted before publishing is what the PDS receives", async () => {
    const { acct, channel } = await setUp();
    const r = await t.request("POST", "/v1/posts", {
      key: a.liveKey,
      body: { brand: a.brandId, channels: [channel], content: { body: "Frist draft" } },
    });
    const e = await t.request("POST", `/v1/posts/${r.body.id}`, {
      key: a.liveKey,
      body: { content: { body: "First draft, fixed" } },
    });
    expect(e.status).toBe(200);
    await drain();
    expect((await pds.records(acct.did)).map((x) => x.value.text)).toEqual(["First draft, fixed"]);
  });
});
