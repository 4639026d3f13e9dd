// Newsletters end to end in headless Chromium, at desktop (1280) and phone (390) widths: connect a sandbox mail
// account and set the postal address from the mail-accounts page, write an issue whose subject and body carry
// markup, see the email in the sandboxed preview frames (htmx refreshes it as one types; the frames run nothing),
// save it, schedule it in the brand's zone, and find it scheduled in the list. No dialog ever opens (the markup
// stays text) and the page logs no error (no CSP refusal).
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type LiveSvc, launchChromium, liveSvc, person, shot, signIn } from "./browser.ts";

const MARK = `<img src=x onerror=alert('nl')><script>alert('nl')</script>`;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describeEachDialect("newsletters in Chromium", (dialect) => {
  let svc: LiveSvc;
  beforeAll(async () => {
    svc = await liveSvc(dialect);
  });
  afterAll(() => svc.close());

  for (const [label, width] of [
    ["desktop", 1280],
    ["phone", 390],
  ] as const) {
    test(`connect, write, preview, save and schedule an issue (${label})`, async () => {
      const email = `nl-${label}-${Math.random().toString(36).slice(2, 8)}@example.com`;
      const b = await bootstrap(svc.t.app, { email, org: "News Org", brand: "Northwind Coffee" });
      const { context, page, dialogs, errors } = await person(browser, svc);
      await page.setViewportSize({ width, height: 900 });
      await signIn(page, email, b.password!);

      await page.goto("/mail-accounts");
      await page.getByRole("textbox", { name: /Account name/ }).fill("northwind");
      await page.getByLabel("From name").fill("Northwind News");
      await page.getByLabel("From address").fill("news@northwind.example");
      await page.getByLabel("Default audiences (optional)").fill("everyone");
      await page.getByRole("button", { name: "Connect" }).click();
      await page.waitForLoadState();
      expect(await page.locator("#mail-accounts li").count()).toBe(1);
      await page.getByLabel("Postal address").fill("Northwind Ltd\n1 Harbour Road");
      await page.getByRole("button", { name: "Save theme" }).click();
      await page.waitForLoadState();
      expect(await page.getByLabel("Postal address").inputValue()).toContain("1 Harbour Road");
      if (label === "desktop") await shot(page, `newsletters-mail-accounts-${label}-${dialect}`);

      await page.goto("/newsletters");
      await page.getByRole("link", { name: "New issue" }).click();
      await page.waitForURL("**/newsletters/new");
      await page.getByLabel("Subject").fill(`Spring news ${MARK}`);
      await page
        .getByLabel("Body (Markdown)")
        .fill(`# Beans are back\n\n${MARK}\n\nRead [the post](https://northwind.example/blog).`);
      const refreshed = page.waitForResponse((r) => r.url().endsWith("/newsletters/preview"));
      await page.locator('input[name="deliver"]').check();
      await refreshed; // the debounced refresh after the last change
      // htmx refreshes the preview as one types: the frames fill without a submit.
      const desktopFrame = page.frameLocator("#preview-desktop");
      await desktopFrame.getByRole("heading", { name: "Beans are back" }).waitFor();
      await page.frameLocator("#preview-phone").getByText("1 Harbour Road").waitFor();
      // The markup in the body reached the email as text, in a frame that may run nothing.
      await desktopFrame.getByText("<script>alert('nl')</script>", { exact: false }).first().waitFor();
      expect(await page.locator("#preview-desktop").getAttribute("sandbox")).toBe("");
      await shot(page, `newsletters-editor-${label}-${dialect}`);

      await page.getByRole("button", { name: "Save draft" }).click();
      await page.waitForURL(/\/newsletters\/nl_/);
      expect(await page.locator("#issue-summary").textContent()).toContain("Draft");
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain(`Spring news ${MARK}`);

      // A week ahead, 09:00 in the brand's zone.
      const day = new Date(Date.now() + 7 * 86400_000).toISOString().slice(0, 10);
      await page.getByLabel(/Send at/).fill(`${day}T09:00`);
      await page.getByRole("button", { name: "Schedule" }).click();
      await page.waitForLoadState();
      expect(await page.locator("#issue-summary").textContent()).toContain("Scheduled");
      expect(await page.locator("#timeline").textContent()).toContain("newsletter.schedule");
      // The saved issue's page shows its email too, from the stored content.
      await page.frameLocator("#preview-desktop").getByRole("heading", { name: "Beans are back" }).waitFor();
      await shot(page, `newsletters-issue-${label}-${dialect}`);
      const overflow = await page.evaluate("document.documentElement.scrollWidth - window.innerWidth");
      expect(overflow).toBe(0);

      await page.goto("/newsletters?status=scheduled");
      expect(await page.locator("#issues li").count()).toBe(1);
      expect(await page.locator("#issues").textContent()).toContain("09:00");
      await shot(page, `newsletters-list-${label}-${dialect}`);

      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    }, 60_000);
  }
});
