// Posts end to end in headless Chromium against a listening svc with a publish worker: the list (filters, cursor
// paging, empty states), a post's page following its targets as they publish without a reload (htmx polling),
// retry and mark published for a needs-attention target with the "may or may not have been posted" explanation,
// cancel, a read-only org, and markup (post text, the network's error message) shown as text.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { adapterFor } from "../../src/platforms/adapter-registry.ts";
import { type PublishWorker, startPublishWorker } from "../../src/queue/publish/worker.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { key } from "../helpers/factories.ts";
import { type LiveSvc, launchChromium, liveSvc, person, shot, signIn } from "./browser.ts";

const MARK = (what: string) => `<img src=x onerror=alert('${what}')><b>${what}</b>`;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function org(svc: LiveSvc) {
  const email = `posts-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const b = await bootstrap(svc.t.app, {
    email,
    org: "Posts Org",
    brand: "Northwind Coffee",
    timezone: "Europe/Lisbon",
  });
  const k = await key(svc.t.app, b.org.id, { name: "setup" });
  const post = async (body: Record<string, unknown>) => {
    const r = await svc.t.request("POST", "/v1/posts", { key: k, body: { brand: b.brand.id, ...body } });
    expect(r.status).toBe(201);
    return r.body as { id: string; targets: { id: string }[] };
  };
  return { email, password: b.password!, orgId: b.org.id, brand: b.brand, key: k, post };
}

describeEachDialect("posts in Chromium", (dialect) => {
  let svc: LiveSvc;
  let worker: PublishWorker;
  beforeAll(async () => {
    svc = await liveSvc(dialect);
    worker = startPublishWorker(svc.t.app, { adapterFor, pollMs: 100 });
  });
  afterAll(async () => {
    await worker.stop();
    await svc.close();
  });

  test("a post's page follows it as it publishes, without a reload; retry and mark published; cancel", async () => {
    const o = await org(svc);
    // Due in an hour, so the page is seen Queued however slow the machine; then brought forward to now.
    const soon = await o.post({
      content: { body: "Roasting day! Small batches go out this afternoon." },
      publish_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const { page, dialogs, context } = await person(browser, svc);
    await signIn(page, o.email, o.password);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Posts" }).click();
    await page.getByRole("link", { name: /Roasting day/ }).click();
    await page.waitForURL(`**/posts/${soon.id}`);
    const status = page.locator(`#target-status-${soon.targets[0]!.id}`);
    expect(await status.innerText()).toBe("Queued");
    // A mark on the document: it survives only if the page is never reloaded.
    await page.evaluate(`document.body.dataset.stayed = "yes"`);
    const now = await svc.t.request("POST", `/v1/posts/${soon.id}/reschedule`, {
      key: o.key,
      body: { publish_at: "now" },
    });
    expect(now.status).toBe(200);
    await page
      .locator(`#target-status-${soon.targets[0]!.id}:text("Published")`)
      .waitFor({ timeout: 20_000 });
    expect(await page.locator("#post-status").innerText()).toBe("Published");
    expect(await page.evaluate(`document.body.dataset.stayed`)).toBe("yes");
    await shot(page, `post-published-${dialect}`);

    // The network may have posted: the page says what that means; retry queues it again and it publishes.
    const maybe = await o.post({
      content: { body: "Maybe sent." },
      metadata: { svc_simulate: "timeout_after_send" },
    });
    const tid = maybe.targets[0]!.id;
    await page.goto(`/posts/${maybe.id}`);
    await page.locator(`#target-status-${tid}:text("Needs attention")`).waitFor({ timeout: 20_000 });
    const card = page.locator(`#target-${tid}`);
    expect(await card.locator(".explain").innerText()).toContain("This may or may not have been posted.");
    expect(await card.locator(".attempt-list").innerText()).toContain("may or may not have been posted");
    await shot(page, `post-needs-attention-${dialect}`);
    await card.getByRole("button", { name: "Retry" }).click();
    expect(await page.locator("#flash").innerText()).toContain("Queued again");
    await page.locator(`#target-status-${tid}:text("Published")`).waitFor({ timeout: 20_000 });

    // Mark published, with its link.
    const seen = await o.post({
      content: { body: "Seen there." },
      metadata: { svc_simulate: "timeout_after_send" },
    });
    const sid = seen.targets[0]!.id;
    await page.goto(`/posts/${seen.id}`);
    await page.locator(`#target-status-${sid}:text("Needs attention")`).waitFor({ timeout: 20_000 });
    await page.getByLabel("Its link on the network (optional)").fill("https://bsky.app/profile/nw/post/3k");
    await page.getByRole("button", { name: "Mark published" }).click();
    expect(await page.locator("#flash").innerText()).toBe("Marked as published.");
    expect(await page.locator(`#target-${sid} a.permalink`).getAttribute("href")).toBe(
      "https://bsky.app/profile/nw/post/3k",
    );
    expect(dialogs).toEqual([]);
    await context.close();

    // Cancel asks first (a confirm dialog, accepted here).
    const later = await o.post({
      content: { body: "Next week." },
      publish_at: new Date(Date.now() + 86400_000).toISOString(),
    });
    const c2 = await browser.newContext({
      baseURL: svc.url,
      extraHTTPHeaders: { "x-client-ip": "203.0.113.201" },
    });
    const p2 = await c2.newPage();
    p2.on("dialog", (d) => void d.accept());
    await signIn(p2, o.email, o.password);
    await p2.goto(`/posts/${later.id}`);
    await p2.getByRole("button", { name: "Cancel post" }).click();
    expect(await p2.locator("#flash").innerText()).toContain("Post canceled");
    expect(await p2.locator("#post-status").innerText()).toBe("Canceled");
    expect(await p2.getByRole("button", { name: "Cancel post" }).count()).toBe(0);
    await c2.close();
  });

  test("the list: filters (status, text, channel), cursor paging, empty states; markup is text; a read-only org changes nothing", async () => {
    const o = await org(svc);
    const { page, dialogs, context } = await person(browser, svc);
    await signIn(page, o.email, o.password);
    await page.goto("/posts");
    expect(await page.locator("#posts-empty").innerText()).toContain("Write the first one");
    const ahead = new Date(Date.now() + 86400_000).toISOString();
    for (let i = 1; i <= 23; i++)
      await o.post({ content: { body: `Daily special number ${i}` }, publish_at: ahead });
    const marked = await o.post({
      content: { body: MARK("post") },
      metadata: { svc_simulate: "rejected" },
    });
    await page.goto("/posts");
    // Newest first, 20 a page; Older goes on from the last, Newer comes back.
    expect(await page.locator("#post-list > li").count()).toBe(20);
    expect(await page.locator("#post-list .post-text").first().innerText()).toBe(MARK("post"));
    await page.getByRole("link", { name: "Older →" }).click();
    expect(await page.locator("#post-list > li").count()).toBe(4);
    expect(await page.locator("#post-list .post-text").last().innerText()).toBe("Daily special number 1");
    await page.getByRole("link", { name: "← Newer" }).click();
    expect(await page.locator("#post-list > li").count()).toBe(20);
    expect(await page.getByRole("link", { name: "← Newer" }).count()).toBe(0);

    await page.getByLabel("Search text").fill("number 1");
    await page.getByRole("button", { name: "Filter" }).click();
    // number 1, 10..19
    expect(await page.locator("#post-list > li").count()).toBe(11);
    await page.getByLabel("Search text").fill("nothing like this");
    await page.getByRole("button", { name: "Filter" }).click();
    expect(await page.locator("#posts-empty").innerText()).toContain("Clear filters");
    await page.goto("/posts?q=");
    await page.getByLabel("Status").selectOption("scheduled");
    await page.getByRole("button", { name: "Filter" }).click();
    expect(await page.locator("#post-list > li").count()).toBe(20);
    expect(await page.getByRole("link", { name: "Older →" }).getAttribute("href")).toContain(
      "status=scheduled",
    );
    // By channel: a Mastodon channel with one post of its own.
    const masto = await svc.t.request("POST", "/v1/channels", {
      key: o.key,
      body: {
        brand: o.brand.id,
        provider: "sandbox",
        emulates: "mastodon",
        fields: { display_name: "On Mastodon" },
      },
    });
    await o.post({ channels: [masto.body.id], content: { body: "Only on Mastodon" }, publish_at: ahead });
    await page.goto("/posts");
    await page.getByLabel("Channel").selectOption({ label: "On Mastodon (Mastodon)" });
    await page.getByRole("button", { name: "Filter" }).click();
    expect(await page.locator("#post-list .post-text").allInnerTexts()).toEqual(["Only on Mastodon"]);
    await page.goto(`/posts?q=${"x".repeat(201)}`);
    expect(await page.locator("#f-q-error").innerText()).toContain("query_too_long");
    await shot(page, `posts-${dialect}`);

    // The network's message, with markup, on a failed target; the post's text on its page.
    await page.goto(`/posts/${marked.id}`);
    const tid = marked.targets[0]!.id;
    await page.locator(`#target-status-${tid}:text("Failed")`).waitFor({ timeout: 20_000 });
    await svc.t.app.db
      .updateTable("post_targets")
      .set({ error_message: MARK("network") })
      .where("id", "=", tid)
      .execute();
    await svc.t.app.db
      .updateTable("post_attempts")
      .set({ error_message: MARK("attempt") })
      .where("target_id", "=", tid)
      .execute();
    await page.reload();
    expect(await page.locator(`#target-${tid} .target-error`).innerText()).toContain(MARK("network"));
    expect(await page.locator(`#target-${tid} .attempt-list`).innerText()).toContain(MARK("attempt"));
    expect(await page.locator("h1").innerText()).toBe(MARK("post"));
    expect(await page.locator("main img, main b").count()).toBe(0);

    // Read-only: every change is disabled, and one sent anyway is refused.
    await svc.t.app.db.updateTable("orgs").set({ status: "read_only" }).where("id", "=", o.orgId).execute();
    await page.reload();
    expect(await page.getByRole("button", { name: "Retry" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Mark published" }).isDisabled()).toBe(true);
    await page.evaluate(`for (const b of document.querySelectorAll("button[disabled]")) b.disabled = false`);
    await page.getByRole("button", { name: "Retry" }).click();
    expect(await page.locator("#error").innerText()).toContain("org_read_only");
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
