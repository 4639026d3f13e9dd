// A post's page in process, on a fake clock: once a published target's engagement is read (the sandbox simulates
// counts growing with the post's age), the page shows its likes, reposts, replies and quotes; another org's post
// looks missing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { collectDue } from "../../../src/domain/engagement/collect.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import { startPublishWorker } from "../../../src/queue/publish/worker.ts";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { tenant } from "../../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";
const HOUR = 3600_000;

describeEachDialect("dashboard post page", (dialect) => {
  let t: TestApp;
  const clock = new FakeClock(Date.parse("2026-03-02T09:00:00Z"));
  beforeAll(async () => {
    t = await webApp(dialect, { clock });
  });
  afterAll(() => t.close());

  test("a published target shows its engagement once read; another org's post looks missing", async () => {
    const a = await tenant(t.app, "Harbour Bakery");
    const post = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: { brand: a.brandId, content: { body: "Fresh sourdough at seven." } },
    });
    expect(post.status).toBe(201);
    const w = startPublishWorker(t.app, { adapterFor, pollMs: 20 });
    await w.idle();
    for (
      let i = 0;
      i < 50 &&
      (await t.request("GET", `/v1/posts/${post.body.id}`, { key: a.testKey })).body.status !== "published";
      i++
    )
      await Bun.sleep(20);
    await w.stop();
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    let page = await b.get(`/posts/${post.body.id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Published");
    expect(page.html).not.toContain("Engagement");
    clock.advance(HOUR);
    expect((await collectDue(t.app)).read).toBe(1);
    const read = (await t.request("GET", `/v1/posts/${post.body.id}`, { key: a.testKey })).body.targets[0]
      .engagement;
    page = await b.get(`/posts/${post.body.id}`);
    expect(page.html).toContain(
      `${read.likes} likes · ${read.reposts} reposts · ${read.replies} replies · ${read.quotes} quotes`,
    );

    const other = await tenant(t.app, "Other Bakery");
    const theirs = await t.request("POST", "/v1/posts", {
      key: other.testKey,
      body: { brand: other.brandId, content: { body: "Not yours." }, publish_at: "next_slot" },
    });
    const refused = await b.get(`/posts/${theirs.body.id}`);
    expect(refused.status).toBe(404);
    expect(refused.html).toContain("resource_missing");
    expect(refused.html).not.toContain("Not yours.");
  });
});
