// The bell and the notifications list in headless Chromium: the bell shows the unread count on every page, the
// list marks one read (the bell drops by one without a reload) and all read; the preferences page saves; the
// pages are looked at (screenshots) at 1,280 and 390 px.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { recordEvent } from "../../src/domain/events/record.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type LiveSvc, launchChromium, liveSvc, shot } from "./browser.ts";

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describeEachDialect("notifications in a browser", (dialect) => {
  let svc: LiveSvc;
  beforeAll(async () => {
    svc = await liveSvc(dialect);
  });
  afterAll(() => svc.close());

  for (const [label, viewport] of [
    ["1280", { width: 1280, height: 800 }],
    ["390", { width: 390, height: 844 }],
  ] as const)
    test(`bell on every page, mark read, mark all read, preferences at ${label} px`, async () => {
      const email = `bell-${label}-${Math.random().toString(36).slice(2, 7)}@example.com`;
      const b = await bootstrap(svc.t.app, { email, org: "Northwind <Launch>", brand: "Northwind" });
      // Three live-mode channels lost their access: three notifications for the owner (a name with markup shows as text).
      for (const name of ["Mastodon <b>main</b>", "Bluesky", "LinkedIn company page"])
        await svc.t.app.db
          .transaction()
          .execute((tx) =>
            recordEvent(
              tx,
              svc.t.app,
              { orgId: b.org.id, livemode: true, requestId: null },
              "channel.needs_reauth",
              { id: `chan_${label}_${name.length}`, provider: "mastodon", display_name: name },
            ),
          );
      const context = await browser.newContext({
        baseURL: svc.url,
        viewport,
        extraHTTPHeaders: { "x-client-ip": label === "390" ? "192.0.2.30" : "192.0.2.31" },
      });
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.goto("/signin");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password", { exact: true }).fill(b.password!);
      await page.keyboard.press("Enter");
      await page.waitForURL("**/home");

      for (const path of ["/home", "/posts", "/members"]) {
        await page.goto(path);
        await expect(page.locator("#bell-count").textContent()).resolves.toBe("3");
        expect(await page.locator("#bell").getAttribute("aria-label")).toBe("Notifications, 3 unread");
      }
      await page.locator("#bell").click();
      await page.waitForURL("**/notifications");
      expect(await page.locator("li.note.unread").count()).toBe(3);
      expect(await page.locator("#notifications").textContent()).toContain(
        "Mastodon <b>main</b> must be connected again",
      );
      await shot(page, `notifications-list-${label}-${dialect}`);

      // Mark one read: htmx swaps the row and the bell, no reload.
      await page.getByRole("button", { name: /^Mark read: LinkedIn/ }).click();
      await page.locator("#bell-count", { hasText: /^2$/ }).waitFor();
      // The bell is swapped out of band, the row in the main swap: wait for both.
      await page.locator("li.note.unread").nth(2).waitFor({ state: "detached" });
      expect(await page.locator("#bell").getAttribute("aria-label")).toBe("Notifications, 2 unread");
      expect(await page.locator("li.note.unread").count()).toBe(2);

      await page.locator("#read-all").click();
      await page.waitForURL("**/notifications");
      expect(await page.locator("li.note.unread").count()).toBe(0);
      expect(await page.locator("#bell-count").count()).toBe(0);
      expect(await page.locator("#bell").getAttribute("aria-label")).toBe("Notifications, none unread");
      await page.goto("/notifications?unread=true");
      expect(await page.locator("#no-notifications").textContent()).toContain("all caught up");

      await page.goto("/notifications/preferences");
      await shot(page, `notifications-preferences-${label}-${dialect}`);
      await page.getByRole("checkbox", { name: "A channel must be connected again" }).uncheck();
      await page.getByLabel("When to email: Someone joined the org").selectOption("daily");
      await page.getByLabel("Your time zone").fill("Europe/Berlin");
      await page.locator("#save-preferences").click();
      await page.waitForURL("**/notifications/preferences");
      expect(await page.locator("#flash").textContent()).toContain("saved");
      expect(
        await page.getByRole("checkbox", { name: "A channel must be connected again" }).isChecked(),
      ).toBe(false);
      expect(await page.getByLabel("Your time zone").inputValue()).toBe("Europe/Berlin");
      await page.getByLabel("Your time zone").fill("Mars/Olympus");
      await page.locator("#save-preferences").click();
      expect(await page.locator("#f-timezone-error").textContent()).toContain("IANA");
      await shot(page, `notifications-preferences-error-${label}-${dialect}`);
      expect(dialogs).toEqual([]);
      await context.close();
    });
});
