// Channels, brands, media and templates end to end in headless Chromium against a listening svc: one full flow
// (create a brand, connect a sandbox channel to it, drop an image on the media library with its progress, write
// a post in the composer with that image and schedule it), and a file dropped on the composer uploaded in place
// and attached, with the preview following; then a post from a template's data form. No page opens a dialog
// (markup typed is text) or logs an error.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { key } from "../helpers/factories.ts";
import { png } from "../helpers/media.ts";
import { type LiveSvc, launchChromium, liveSvc, person, shot, signIn } from "./browser.ts";

const MARK = `<img src=x onerror=alert('xss')><b>bold</b>`;
/**
 * Leaving a page aborts a preview (or a post page's poll) still on its way, which htmx reports as an error event
 * (as in composer.test.ts); nothing else may reach the console.
 */
const logged = (errors: string[]) => errors.filter((e) => !/^htmx:(afterRequest|sendAbort)/.test(e));

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Drops a file on an element as a person dragging it from their desktop would. */
async function dropFile(page: Page, selector: string, bytes: Uint8Array, name: string, type: string) {
  // A string, as the browser runs it: the test's own types have no DOM.
  const dataTransfer = await page.evaluateHandle(`(() => {
    const bin = atob(${JSON.stringify(Buffer.from(bytes).toString("base64"))});
    const arr = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([arr], ${JSON.stringify(name)}, { type: ${JSON.stringify(type)} }));
    return dt;
  })()`);
  await page.dispatchEvent(selector, "dragenter", { dataTransfer });
  await page.dispatchEvent(selector, "drop", { dataTransfer });
}

