// The client review link end to end in headless Chromium: an owner makes a link on the brand page (its address
// shown once), a client with no account opens it signed out, with JavaScript off, at phone width, sees each post
// as each network will receive it, approves one and rejects the other with a note; the decisions are the link's.
// Markup anyone typed stays text; the page fits a phone and a desktop; withdrawn, the link opens nothing. A pending
// post's images show as thumbnails and its video as its first frame, signed out, through routes that serve only
// the link's pending posts' files.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { key } from "../helpers/factories.ts";
import { jpeg, upload } from "../helpers/media.ts";
import { type LocalS3, localS3 } from "../helpers/s3.ts";
import { makeVideo } from "../helpers/video.ts";
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

describeEachDialect("client review link pictures in Chromium", (dialect) => {
  let svc: LiveSvc;
  let s3: LocalS3;
  beforeAll(async () => {
    s3 = await localS3();
    svc = await liveSvc(dialect, s3.env);
  });
  afterAll(async () => {
    await svc.close();
    await s3.close();
  });

  test("a pending post's images and video show signed out, through the link's own routes, never indexed; nothing else is served", async () => {
    const b = await bootstrap(svc.t.app, {
      email: `pics-${Math.random().toString(36).slice(2, 8)}@example.com`,
      org: "Pictures Org",
      brand: "Harbour Bakery",
      timezone: "UTC",
    });
    const full = await key(svc.t.app, b.org.id, {
      name: "admin",
      scopes: ["brands:write", "channels:write"],
    });
    const shop = await key(svc.t.app, b.org.id, { name: "shop" });
    const approver = await key(svc.t.app, b.org.id, {
      name: "approver",
      scopes: ["posts:read", "posts:approve"],
    });
    const api = (k: string, method: string, path: string, body?: unknown) =>
      svc.t.request(method, path, { key: k, body });
    await api(full, "POST", `/v1/brands/${b.brand.id}`, { approval_policy: "required_for_editors_and_keys" });
    const ch = await api(full, "POST", "/v1/channels", {
      brand: b.brand.id,
      provider: "sandbox",
      emulates: "mastodon",
      fields: { display_name: "Harbour on Mastodon" },
    });
    expect(ch.status).toBe(201);
    const file = async (alt: string, bytes: Uint8Array, type: string, name: string) => {
      const r = await upload(svc.t, shop, { brand: b.brand.id, alt, file: { bytes, name, type } });
      expect(r.status).toBe(201);
      return r.body.id as string;
    };
    const loaf = await file("A sourdough loaf", await jpeg(640, 480), "image/jpeg", "loaf.jpg");
    const crumb = await file("The crumb, up close", await jpeg(300, 400), "image/jpeg", "crumb.jpg");
    const clip = await file(
      "Shaping the dough",
      makeVideo({ seconds: 2, width: 320, height: 240 }),
      "video/mp4",
      "clip.mp4",
    );
    const stray = await file("Not on any post", await jpeg(200, 200), "image/jpeg", "stray.jpg");
    const post = async (body: string, media: string[]) => {
      const r = await api(shop, "POST", "/v1/posts", {
        brand: b.brand.id,
        channels: [ch.body.id],
        content: { body },
        media,
        publish_at: "next_slot",
      });
      expect([r.status, r.body.status]).toEqual([201, "pending_approval"]);
      return r.body.id as string;
    };
    const photos = await post("Fresh this morning", [loaf, crumb]);
    const video = await post("How we shape it", [clip]);
    // Another brand's pending post: its file is not this link's to show.
    const other = await api(full, "POST", "/v1/brands", { name: "Other Brand", timezone: "UTC" });
    expect(other.status).toBe(201);
    const link = await api(approver, "POST", "/v1/review_links", { brand: b.brand.id, name: "The client" });
    expect(link.status).toBe(201);
    const url = link.body.url as string;

    // The client: signed out, on a phone; the pictures load from the link's routes.
    const client = await person(browser, svc);
    await client.page.setViewportSize(PHONE);
    const res = await client.page.goto(url);
    expect(res?.status()).toBe(200);
    expect((await client.context.cookies()).length).toBe(0);
    const photoCard = client.page.locator(`#review-${photos}`);
    const imgs = photoCard.locator("img.review-thumb");
    expect(await imgs.count()).toBe(2);
    expect(await imgs.evaluateAll((els) => els.map((e) => e.getAttribute("alt")))).toEqual([
      "A sourdough loaf",
      "The crumb, up close",
    ]);
    // Polled from here, not with waitForFunction: the page's CSP forbids the eval its polling takes once the first
    // reading is false.
    const loaded = () =>
      imgs.evaluateAll((els) =>
        (els as unknown as { complete: boolean; naturalWidth: number }[]).every(
          (i) => i.complete && i.naturalWidth > 0,
        ),
      );
    for (let i = 0; i < 300 && !(await loaded()); i++) await Bun.sleep(50);
    expect(await loaded()).toBe(true);
    // The thumbnail is the library's: at most 320 pixels a side, keeping the shape.
    expect(
      await client.page.evaluate(
        `(() => { const i = document.querySelector("#review-${photos} img.review-thumb"); return [i.naturalWidth, i.naturalHeight]; })()`,
      ),
    ).toEqual([320, 240]);
    // The video's first frame is the poster: the browser has the frame itself (HAVE_CURRENT_DATA), not only the
    // index.
    const player = client.page.locator(`#review-${video} video.review-thumb`);
    expect(await player.getAttribute("aria-label")).toBe("Shaping the dough");
    expect(await player.getAttribute("preload")).toBe("metadata");
    const frame = () =>
      player.evaluate((el) => {
        const v = el as unknown as {
          error: { code: number } | null;
          readyState: number;
          videoWidth: number;
          videoHeight: number;
        };
        if (v.error) return { error: v.error.code };
        return v.readyState >= 2 ? { width: v.videoWidth, height: v.videoHeight } : null;
      });
    for (let i = 0; i < 300 && (await frame()) === null; i++) await Bun.sleep(50);
    expect(await frame()).toEqual({ width: 320, height: 240 });
    await shot(client.page, `review-link-pictures-${dialect}`);
    expect(client.errors).toEqual([]);

    // What the routes answer: never indexed, inert on their own, no cookie; ranges for the video.
    const base = new URL(url).pathname;
    const thumb = await client.context.request.get(`${base}/media/${loaf}/thumb`);
    expect(thumb.status()).toBe(200);
    expect(thumb.headers()["content-type"]).toBe("image/webp");
    expect(thumb.headers()["x-robots-tag"]).toBe("noindex, nofollow");
    expect(thumb.headers()["content-security-policy"]).toBe("sandbox; default-src 'none'");
    expect(thumb.headers()["set-cookie"]).toBeUndefined();
    const part = await client.context.request.get(`${base}/media/${clip}/video`, {
      headers: { range: "bytes=0-99" },
    });
    expect([part.status(), part.headers()["content-range"]?.startsWith("bytes 0-99/")]).toEqual([206, true]);
    expect((await part.body()).byteLength).toBe(100);
    const status = async (path: string) => (await client.context.request.get(path)).status();
    // A file on no pending post of the link's brand, a video asked as a thumbnail's image, a made-up ID, another
    // token: 404 each.
    expect(await status(`${base}/media/${stray}/thumb`)).toBe(404);
    expect(await status(`${base}/media/${loaf}/video`)).toBe(404);
    expect(await status(`${base}/media/media_00000000000000000000000000/thumb`)).toBe(404);
    expect(await status(`/review/svc_review_${"A".repeat(32)}/media/${loaf}/thumb`)).toBe(404);
    const otherFile = await upload(svc.t, shop, {
      brand: other.body.id,
      file: { bytes: await jpeg(100, 100), name: "o.jpg", type: "image/jpeg" },
    });
    expect(otherFile.status).toBe(201);
    expect(await status(`${base}/media/${otherFile.body.id}/thumb`)).toBe(404);

    // Decided, the post leaves the page, and its files with it.
    await photoCard.getByRole("button", { name: "Approve" }).click();
    expect(await client.page.locator("#flash").innerText()).toBe("Approved. Thank you.");
    expect(await status(`${base}/media/${loaf}/thumb`)).toBe(404);
    expect(await status(`${base}/media/${clip}/thumb`)).toBe(404);
    expect(await status(`${base}/media/${clip}/video`)).toBe(200);
    // Withdrawn, the link shows nothing at all.
    await svc.t.app.db
      .updateTable("review_links")
      .set({ withdrawn_at: Date.now() })
      .where("id", "=", link.body.id)
      .execute();
    expect(await status(`${base}/media/${clip}/video`)).toBe(404);
    expect(client.dialogs).toEqual([]);
    await client.context.close();
  });
});
