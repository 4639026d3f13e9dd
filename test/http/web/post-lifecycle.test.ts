// The post page's lifecycle actions, as a signed-in member in process: a draft shows what to fix; its text and
// first comment are edited and it is scheduled from the page (CSRF-checked; a rule broken is shown, nothing
// saved); a published post is deleted from the networks; what people typed is escaped.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { FakeClock } from "../../../src/lib/clock.ts";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { tenant } from "../../helpers/factories.ts";
import { drain } from "../../helpers/networks.ts";

const PASSWORD = "correct horse battery staple";

describeEachDialect("dashboard: drafts, edit and delete from the networks", (dialect) => {
  let t: TestApp;
  const clock = new FakeClock(Date.parse("2026-03-02T09:00:00Z"));
  beforeAll(async () => {
    t = await webApp(dialect, { clock });
  });
  afterAll(() => t.close());

  test("the composer saves a draft (no time, problems kept) with its first comment", async () => {
    const a = await tenant(t.app, "Corner Shop");
    const channel = (await t.request("GET", "/v1/channels", { key: a.testKey })).body.data[0].id;
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    await b.get("/posts/new");
    const r = await b.post("/posts/new", {
      channels: channel,
      body: "z".repeat(400),
      first_comment: "More at https://example.com",
      when: "next_slot",
      idempotency_key: "composer-draft-1",
      draft: "1",
    });
    expect(r.status).toBe(303);
    const id = r.location!.split("/").pop()!;
    const p = (await t.request("GET", `/v1/posts/${id}`, { key: a.testKey })).body;
    expect([p.status, p.publish_at, p.problems[0].code, p.targets[0].first_comment.text]).toEqual([
      "draft",
      null,
      "too_long",
      "More at https://example.com",
    ]);
  });

  test("a draft is fixed, given a first comment and scheduled from its page; then deleted from the network", async () => {
    const a = await tenant(t.app, "Harbour Bakery");
    const d = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: { brand: a.brandId, content: { body: `<b>${"x".repeat(400)}</b>` }, draft: true },
    });
    expect(d.status).toBe(201);
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    let page = await b.get(`/posts/${d.body.id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain("What to fix before it can be scheduled");
    expect(page.html).toContain("(too_long)");
    expect(page.html).toContain("&lt;b&gt;xxx");
    expect(page.html).not.toContain("<b>xxx");

    // Without the page's token nothing is saved.
    const forged = await b.post(
      `/posts/${d.body.id}/edit`,
      { body: "Forged", schedule: "1" },
      { site: "cross-site" },
    );
    expect(forged.status).toBe(403);

    const refused = await b.post(`/posts/${d.body.id}/edit`, { body: "y".repeat(400), schedule: "1" });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain("too_long");
    expect((await t.request("GET", `/v1/posts/${d.body.id}`, { key: a.testKey })).body.status).toBe("draft");

    const saved = await b.post(`/posts/${d.body.id}/edit`, {
      body: "Fresh sourdough at seven.",
      first_comment: "Order ahead: https://example.com/order",
      schedule: "1",
    });
    expect(saved.status).toBe(303);
    page = await b.follow(saved);
    expect(page.html).toContain("Post saved.");
    const p = (await t.request("GET", `/v1/posts/${d.body.id}`, { key: a.testKey })).body;
    expect([p.status, p.targets[0].parts, p.targets[0].first_comment.text]).toEqual([
      "scheduled",
      ["Fresh sourdough at seven."],
      "Order ahead: https://example.com/order",
    ]);

    await drain(t);
    page = await b.get(`/posts/${d.body.id}`);
    expect(page.html).toContain("First comment");
    expect(page.html).toContain("Delete from networks");
    expect(page.html).not.toContain("Edit before publishing");
    const del = await b.post(`/posts/${d.body.id}/delete-published`, {});
    expect(del.status).toBe(303);
    page = await b.follow(del);
    expect(page.html).toContain("Removed from the network");
    expect(page.html).not.toContain("Delete from networks");
  });
});
