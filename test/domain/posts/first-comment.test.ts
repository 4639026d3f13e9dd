// First comments: the account's own reply right after the post, as the target's part after the last. Checked as
// a part is (the network's limit), refused where the network takes no replies (first_comment_unsupported, in the
// preview too, never dropped); published through the real worker and the sandbox as its own part with a status;
// a worker killed between the post and its comment posts the comment alone on the retry, never the post twice.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Adapter } from "../../../src/platforms/adapter.ts";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import { startPublishWorker } from "../../../src/queue/publish/worker.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { drain } from "../../helpers/networks.ts";
import { schemaErrors } from "../../helpers/schemas.ts";
import { codes, createPost, getPost, mustPost, type World, world } from "./helpers.ts";

describeEachDialect("first comments", (dialect) => {
  let w: World;
  let telegram: string;
  beforeAll(async () => {
    w = await world(dialect);
    const r = await w.t.request("POST", "/v1/channels", {
      key: w.a.testKey,
      body: { brand: w.a.brandId, provider: "sandbox", emulates: "telegram" },
    });
    telegram = r.body.id;
  });
  afterAll(() => w.t.close());

  const sent = async (targetId: string) =>
    (
      await w.t.app.db
        .selectFrom("sandbox_posts")
        .select(["text", "attempt", "part_index"])
        .where("target_id", "=", targetId)
        .orderBy("attempt")
        .orderBy("part_index")
        .execute()
    ).map((r) => `${r.attempt}:${r.part_index}:${r.text}`);

  test("a network without replies refuses it in the preview and on create; one with replies checks its length", async () => {
    const p = await w.t.request("POST", "/v1/posts/preview", {
      key: w.a.testKey,
      body: { brand: w.a.brandId, content: { body: "Hello" }, first_comment: "Link in here" },
    });
    expect(p.status).toBe(200);
    expect(p.body.valid).toBe(false);
    const tg = p.body.renditions.find((r: { channel: string }) => r.channel === telegram);
    expect(tg.violations.map((v: { code: string }) => v.code)).toEqual(["first_comment_unsupported"]);
    const bs = p.body.renditions.find((r: { channel: string }) => r.channel === w.channel);
    expect(bs.violations).toEqual([]);

    const refused = await createPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "Hello" },
      first_comment: "x".repeat(301),
    });
    expect(refused.status).toBe(422);
    expect(codes(refused)).toEqual([
      `too_long channels.${w.channel}`,
      `first_comment_unsupported channels.${telegram}`,
    ]);
    const empty = await createPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "Hello" },
      channels: [w.channel],
      first_comment: "  ",
    });
    expect(codes(empty)).toEqual(["empty first_comment"]);
  });

  test("sandbox channels take one as the network they emulate: LinkedIn Pages (up to 1,250) and YouTube, never a LinkedIn member", async () => {
    const made: Record<string, string> = {};
    for (const emulates of ["linkedin", "linkedin_pages", "youtube"]) {
      const r = await w.t.request("POST", "/v1/channels", {
        key: w.a.testKey,
        body: { brand: w.a.brandId, provider: "sandbox", emulates },
      });
      expect(r.status).toBe(201);
      made[emulates] = r.body.id;
    }
    const preview = async (comment: string) => {
      const p = await w.t.request("POST", "/v1/posts/preview", {
        key: w.a.testKey,
        body: {
          brand: w.a.brandId,
          content: { body: "Hello" },
          channels: [made.linkedin, made.linkedin_pages],
          first_comment: comment,
        },
      });
      expect(p.status).toBe(200);
      return Object.fromEntries(
        p.body.renditions.map((r: { channel: string; violations: { code: string }[] }) => [
          r.channel,
          r.violations.map((v) => v.code),
        ]),
      );
    };
    expect(await preview("Short")).toEqual({
      [made.linkedin!]: ["first_comment_unsupported"],
      [made.linkedin_pages!]: [],
    });
    expect((await preview("x".repeat(1251)))[made.linkedin_pages!]).toEqual(["too_long"]);
    // YouTube takes one (a post there is a video, so only the comment's own check is read here).
    const yt = await w.t.request("POST", "/v1/posts/preview", {
      key: w.a.testKey,
      body: {
        brand: w.a.brandId,
        content: { body: "Hello" },
        channels: [made.youtube],
        first_comment: "x".repeat(10_001),
      },
    });
    expect(yt.body.renditions[0].violations.map((v: { code: string }) => v.code)).toContain("too_long");
    expect(yt.body.renditions[0].violations.map((v: { code: string }) => v.code)).not.toContain(
      "first_comment_unsupported",
    );
  });

  test("published right after the post as its own part, with its status", async () => {
    const p = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "We launched." },
      channels: [w.channel],
      first_comment: "Details: https://example.com/launch",
    });
    expect(schemaErrors("Post", p)).toBe("");
    expect(p.targets[0].first_comment).toEqual({
      text: "Details: https://example.com/launch",
      status: "pending",
      permalink: null,
    });
    expect(p.targets[0].parts).toEqual(["We launched."]);
    await drain(w.t);
    const after = await getPost(w.t, w.a.testKey, p.id);
    expect(after.status).toBe("published");
    expect(after.targets[0].first_comment.status).toBe("published");
    expect(after.targets[0].first_comment.permalink).toContain(`/sandbox/${p.targets[0].id}`);
    expect(await sent(p.targets[0].id)).toEqual([
      "1:0:We launched.",
      "1:1:Details: https://example.com/launch",
    ]);
  });

  test("an edit adds, changes or removes it before publishing", async () => {
    const p = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "Soon." },
      channels: [w.channel],
      publish_at: "2026-01-06T10:00:00Z",
    });
    const a = await w.t.request("POST", `/v1/posts/${p.id}`, {
      key: w.a.testKey,
      body: { first_comment: "More soon." },
    });
    expect(a.body.targets[0].first_comment.text).toBe("More soon.");
    const b = await w.t.request("POST", `/v1/posts/${p.id}`, {
      key: w.a.testKey,
      body: { first_comment: null },
    });
    expect(b.body.targets[0].first_comment).toBeNull();
    const c = await w.t.request("POST", `/v1/posts/${p.id}`, {
      key: w.a.testKey,
      body: { channels: [w.channel, telegram], first_comment: "Both?" },
    });
    expect(codes(c)).toEqual([`first_comment_unsupported channels.${telegram}`]);
  });

  test("a worker killed between the post and its comment: the retry posts the comment alone", async () => {
    const p = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "Main post." },
      channels: [w.channel],
      first_comment: "The comment.",
    });
    const sandbox = adapterFor("sandbox")!;
    // The network takes the post; the worker dies before it sends the comment (its first attempt only).
    const killed: Adapter = {
      ...sandbox,
      publish: (app, input) =>
        sandbox.publish(app, {
          ...input,
          onPartPublished: async (part) => {
            await input.onPartPublished(part);
            if (input.attempt === 1 && part.index === 0) throw new Error("worker killed");
          },
        }),
    };
    const worker = startPublishWorker(w.t.app, {
      adapterFor: (provider) => (provider === "sandbox" ? killed : adapterFor(provider)),
      pollMs: 20,
    });
    for (let i = 0; i < 50; i++) {
      await Bun.sleep(20);
      await worker.idle();
      const t = (await getPost(w.t, w.a.testKey, p.id)).targets[0];
      if (t.status !== "queued" && t.status !== "publishing") break;
    }
    await worker.stop();
    const mid = (await getPost(w.t, w.a.testKey, p.id)).targets[0];
    expect(["needs_attention", "queued"]).toContain(mid.status);
    expect(mid.first_comment.status).not.toBe("published");
    expect(await sent(p.targets[0].id)).toEqual(["1:0:Main post."]);

    if (mid.status === "needs_attention") {
      const r = await w.t.request("POST", `/v1/post_targets/${mid.id}/retry`, { key: w.a.testKey });
      expect(r.status).toBe(200);
    }
    await drain(w.t);
    const done = (await getPost(w.t, w.a.testKey, p.id)).targets[0];
    expect([done.status, done.first_comment.status]).toEqual(["published", "published"]);
    expect(await sent(p.targets[0].id)).toEqual(["1:0:Main post.", "2:1:The comment."]);
  });
});