describeEachDialect("channels, brands, media and templates in Chromium", (dialect) => {
  let svc: LiveSvc;
  beforeAll(async () => {
    svc = await liveSvc(dialect);
  });
  afterAll(() => svc.close());

  test("create a brand, connect a sandbox channel, drop an image in the library, compose with it", async () => {
    const email = `flow-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const b = await bootstrap(svc.t.app, { email, org: "Flow Org", brand: "First Brand" });
    const { page, dialogs, errors } = await person(browser, svc);
    await signIn(page, email, b.password!);

    // A brand, with markup in its name.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Brands" }).click();
    await page.waitForURL("**/brands");
    await page.locator("#brand-create #f-name").fill(`Harbour ${MARK}`);
    await page.locator("#brand-create #f-timezone").fill("Europe/Lisbon");
    await page.locator("#brand-create-submit").click();
    await page.waitForURL(/\/brands\/brand_/);
    expect(await page.locator("h1").innerText()).toBe(`Harbour ${MARK}`);
    const brandId = page.url().split("/").pop()!;
    await page.locator("#slot-saturday").fill("10:30");
    await page.locator("#brand-save").click();
    await page.waitForURL(/\/brands\/brand_/);
    expect(await page.locator("#flash").innerText()).toContain("Brand saved.");
    await shot(page, "brand-edit");

    // A sandbox channel for it.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Channels" }).click();
    await page.locator("#c-sandbox-brand").selectOption(brandId);
    await page.locator("#c-sandbox-emulates").selectOption("mastodon");
    await page.locator("#c-sandbox-fields-display_name").fill("Harbour on Mastodon");
    await page.locator("#connect-sandbox-submit").click();
    await page.waitForURL("**/channels");
    const card = page.locator(".chan", { hasText: "Harbour on Mastodon" });
    await expect(card.locator(".tag.net").innerText()).resolves.toContain("emulates Mastodon");
    await shot(page, "channels");

    // An image dropped on the library: each file shows its progress, then the grid has it.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Media" }).click();
    await page.locator("#up-brand").selectOption(brandId);
    await dropFile(page, "#library-drop", await png(640, 480), "harbour.png", "image/png");
    await page.waitForSelector(".media-card");
    expect(await page.locator(".media-card").count()).toBe(1);
    const img = page.locator(".media-card .thumb img");
    await img.waitFor();
    let width = 0;
    for (let i = 0; i < 50 && !width; i++) {
      width = Number(await page.evaluate(`document.querySelector(".media-card .thumb img").naturalWidth`));
      if (!width) await Bun.sleep(100);
    }
    expect(width).toBe(320);
    await page.locator(".alt-form textarea").fill(`The harbour ${MARK}`);
    await page.locator(".alt-form button").click();
    await page.waitForSelector("#flash");
    expect(await page.locator(".alt-form textarea").inputValue()).toBe(`The harbour ${MARK}`);
    await shot(page, "media");

    // Compose with it: the channel of the new brand, the image from the library, the next free slot.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "New post" }).click();
    await page.locator("label.chip", { hasText: "Harbour on Mastodon" }).locator("input").check();
    await page.locator("#f-body").fill("Boats are back in the harbour.");
    await page.locator("details.media-picker summary").click();
    await page.locator('#compose-media input[name="media"]').check();
    await page.waitForSelector(".preview .fit-ok");
    await page.waitForLoadState("networkidle");
    await page.locator("#schedule-post").click();
    await page.waitForURL(/\/posts\/post_/);
    const post = (
      await svc.t.app.db.selectFrom("posts").selectAll().where("brand_id", "=", brandId).execute()
    )[0]!;
    expect(post.status).toBe("scheduled");
    const media = await svc.t.app.db
      .selectFrom("post_media")
      .selectAll()
      .where("post_id", "=", post.id)
      .execute();
    expect(media.length).toBe(1);
    expect(dialogs).toEqual([]);
    expect(logged(errors)).toEqual([]);
  });

  test("a file dropped on the composer uploads in place, is attached, and the preview follows", async () => {
    const email = `drop-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const b = await bootstrap(svc.t.app, { email, org: "Drop Org", brand: "Drop Brand" });
    const { page, dialogs, errors } = await person(browser, svc);
    await signIn(page, email, b.password!);
    await page.goto("/posts/new");
    await page.locator('input[name="channels"]').first().check();
    await page.locator("#f-body").fill("A picture from today.");
    await page.locator("details.media-picker summary").click();
    expect(await page.locator("#compose-drop").isVisible()).toBe(true);
    // The preview is asked again with the new medium attached.
    const asked = page.waitForRequest(
      (r) => r.url().endsWith("/posts/preview") && /media=media_/.test(r.postData() ?? ""),
    );
    await dropFile(page, "#compose-drop", await png(800, 600), "today.png", "image/png");
    await page.waitForSelector("#compose-drop .uploads li.done");
    expect(await page.locator("#compose-drop .uploads li.done").innerText()).toContain("today.png");
    const box = page.locator('#compose-media input[name="media"]');
    expect(await box.count()).toBe(1);
    expect(await box.isChecked()).toBe(true);
    const stored = await svc.t.app.db
      .selectFrom("media")
      .selectAll()
      .where("org_id", "=", b.org.id)
      .execute();
    expect(stored.length).toBe(1);
    expect(await box.getAttribute("value")).toBe(stored[0]!.id);
    expect((await asked).postData()).toContain(`media=${stored[0]!.id}`);
    await page.waitForLoadState("networkidle");
    await shot(page, "composer-dropped");

    // A file that is not an image is refused beside it, with the code.
    await dropFile(page, "#compose-drop", new TextEncoder().encode("just text"), "notes.txt", "text/plain");
    await page.waitForSelector("#compose-drop .uploads li.error");
    expect(await page.locator("#compose-drop .uploads li.error").innerText()).toContain(
      "media_type_unsupported",
    );
    await page.waitForLoadState("networkidle");
    await page.locator("#schedule-post").click();
    await page.waitForURL(/\/posts\/post_/);
    const post = (
      await svc.t.app.db.selectFrom("posts").selectAll().where("org_id", "=", b.org.id).execute()
    )[0]!;
    const media = await svc.t.app.db
      .selectFrom("post_media")
      .selectAll()
      .where("post_id", "=", post.id)
      .execute();
    expect(media.map((m) => m.media_id)).toEqual([stored[0]!.id]);
    expect(dialogs).toEqual([]);
    // The refused text file's 422 is the one error the browser logs.
    expect(logged(errors)).toEqual([
      "Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)",
    ]);
  });

  test("a post from a template: choosing it swaps the text for its data form, the preview renders the data", async () => {
    const email = `tpl-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const b = await bootstrap(svc.t.app, { email, org: "Template Org", brand: "Roastery" });
    const k = await key(svc.t.app, b.org.id, { name: "setup" });
    const tpl = await svc.t.request("POST", "/v1/templates", {
      key: k,
      body: {
        brand: b.brand.id,
        key: "roast",
        name: "Roast of the week",
        body: "This week: {{.roast}}, {{.cups}} cups.",
        variables: {
          type: "object",
          properties: { roast: { type: "string" }, cups: { type: "integer" } },
          required: ["roast", "cups"],
        },
        examples: [{ roast: "Finca", cups: 10 }],
      },
    });
    expect(tpl.status).toBe(201);
    const { page, dialogs, errors } = await person(browser, svc);
    await signIn(page, email, b.password!);
    await page.goto("/posts/new");
    await page.locator('input[name="channels"]').first().check();
    await page.locator("#f-template").selectOption(tpl.body.id);
    await page.waitForSelector("#data-roast");
    expect(await page.locator("#f-body").count()).toBe(0);
    await page.locator("#data-roast").fill(`Geisha ${MARK}`);
    await page.locator("#data-cups").fill("40");
    await page.locator("#data-cups").dispatchEvent("change");
    await page.locator("#preview", { hasText: "40 cups" }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(await page.locator("#preview .part-text").first().innerText()).toBe(
      `This week: Geisha ${MARK}, 40 cups.`,
    );
    await page.locator("#schedule-post").click();
    await page.waitForURL(/\/posts\/post_/);
    expect(dialogs).toEqual([]);
    expect(logged(errors)).toEqual([]);
  });
});
