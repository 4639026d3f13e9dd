// Engagement end to end in test mode (the sandbox reports simulated counts that grow with a post's age):
// publication starts collection, engagement.collect reads 1 h, 6 h, 1 d, 3 d, 7 d and 30 d after publishing
// (skipping readings an outage made stale), failed readings are retried a bounded number of times, a post gone
// from the network is `deleted`, a target with nothing to read is `unsupported`; the readings list and the summary
// (group_by, window rules), and org and mode isolation. Both databases.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { collectDue } from "../../../src/domain/engagement/collect.ts";
import { MAX_FAILURES } from "../../../src/domain/engagement/schedule.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import { startPublishWorker } from "../../../src/queue/publish/worker.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** The sandbox's simulated likes (src/platforms/sandbox/adapter.ts). */
const simulatedLikes = (targetId: string, hours: number) =>
  Math.floor(2 * Math.sqrt(hours)) + ([...targetId].reduce((n, c) => n + c.charCodeAt(0), 0) % 3);

describeEachDialect("engagement", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  const clock = new FakeClock(Date.parse("2026-03-02T09:00:00Z"));
  beforeEach(async () => {
    t = await testApp(dialect, { clock });
    a = await tenant(t.app);
  });
  afterEach(async () => {
    await t.close();
  });

  async function published(body: string, metadata?: Record<string, string>) {
    const r = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: { brand: a.brandId, content: { body }, ...(metadata ? { metadata } : {}) },
    });
    expect(r.status).toBe(201);
    const w = startPublishWorker(t.app, { adapterFor, pollMs: 20 });
    for (let i = 0; i < 50; i++) {
      await Bun.sleep(20);
      await w.idle();
      const p = (await t.request("GET", `/v1/posts/${r.body.id}`, { key: a.testKey })).body;
      if (!["scheduled", "publishing"].includes(p.status)) break;
    }
    await w.stop();
    return (await t.request("GET", `/v1/posts/${r.body.id}`, { key: a.testKey })).body;
  }
  const targetOf = async (postId: string) =>
    (await t.request("GET", `/v1/posts/${postId}`, { key: a.testKey })).body.targets[0];
  const readings = async (targetId: string) =>
    (await t.request("GET", `/v1/post_targets/${targetId}/engagement`, { key: a.testKey })).body;

  test("publishing starts collection; each reading lands on schedule and is listed oldest first", async () => {
    const post = await published("Counting likes");
    const target = post.targets[0];
    expect(target.status).toBe("published");
    const publishedAt = Date.parse(target.published_at);
    expect(target.engagement).toEqual({
      likes: 0,
      reposts: 0,
      replies: 0,
      quotes: 0,
      views: null,
      total: 0,
      state: "collecting",
      read_at: null,
      next_read_at: new Date(publishedAt + HOUR).toISOString(),
    });
    // Not due yet: nothing is read.
    expect((await collectDue(t.app)).read).toBe(0);

    clock.advance(HOUR);
    expect(await collectDue(t.app)).toEqual({ read: 1, failed: 0, deleted: 0, unsupported: 0 });
    const likes = simulatedLikes(target.id, (clock.now() - publishedAt) / HOUR);
    const after = (await targetOf(post.id)).engagement;
    expect(after.likes).toBe(likes);
    expect(after.views).toBe(likes * 20);
    expect(after.total).toBe(likes + Math.floor(likes / 4) + Math.floor(likes / 6) + Math.floor(likes / 10));
    expect(after.read_at).toBe(new Date(clock.now()).toISOString());
    expect(after.next_read_at).toBe(new Date(publishedAt + 6 * HOUR).toISOString());

    clock.advance(5 * HOUR);
    expect((await collectDue(t.app)).read).toBe(1);
    const list = await readings(target.id);
    expect(list.object).toBe("list");
    expect(list.url).toBe(`/v1/post_targets/${target.id}/engagement`);
    expect(list.data.map((r: { read_at: string }) => r.read_at)).toEqual([
      new Date(publishedAt + HOUR).toISOString(),
      new Date(publishedAt + 6 * HOUR).toISOString(),
    ]);
    expect(list.data[1].likes).toBe(simulatedLikes(target.id, 6));

    // After an outage of 40 days: one reading, and collection is done (the stale ones are not caught up).
    clock.advance(40 * DAY);
    expect((await collectDue(t.app)).read).toBe(1);
    const done = (await targetOf(post.id)).engagement;
    expect(done.state).toBe("done");
    expect(done.next_read_at).toBeNull();
    expect((await readings(target.id)).data).toHaveLength(3);
    clock.advance(60 * DAY);
    expect((await collectDue(t.app)).read).toBe(0);
  });

  test("a failed reading is retried later, at most a bounded number of times; the target stays published", async () => {
    const post = await published("Its channel goes away");
    const target = post.targets[0];
    // The channel is deleted after publishing: its target can no longer be read.
    expect((await t.request("DELETE", `/v1/channels/${target.channel}`, { key: a.testKey })).status).toBe(
      200,
    );
    clock.advance(HOUR);
    let row = await t.app.db.selectFrom("target_engagement").selectAll().executeTakeFirstOrThrow();
    for (let i = 1; i < MAX_FAILURES; i++) {
      expect((await collectDue(t.app)).failed).toBe(1);
      row = await t.app.db.selectFrom("target_engagement").selectAll().executeTakeFirstOrThrow();
      expect(row.failures).toBe(i);
      expect(row.last_error).toContain("deleted");
      expect(Number(row.next_read_at)).toBeGreaterThan(clock.now());
      clock.advance(Number(row.next_read_at) - clock.now());
    }
    // The last try fails too: that reading is skipped and the next one is scheduled.
    expect((await collectDue(t.app)).failed).toBe(1);
    row = await t.app.db.selectFrom("target_engagement").selectAll().executeTakeFirstOrThrow();
    expect([row.failures, row.readings, row.state]).toEqual([0, 1, "collecting"]);
    expect(Number(row.next_read_at)).toBe(Date.parse(target.published_at) + 6 * HOUR);
    expect((await targetOf(post.id)).status).toBe("published");
  });

  test("a post gone from the network is deleted; a target marked published by hand has nothing to read", async () => {
    const post = await published("Soon gone");
    await t.app.db.deleteFrom("sandbox_posts").where("target_id", "=", post.targets[0].id).execute();
    const failed = await published("Refused", { svc_simulate: "rejected" });
    expect(failed.targets[0].status).toBe("failed");
    const marked = await t.request("POST", `/v1/post_targets/${failed.targets[0].id}/mark_published`, {
      key: a.testKey,
      body: { permalink: "https://example.com/seen" },
    });
    expect(marked.status).toBe(200);
    clock.advance(HOUR);
    expect(await collectDue(t.app)).toEqual({ read: 0, failed: 0, deleted: 1, unsupported: 1 });
    expect((await targetOf(post.id)).engagement.state).toBe("deleted");
    expect((await targetOf(failed.id)).engagement.state).toBe("unsupported");
    clock.advance(10 * DAY);
    expect((await collectDue(t.app)).read).toBe(0);
  });

  test("the summary groups by post, channel or template, most engaging first, within a window", async () => {
    const first = await published("First");
    const second = await published("Second");
    clock.advance(6 * HOUR);
    await collectDue(t.app);
    // The second post is made more engaging on the network.
    await t.app.db
      .updateTable("target_engagement")
      .set({ likes: 500 })
      .where("target_id", "=", second.targets[0].id)
      .execute();
    const since = new Date(clock.now() - DAY).toISOString();
    const until = new Date(clock.now()).toISOString();
    const q = (params: string) => t.request("GET", `/v1/engagement/summary?${params}`, { key: a.testKey });
    const byPost = await q(`group_by=post&since=${since}&until=${until}`);
    expect(byPost.status).toBe(200);
    expect(byPost.body.object).toBe("engagement_summary");
    expect(byPost.body.data.map((r: { post: string }) => r.post)).toEqual([second.id, first.id]);
    expect(byPost.body.data[0].likes).toBe(500);
    const byChannel = await q(`group_by=channel&brand=${a.brandSlug}&since=${since}&until=${until}`);
    expect(byChannel.body.data).toHaveLength(1);
    expect(byChannel.body.data[0].targets).toBe(2);
    expect(byChannel.body.data[0].channel).toBe(first.targets[0].channel);
    expect((await q(`group_by=template&since=${since}&until=${until}`)).body.data).toEqual([]);
    // Default: the last 30 days.
    expect((await q("")).body.data).toHaveLength(2);
    const bad = await q("group_by=day");
    expect([bad.status, bad.body.code]).toEqual([422, "group_by_invalid"]);
    const backwards = await q(`since=${until}&until=${since}`);
    expect([backwards.status, backwards.body.code]).toEqual([422, "window_invalid"]);
    const tooLong = await q(`since=2024-01-01&until=2026-01-02`);
    expect([tooLong.status, tooLong.body.code]).toEqual([422, "window_invalid"]);
    const garbage = await q("since=yesterday");
    expect([garbage.status, garbage.body.code]).toEqual([422, "window_invalid"]);
    const unknown = await q("sort=likes");
    expect([unknown.status, unknown.body.code]).toEqual([400, "parameter_unknown"]);
  });

  test("another org's targets and the other mode's are missing, and neither appears in a summary", async () => {
    const post = await published("Mine");
    const other = await tenant(t.app);
    const theirs = await t.request("GET", `/v1/post_targets/${post.targets[0].id}/engagement`, {
      key: other.testKey,
    });
    expect([theirs.status, theirs.body.code]).toEqual([404, "resource_missing"]);
    const live = await t.request("GET", `/v1/post_targets/${post.targets[0].id}/engagement`, {
      key: a.liveKey,
    });
    expect([live.status, live.body.code]).toEqual([404, "resource_missing"]);
    expect((await t.request("GET", "/v1/engagement/summary", { key: other.testKey })).body.data).toEqual([]);
    expect((await t.request("GET", "/v1/engagement/summary", { key: a.liveKey })).body.data).toEqual([]);
    expect((await t.request("GET", "/v1/engagement/summary", { key: a.testKey })).body.data).toHaveLength(1);
  });
});
