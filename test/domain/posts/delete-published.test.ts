// POST /v1/posts/{id}/delete_published through the sandbox: each published target's parts are removed from the
// network (read back: the sandbox keeps nothing for it), a result per target, post_target.deleted once; asking
// again deletes nothing twice; a target marked published by hand cannot be deleted by svc (delete_unsupported);
// a post with nothing published is post_not_published; other orgs see nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { describeEachDialect } from "../../helpers/db.ts";
import { drain } from "../../helpers/networks.ts";
import { schemaErrors } from "../../helpers/schemas.ts";
import { events, getPost, iso, mustPost, otherTenant, START, type World, world } from "./helpers.ts";

describeEachDialect("deleting published posts from the networks", (dialect) => {
  let w: World;
  beforeAll(async () => {
    w = await world(dialect);
  });
  afterAll(() => w.t.close());

  const del = (id: string, key = w.a.testKey) =>
    w.t.request("POST", `/v1/posts/${id}/delete_published`, { key });
  const stored = async (targetId: string) =>
    (await w.t.app.db.selectFrom("sandbox_posts").select("text").where("target_id", "=", targetId).execute())
      .length;

  test("every part is removed, a result per target, the event once; asking again deletes nothing twice", async () => {
    const p = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { parts: ["One", "Two"] },
      first_comment: "Three",
    });
    await drain(w.t);
    const target = p.targets[0].id;
    expect(await stored(target)).toBe(3);
    const r = await del(p.id);
    expect(r.status).toBe(200);
    expect(schemaErrors("PostDeletion", r.body)).toBe("");
    expect(r.body.results).toEqual([
      { target, channel: w.channel, provider: "sandbox", result: "deleted", message: null },
    ]);
    expect(await stored(target)).toBe(0);
    const after = await getPost(w.t, w.a.testKey, p.id);
    expect(after.targets[0].deleted_at).toBe(iso(Date.parse(START)));
    const again = await del(p.id);
    expect(again.body.results[0].result).toBe("deleted");
    const evs = (await events(w.t, w.a.orgId, target)).filter((e) => e.type === "post_target.deleted");
    expect(evs).toHaveLength(1);
  });

  test("a target marked published by hand is delete_unsupported; nothing published is post_not_published", async () => {
    const p = await mustPost(w.t, w.a.testKey, {
      brand: w.a.brandId,
      content: { body: "By hand" },
      publish_at: iso(Date.parse(START) + 3600_000),
    });
    const none = await del(p.id);
    expect([none.status, none.body.code]).toEqual([409, "post_not_published"]);
    await w.t.app.db
      .updateTable("post_targets")
      .set({ status: "failed", attempts: 1 })
      .where("post_id", "=", p.id)
      .execute();
    await w.t.request("POST", `/v1/post_targets/${p.targets[0].id}/mark_published`, {
      key: w.a.testKey,
      body: {},
    });
    const r = await del(p.id);
    expect(r.status).toBe(200);
    expect(r.body.results[0].result).toBe("delete_unsupported");
  });

  test("another org's key and the other mode find no post", async () => {
    const p = await mustPost(w.t, w.a.testKey, { brand: w.a.brandId, content: { body: "Mine" } });
    await drain(w.t);
    const other = await otherTenant(w.t);
    expect((await del(p.id, other.a.testKey)).body.code).toBe("resource_missing");
    expect((await del(p.id, w.a.liveKey)).body.code).toBe("resource_missing");
    expect(await stored(p.targets[0].id)).toBe(1);
  });
});
