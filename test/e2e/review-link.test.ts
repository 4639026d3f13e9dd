// The client review link end to end in headless Chromium: an owner makes a link on the brand page (its address
// shown once), a client with no account opens it signed out, with JavaScript off, at phone width, sees each post
// as each network will receive it, approves one and rejects the other with a note; the decisions are the link's.
// Markup anyone typed stays text; the page fits a phone and a desktop; withdrawn, the link opens nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { key } from "../helpers/factories.ts";
import { type LiveSvc, launchChromium, liveSvc, person, shot, signIn } from "./browser.ts";

const MARK = (what: string) => `<img src=x onerror=alert('${what}')><b>${what}</b>`;
const PHONE = { width: 390, height: 844 };

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describeEachDialect("client review link in Chromium", (dialect) => {
  let svc: LiveSvc;
  beforeAll(async () => {
    svc = await liveSvc(dialect);
  });
  afterAll(() => svc.close());

  test("made on the brand page, decided signed out without JavaScript, withdrawn", async () => {
    const email = `owner-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const b = await bootstrap(svc.t.app, {
      email,
      org: "Review Org",
      brand: "Northwind Coffee",
      timezone: "UTC",
    });
    const full = await key(svc.t.app, b.org.id, {
      name: "admin",
      scopes: ["brands:write", "channels:write"],
    });
    const shop = await key(svc.t.app, b.org.id, { name: "shop" });
    const api = (k: string, method: string, path: string, body?: unknown) =>
      svc.t.request(method, path, { key: k, body });
    await api(full, "POST", `/v1/brands/${b.brand.id}`, { approval_policy: "required_for_editors_and_keys" });
    const channels: string[] = [];
    for (const [emulates, name] of [
      ["mastodon", "Northwind on Mastodon"],
      ["bluesky", "Northwind on Bluesky"],
    ] as const) {
      const c = await api(full, "POST", "/v1/channels", {
        brand: b.brand.id,
        provider: "sandbox",
        emulates,
        fields: { display_name: name },
      });
      expect(c.status).toBe(201);
      channels.push(c.body.id);
    }
    const make = async (body: string) =>
      (
        await api(shop, "POST", "/v1/posts", {
          brand: b.brand.id,
          channels,
          content: { body },
          publish_at: "next_slot",
        })
      ).body;
    const first = await make("Autumn blend is back: smoky, sweet, and roasted this morning.");
    const second = await make(MARK("post"));
    expect([first.status, second.status]).toEqual(["pending_approval", "pending_approval"]);

    // The owner makes a link; its address shows once.
    const owner = await person(browser, svc);
    await signIn(owner.page, email, b.password!);
    await owner.page.goto(`/brands/${b.brand.id}`);
    await owner.page.getByLabel("Who it is for").fill(MARK("client"));
    await owner.page.getByLabel("Works for").selectOption("7");
    await owner.page.getByRole("button", { name: "Make review link" }).click();
    const url = (await owner.page.locator("#review-link-url").innerText()).trim();
    expect(url).toMatch(new RegExp(`^${svc.url}/review/svc_review_[0-9A-Za-z]{32}$`));
    await shot(owner.page, `review-link-created-${dialect}`);
    await owner.page.goto(`/brands/${b.brand.id}`);
    expect(await owner.page.locator("#review-link-created").count()).toBe(0);
    expect(await owner.page.content()).not.toContain(url);
    const row = owner.page.locator("#review-links-table tbody tr").first();
    expect(await row.locator("td").first().innerText()).toBe(MARK("client"));

    // A client: signed out, JavaScript off, a phone.
    const ctx = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
    const page = await ctx.newPage();
    const res = await page.goto(url);
    expect(res?.status()).toBe(200);
    expect(res?.headers()["x-robots-tag"]).toBe("noindex, nofollow");
    expect((await ctx.cookies()).length).toBe(0);
    expect(await page.locator("#review-posts > li").count()).toBe(2);
    const card = (id: string) => page.locator(`#review-${id}`);
    // Each network's rendering, as the composer previews it.
    for (const c of channels) expect(await card(first.id).locator(`#preview-${c}`).count()).toBe(1);
    expect(await card(first.id).locator(".net-mastodon").innerText()).toContain("Mastodon");
    expect(await card(first.id).locator(".net-bluesky").innerText()).toContain("Bluesky");
    expect(await card(second.id).locator(".part-text").first().innerText()).toBe(MARK("post"));
    expect(await page.locator("#review-intro").innerText()).toContain(MARK("client"));
    expect(await page.locator("main img, main b").count()).toBe(0);
    await shot(page, `review-link-phone-${dialect}`);

    await card(first.id).getByRole("button", { name: "Approve" }).click();
    expect(await page.locator("#flash").innerText()).toBe("Approved. Thank you.");
    expect(await page.locator("#review-posts > li").count()).toBe(1);
    await card(second.id).getByLabel("What should change? (optional)").fill(MARK("note"));
    await card(second.id).getByRole("button", { name: "Reject" }).click();
    expect(await page.locator("#flash").innerText()).toContain("Rejected");
    expect(await page.locator("#review-empty").innerText()).toContain("Nothing waits");

    const a = (await api(shop, "GET", `/v1/posts/${first.id}`)).body;
    const r = (await api(shop, "GET", `/v1/posts/${second.id}`)).body;
    expect(a.status).toBe("scheduled");
    expect(r.status).toBe("rejected");
    expect(a.approval.reviewed_by_link).toMatch(/^rvl_/);
    expect(r.approval).toMatchObject({
      reviewed_by: null,
      reviewed_by_link: a.approval.reviewed_by_link,
      note: MARK("note"),
    });

    // The page fits a phone and a desktop without sideways scrolling; nothing anyone typed ran.
    await make(
      "One more for the layout check, with a long word: Supercalifragilisticexpialidocious-roast-2026",
    );
    for (const viewport of [PHONE, { width: 1280, height: 900 }]) {
      const v = await person(browser, svc);
      await v.page.setViewportSize(viewport);
      await v.page.goto(url);
      expect(await v.page.locator("#review-posts > li").count()).toBe(1);
      const overflow = await v.page.evaluate("document.documentElement.scrollWidth - window.innerWidth");
      expect(overflow as number).toBeLessThanOrEqual(0);
      await shot(v.page, `review-link-${viewport.width}-${dialect}`);
      expect(v.dialogs).toEqual([]);
      expect(v.errors).toEqual([]);
      await v.context.close();
    }

    // Withdrawn on the brand page: the link opens nothing.
    await owner.page.goto(`/brands/${b.brand.id}`);
    await owner.page.locator("#review-links-table").getByRole("button", { name: "Withdraw" }).click();
    expect(await owner.page.locator("#flash").innerText()).toContain("withdrawn");
    expect(await owner.page.locator("#review-links-table tbody tr").first().innerText()).toContain(
      "Withdrawn",
    );
    const gone = await page.goto(url);
    expect(gone?.status()).toBe(404);
    expect(await page.locator("#review-invalid").innerText()).toContain("does not work");
    expect(owner.dialogs).toEqual([]);
    await ctx.close();
    await owner.context.close();
  });
});
