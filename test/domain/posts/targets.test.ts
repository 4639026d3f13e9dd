// A person resolves a target the worker gave up on (reference §6): retry (queued again, deadline now + 24 h) or
// mark_published (seen on the network), only from failed or needs_attention, else 409 target_not_resolvable.
// The post's status follows its targets.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { describeEachDialect } from "../../helpers/db.ts";
import { key } from "../../helpers/factories.ts";
import { schemaErrors } from "../../helpers/schemas.ts";
import { at, events, eventTypes, getPost, HOUR, iso, mustPost, START, type World, world } from "./helpers.ts";

const now = at(START);

describeEachDialect("post targets", (dialect) => {
  let w: World;
  let second: string;
  beforeAll(async () => {
    w = await world(dialect);
    second = (
      await w.t.request("POST", "/v1/channels", {
        key: w.a.testKey,
        body: { brand: w.a.brandId, provider: "sandbox", emulates: "mastodon" },
      })
    ).body.id;
  });
  afterAll(() => w.t.close());

  /** A post to both channels whose targets the worker left in these states (with an error, as it would). */
  async function postWith(statuses: [string, string]) {
    const p = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      channels: [w.channel, second],
      content: { body: "Resolve me." },
    });
    const targets = p.targets.map((x: { id: string }) => x.id) as string[];
    for (const [i, id] of targets.entries()) {
      const failed = statuses[i] === "failed" || statuses[i] === "needs_attention";
      await w.t.app.db
        .updateTable("post_targets")
        .set({
          status: statuses[i]!,
          attempts: 1,
          next_attempt_at: null,
          error_code: failed ? "rejected" : null,
          error_message: failed ? "The network said no." : null,
        })
        .where("id", "=", id)
        .execute();
    }
    await w.t.app.db.updateTable("posts").set({ status: "failed" }).where("id", "=", p.id).execute();
    return { post: p.id as string, targets };
  }
  const retry = (id: string, k = w.a.testKey) =>
    w.t.request("POST", `/v1/post_targets/${id}/retry`, { key: k });
  const mark = (id: string, body: Record<string, unknown> = {}) =>
    w.t.request("POST", `/v1/post_targets/${id}/mark_published`, { key: w.a.testKey, body });

  test("retry queues a failed target now with a fresh 24 h deadline; the post is scheduled again", async () => {
    const { post, targets } = await postWith(["failed", "failed"]);
    w.clock.advance(3 * HOUR);
    const r = await retry(targets[0]!);
    expect(r.status).toBe(200);
    expect(schemaErrors("PostTarget", r.body)).toBe("");
    expect(r.body).toMatchObject({
      id: targets[0],
      object: "post_target",
      post,
      status: "queued",
      attempts: 1,
      next_attempt_at: iso(now + 3 * HOUR),
      publish_by: iso(now + 27 * HOUR),
      error: null,
    });
    // One target queued, one failed: the post is publishing (some finished, some not).
    expect((await getPost(w.t, w.a.testKey, post)).status).toBe("publishing");
    const r2 = await retry(targets[1]!);
    expect(r2.body.status).toBe("queued");
    expect((await getPost(w.t, w.a.testKey, post)).status).toBe("scheduled");
    const audit = await w.t.app.db
      .selectFrom("audit_events")
      .select("target")
      .where("action", "=", "post_target.retry")
      .execute();
    expect(audit.map((x) => x.target).sort()).toEqual([...targets].sort());
    w.clock.set(now);
  });

  test("needs_attention can be retried too; queued, published and canceled targets cannot", async () => {
    const { targets } = await postWith(["needs_attention", "queued"]);
    expect((await retry(targets[0]!)).body.status).toBe("queued");
    for (const id of targets) {
      const r = await retry(id);
      expect([r.status, r.body.code]).toEqual([409, "target_not_resolvable"]);
      const m = await mark(id);
      expect([m.status, m.body.code]).toEqual([409, "target_not_resolvable"]);
    }
    const done = await postWith(["published", "canceled"]);
    for (const id of done.targets) expect((await retry(id)).body.code).toBe("target_not_resolvable");
  });

  test("mark_published records the permalink, writes post_target.published, and the post is published", async () => {
    const { post, targets } = await postWith(["needs_attention", "failed"]);
    w.clock.advance(HOUR);
    const r = await mark(targets[0]!, { permalink: "https://mastodon.example/@brand/1" });
    expect(r.status).toBe(200);
    expect(schemaErrors("PostTarget", r.body)).toBe("");
    expect(r.body).toMatchObject({
      status: "published",
      permalink: "https://mastodon.example/@brand/1",
      published_at: iso(now + HOUR),
      next_attempt_at: null,
      error: null,
    });
    // One published, one failed: partially published once both are final.
    expect((await getPost(w.t, w.a.testKey, post)).status).toBe("partially_published");
    const m2 = await mark(targets[1]!);
    expect([m2.body.status, m2.body.permalink]).toEqual(["published", null]);
    const final = await getPost(w.t, w.a.testKey, post);
    expect(final.status).toBe("published");
    expect(await eventTypes(w.t, w.a.orgId, post)).toEqual([
      "post.created",
      "post_target.published",
      "post.partially_published",
      "post_target.published",
      "post.published",
    ]);
    const evs = await events(w.t, w.a.orgId, targets[0]);
    expect(evs.find((e) => e.type === "post_target.published")?.data.object).toEqual(r.body);
    const bad = await mark(targets[1]!, { permalink: "not a url" });
    expect(bad.status).toBe(422);
    w.clock.set(now);
  });

  test("a key without posts:write cannot resolve; another org's target is 404", async () => {
    const { targets } = await postWith(["failed", "failed"]);
    const reader = await key(w.t.app, w.a.orgId, { name: "reader", scopes: ["posts:read"] });
    const r = await retry(targets[0]!, reader);
    expect([r.status, r.body.code]).toEqual([403, "scope_missing"]);
    const other = await w.t.request("POST", `/v1/post_targets/${targets[0]}/retry`, { key: w.a.liveKey });
    expect([other.status, other.body.code]).toEqual([404, "resource_missing"]);
    const attempts = await w.t.request("GET", `/v1/post_targets/${targets[0]}/attempts`, {
      key: w.a.testKey,
    });
    expect(attempts.body).toEqual({
      object: "list",
      data: [],
      has_more: false,
      url: `/v1/post_targets/${targets[0]}/attempts`,
    });
  });
});
