// The composer end to end in headless Chromium against a listening svc: the live preview per channel while
// typing (too_long on one network, fixed, a thread), media from the library, the next free slot in the brand's
// zone, one post for a double click and for a form sent twice at once, errors beside their fields with the API's
// codes, the page without JavaScript, a read-only org, and markup shown as text everywhere it appears.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { whenIn } from "../../views/parts.tsx";
import { describeEachDialect } from "../helpers/db.ts";
import { key } from "../helpers/factories.ts";
import { png, upload } from "../helpers/media.ts";
import { type LiveSvc, launchChromium, liveSvc, person, shot, signIn, waitPastAbandoned } from "./browser.ts";

const MARK = (what: string) => `<img src=x onerror=alert('${what}')><b>${what}</b>`;
const LONG = `Our autumn blend is back. ${"Cinnamon, dark chocolate and orange. ".repeat(10)}`;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** An org with a brand in Lisbon's zone, the bootstrap's sandbox (Bluesky) channel and a Mastodon one. */
async function org(svc: LiveSvc, names: { org?: string; brand?: string; channel?: string } = {}) {
  const email = `compose-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const b = await bootstrap(svc.t.app, {
    email,
    org: names.org ?? "Compose Org",
    brand: names.brand ?? "Northwind Coffee",
    timezone: "Europe/Lisbon",
  });
  const k = await key(svc.t.app, b.org.id, { name: "setup" });
  const masto = await svc.t.request("POST", "/v1/channels", {
    key: k,
    body: {
      brand: b.brand.id,
      provider: "sandbox",
      emulates: "mastodon",
      fields: { display_name: names.channel ?? "Northwind on Mastodon", handle: "@nw@mastodon.social" },
    },
  });
  expect(masto.status).toBe(201);
  const bsky = (await svc.t.request("GET", "/v1/channels", { key: k })).body.data.find(
    (c: { emulates: string | null }) => c.emulates !== "mastodon",
  );
  return { email, password: b.password!, orgId: b.org.id, brand: b.brand, key: k, masto: masto.body, bsky };
}

const postsOf = (svc: LiveSvc, orgId: string) =>
  svc.t.app.db.selectFrom("posts").select(["id", "slot", "publish_at"]).where("org_id", "=", orgId).execute();

async function pick(page: Page, ...ids: string[]) {
  for (const id of ids) await page.locator(`input[name="channels"][value="${id}"]`).check();
}

describeEachDialect("composer in Chromium", (dialect) => {
  let svc: LiveSvc;
  beforeAll(async () => {
    svc = await liveSvc(dialect);
  });
  afterAll(() => svc.close());

  test("live preview per channel shows too_long, fixed; next free slot; a double click makes one post", async () => {
    const o = await org(svc);
    const { page, dialogs, errors, context } = await person(browser, svc);
    await signIn(page, o.email, o.password);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "New post" }).click();
    await page.waitForURL("**/posts/new");
    expect(await page.locator("#preview").innerText()).toContain("Pick a channel");
    await pick(page, o.bsky.id, o.masto.id);

    // Typing: the preview follows (htmx, 300 ms after the last key), per channel in its network's counting.
    await page.getByLabel("Text", { exact: true }).pressSequentially("Hello", { delay: 20 });
    await page.locator(`#preview-${o.bsky.id}`).waitFor();
    await page.getByLabel("Text", { exact: true }).fill(LONG);
    const bsky = page.locator(`#preview-${o.bsky.id}`);
    await bsky.locator(".violations").waitFor();
    expect(await bsky.locator(".violations").innerText()).toContain("too_long");
    expect(await bsky.locator(".count").innerText()).toMatch(/^\d+ \/ 300 characters/);
    expect(await page.locator(`#preview-${o.masto.id} .fit-ok`).innerText()).toContain("Fits");
    await shot(page, `composer-too-long-${dialect}`);

    // Thread for Bluesky: the same text as parts, each within the limit.
    await page.getByText("When the text is too long for a network").click();
    await page.getByLabel("Bluesky", { exact: true }).selectOption("thread");
    await bsky.locator(".parts.thread").waitFor();
    expect(await bsky.locator(".part").count()).toBeGreaterThan(1);
    expect(await bsky.locator(".fit-ok").count()).toBe(1);
    // Or shorter: fits everywhere.
    await page.getByLabel("Bluesky", { exact: true }).selectOption("error");
    await bsky.locator(".violations").waitFor();
    await page
      .getByLabel("Text", { exact: true })
      .fill("Our autumn blend is back: cinnamon, dark chocolate and orange.");
    // Only Bluesky's card broke a rule: once the new preview is in, none does.
    await bsky.locator(".violations").waitFor({ state: "detached" });
    expect(await page.locator("#preview .fit-ok").count()).toBe(2);

    // Next free slot, shown in the brand's zone.
    const next = (await svc.t.request("GET", `/v1/brands/${o.brand.id}`, { key: o.key })).body;
    expect(next.timezone).toBe("Europe/Lisbon");
    const shown = await page.locator("#next-slot").innerText();
    expect(shown).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} GMT/);
    await page.getByLabel("Next free slot").check();
    await shot(page, `composer-${dialect}`);

    // A double click sends the form twice; the Idempotency-Key makes it one post.
    await page.getByRole("button", { name: "Create post" }).dblclick();
    await waitPastAbandoned(page, /\/posts\/post_/);
    expect(await page.locator("#flash").innerText()).toBe("Post created.");
    const posts = await postsOf(svc, o.orgId);
    expect(posts.length).toBe(1);
    expect(posts[0]!.slot).toBe(1);
    expect(shown).toContain(whenIn(new Date(Number(posts[0]!.publish_at)).toISOString(), "Europe/Lisbon"));
    const keys = await svc.t.app.db
      .selectFrom("idempotency_keys")
      .select(["credential_id", "state"])
      .where("key", "like", "form_%")
      .execute();
    expect(keys.some((k) => k.state === "done")).toBe(true);
    expect(dialogs).toEqual([]);
    // Leaving the page aborts a preview still on its way, which htmx reports as an error event; nothing else may
    // fail (a CSP refusal, a missing file, a 500).
    expect(errors.filter((e) => !/^htmx:(afterRequest|sendAbort)/.test(e))).toEqual([]);
    await context.close();
  });

  test("a form sent twice at once makes one post; errors beside their fields with the API's codes", async () => {
    const o = await org(svc);
    const { page, context } = await person(browser, svc);
    await signIn(page, o.email, o.password);
    await page.goto("/posts/new");
    await pick(page, o.masto.id);
    await page.getByLabel("Text", { exact: true }).fill("Sent twice at once.");
    await page.getByLabel("Now", { exact: true }).check();
    const statuses = (await page.evaluate(`(async () => {
      const body = new URLSearchParams(new FormData(document.getElementById("composer")));
      const send = () => fetch("/posts/new", { method: "POST", body, redirect: "manual" }).then((r) => r.status);
      return Promise.all([send(), send(), send()]);
    })()`)) as number[];
    // Each is answered as the first was: a redirect to the post (opaque to fetch with redirect: "manual").
    expect(statuses.every((s) => s === 0 || s === 303)).toBe(true);
    expect((await postsOf(svc, o.orgId)).length).toBe(1);

    // The same form with other text (the key already made a post): refused with the API's code.
    await page.getByLabel("Text", { exact: true }).fill("Edited after it was sent.");
    await page.getByRole("button", { name: "Create post" }).click();
    expect(await page.locator("#form-problems").innerText()).toContain("idempotency_key_reused");
    expect((await postsOf(svc, o.orgId)).length).toBe(1);

    // A time in the past, no channel, no text: each problem beside its field.
    await page.goto("/posts/new");
    await page.getByLabel("At a time").check();
    await page.getByLabel(/^Date and time/).fill("2020-01-01T10:00");
    await page.getByRole("button", { name: "Create post" }).click();
    expect(await page.locator("#f-channels-error").innerText()).toContain("no_channels");
    await pick(page, o.masto.id);
    await page.getByRole("button", { name: "Create post" }).click();
    expect(await page.locator("#f-publish_at-error").innerText()).toContain("publish_at_invalid");
    expect(await page.locator("#f-body-error").innerText()).toContain("content_empty");
    await page.getByLabel("Text", { exact: true }).fill("x".repeat(600));
    await page.getByLabel(/^Date and time/).fill("2099-01-01T10:00");
    await page.getByRole("button", { name: "Create post" }).click();
    expect(await page.locator("#f-publish_at-error").innerText()).toContain("more than a year ahead");
    expect(await page.locator(`#preview-${o.masto.id} .violations`).innerText()).toContain("too_long");
    await shot(page, `composer-errors-${dialect}`);
    expect((await postsOf(svc, o.orgId)).length).toBe(1);
    await context.close();
  });

  test("by keyboard alone, at a phone's width: pick a channel, write, schedule", async () => {
    const o = await org(svc);
    const context = await browser.newContext({
      baseURL: svc.url,
      viewport: { width: 390, height: 844 },
      extraHTTPHeaders: { "x-client-ip": "203.0.113.202" },
    });
    const page = await context.newPage();
    await signIn(page, o.email, o.password);
    await page.goto("/posts/new");
    const focused = () =>
      page.evaluate(`document.activeElement.id || document.activeElement.name`) as Promise<string>;
    /** Tabs on until the control named `want` (its id, or its name) has the focus. */
    const tabTo = async (want: string) => {
      for (let i = 0; i < 40 && (await focused()) !== want; i++) await page.keyboard.press("Tab");
      expect(await focused()).toBe(want);
    };
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.textContent")).toBe("Skip to content");
    await page.keyboard.press("Enter");
    await tabTo("channels");
    await page.keyboard.press("Space");
    expect(await page.locator('input[name="channels"]:checked').count()).toBe(1);
    await tabTo("f-body");
    await page.keyboard.type("Written with the keyboard alone.");
    await page.locator("#preview .fit-ok").waitFor();
    // The next free slot is the default choice; Tab reaches the button, Enter sends the form.
    await tabTo("schedule-post");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/posts\/post_/);
    expect(await page.locator("#flash").innerText()).toBe("Post created.");
    const overflow = await page.evaluate("document.documentElement.scrollWidth - window.innerWidth");
    expect(overflow).toBe(0);
    expect((await postsOf(svc, o.orgId)).length).toBe(1);
    await context.close();
  });

  test("media from the library; without JavaScript; markup is text; read-only and suspended orgs change nothing", async () => {
    const o = await org(svc, { org: MARK("org"), brand: MARK("brand"), channel: MARK("channel") });
    const media = await upload(svc.t, o.key, {
      brand: o.brand.id,
      alt: MARK("alt"),
      file: { bytes: await png(800, 600), name: "autumn.png", type: "image/png" },
    });
    expect(media.status).toBe(201);
    const { page, dialogs, context } = await person(browser, svc);
    await signIn(page, o.email, o.password);
    await page.goto("/posts/new");
    await pick(page, o.masto.id);
    expect(await page.locator("#channel-picker").innerText()).toContain(MARK("channel"));
    expect(await page.locator("#channel-picker legend").nth(1).innerText()).toContain(MARK("brand"));
    await page.getByText("Media from the library").click();
    expect(await page.locator(".media-list").innerText()).toContain(`Alt text: ${MARK("alt")}`);
    await page.getByLabel(/autumn\.png/).check();
    await page.getByLabel("Text", { exact: true }).fill(MARK("post"));
    await page.locator(`#preview-${o.masto.id} .part-text`).waitFor();
    expect(await page.locator(`#preview-${o.masto.id} .part-text`).innerText()).toBe(MARK("post"));
    await page.getByRole("button", { name: "Create post" }).click();
    await page.waitForURL(/\/posts\/post_/);
    const [post] = await postsOf(svc, o.orgId);
    const got = (await svc.t.request("GET", `/v1/posts/${post!.id}`, { key: o.key })).body;
    expect(got.media.map((m: { id: string }) => m.id)).toEqual([media.body.id]);
    expect(await page.locator("img").count()).toBe(0);
    expect(dialogs).toEqual([]);
    await context.close();

    // Without JavaScript: Preview reloads the page with the preview; Create post makes the post.
    const noJs = await browser.newContext({
      baseURL: svc.url,
      javaScriptEnabled: false,
      extraHTTPHeaders: { "x-client-ip": "203.0.113.200" },
    });
    const p2 = await noJs.newPage();
    await signIn(p2, o.email, o.password);
    await p2.goto("/posts/new");
    await pick(p2, o.bsky.id);
    await p2.getByLabel("Text", { exact: true }).fill(LONG);
    await p2.getByRole("button", { name: "Preview" }).click();
    await p2.waitForURL("**/posts/preview");
    expect(await p2.locator(`#preview-${o.bsky.id} .violations`).innerText()).toContain("too_long");
    await p2.getByLabel("Text", { exact: true }).fill("Short enough.");
    await p2.getByLabel("Now", { exact: true }).check();
    await p2.getByRole("button", { name: "Create post" }).click();
    await p2.waitForURL(/\/posts\/post_/);
    expect((await postsOf(svc, o.orgId)).length).toBe(2);

    // Read-only: the button is disabled, and a form sent anyway is refused with org_read_only.
    await svc.t.app.db.updateTable("orgs").set({ status: "read_only" }).where("id", "=", o.orgId).execute();
    await p2.goto("/posts/new");
    expect(await p2.getByRole("button", { name: "Create post" }).isDisabled()).toBe(true);
    await noJs.close();
    const ro = await person(browser, svc);
    await signIn(ro.page, o.email, o.password);
    await ro.page.goto("/posts/new");
    await pick(ro.page, o.masto.id);
    await ro.page.getByLabel("Text", { exact: true }).fill("Not while read-only.");
    await ro.page.evaluate(`document.getElementById("schedule-post").disabled = false`);
    await ro.page.getByRole("button", { name: "Create post" }).click();
    expect(await ro.page.locator("#error").innerText()).toContain("org_read_only");
    expect((await postsOf(svc, o.orgId)).length).toBe(2);

    // Suspended: members see only the notice (interface.md), on every publishing page, and no change is offered.
    await svc.t.app.db.updateTable("orgs").set({ status: "suspended" }).where("id", "=", o.orgId).execute();
    for (const path of ["/posts/new", "/posts", "/queue", "/approvals"]) {
      const r = await ro.page.goto(path);
      expect({ path, status: r!.status() }).toEqual({ path, status: 403 });
      expect(await ro.page.locator("#org-status").innerText()).toContain("suspended");
      expect(await ro.page.locator("#error").innerText()).toContain("org_suspended");
      expect(await ro.page.locator("main button.primary:not([disabled]), details.move").count()).toBe(0);
    }
    await ro.context.close();
  });
});
