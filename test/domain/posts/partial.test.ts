// Partly published posts, through the real publish worker and the sandbox: svc_simulate limited to some channels
// (svc_simulate_channels) fails those and publishes the rest; the post is partially_published with its event once;
// retrying re-sends only the failed target (the published one is never sent again). And an edit accepted before
// the worker runs is what the sandbox receives.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { describeEachDialect } from "../../helpers/db.ts";
import { drain } from "../../helpers/networks.ts";
import { events, getPost, mustPost, type World, world } from "./helpers.ts";

describeEachDialect("partly published posts", (dialect) => {
  let w: World;
  let mastodon: string;
  beforeAll(async () => {
    w = await world(dialect);
    const r = await w.t.request("POST", "/v1/channels", {
      key: w.a.testKey,
      body: { brand: w.a.brandId, provider: "sandbox", emulates: "mastodon" },
    });
    mastodon = r.body.id;
  });
  afterAll(() => w.t.close());

  const sent = async (targetId: string) =>
    (
      await w.t.app.db
        .selectFrom("sandbox_posts")
        .select(["text", "attempt"])
        .where("target_id", "=", targetId)
        .orderBy("attempt")
        .execute()
    ).map((r) => r.text);

  test("a failure on one channel leaves the post partially_published; retry re-sends only that target", async () => {
    const p = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "Half and half." },
      metadata: { svc_simulate: "rejected", svc_simulate_channels: "mastodon" },
    });
    await drain(w.t);
    const after = await getPost(w.t, w.a.testKey, p.id);
    expect(after.status).toBe("partially_published");
    const by = (ch: string) => after.targets.find((t: { channel: string }) => t.channel === ch);
    expect([by(w.channel).status, by(mastodon).status, by(mastodon).error.code]).toEqual([
      "published",
      "failed",
      "rejected",
    ]);
    const types = (await events(w.t, w.a.orgId, p.id)).map((e) => e.type);
    expect(types.filter((t) => t === "post.partially_published")).toHaveLength(1);
    expect(types).not.toContain("post.published");
    expect(types).not.toContain("post.failed");

    // The network takes it now: the retry queues the failed target alone.
    await w.t.app.db
      .updateTable("posts")
      .set({ metadata: JSON.stringify({}) })
      .where("id", "=", p.id)
      .execute();
    const r = await w.t.request("POST", `/v1/post_targets/${by(mastodon).id}/retry`, { key: w.a.testKey });
    expect(r.status).toBe(200);
    expect((await getPost(w.t, w.a.testKey, p.id)).status).toBe("publishing");
    await drain(w.t);
    const done = await getPost(w.t, w.a.testKey, p.id);
    expect(done.status).toBe("published");
    expect(await sent(by(w.channel).id)).toEqual(["Half and half."]);
    expect(await sent(by(mastodon).id)).toEqual(["Half and half."]);
    expect((await events(w.t, w.a.orgId, p.id)).map((e) => e.type)).toContain("post.published");
  });

  test("svc_simulate_channels is refused in live mode", async () => {
    const r = await w.t.request("POST", "/v1/posts", {
      key: w.a.liveKey,
      body: {
        brand: w.a.brandId,
        content: { body: "Live" },
        metadata: { svc_simulate_channels: "mastodon" },
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { code: string }) => e.code)).toContain("simulation_in_live_mode");
  });

  test("what an accepted edit says is what the network receives", async () => {
    const p = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "Before the edit." },
      channels: [w.channel],
    });
    const e = await w.t.request("POST", `/v1/posts/${p.id}`, {
      key: w.a.testKey,
      body: { content: { body: "After the edit." } },
    });
    expect(e.status).toBe(200);
    await drain(w.t);
    expect((await getPost(w.t, w.a.testKey, p.id)).status).toBe("published");
    expect(await sent(p.targets[0].id)).toEqual(["After the edit."]);
  });
});
