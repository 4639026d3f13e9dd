// The frame's navigation in headless Chromium: at 1,280 px the grouped sidebar is shown and the Menu is not; at
// 390 px the sidebar gives way to a Menu button that opens the same groups, with JavaScript off too (a <details>),
// and the page reached is marked current; the reconnect banner shows on a page that is not Channels.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type LiveSvc, launchChromium, liveSvc, shot, signIn } from "./browser.ts";

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describeEachDialect("navigation in Chromium", (dialect) => {
  let svc: LiveSvc;
  beforeAll(async () => {
    svc = await liveSvc(dialect);
  });
  afterAll(() => svc.close());

  for (const js of [true, false])
    test(`sidebar at 1280 px, Menu at 390 px${js ? "" : " (JavaScript off)"}; current page marked`, async () => {
      const email = `nav-${Math.random().toString(36).slice(2, 8)}@example.com`;
      const b = await bootstrap(svc.t.app, { email, org: "Nav Org", brand: "Northwind Coffee" });
      const channel = await svc.t.app.db
        .selectFrom("channels")
        .select("id")
        .where("org_id", "=", b.org.id)
        .where("livemode", "=", 0)
        .executeTakeFirstOrThrow();
      await svc.t.app.db
        .updateTable("channels")
        .set({ status: "needs_reauth" })
        .where("id", "=", channel.id)
        .execute();
      const context = await browser.newContext({
        baseURL: svc.url,
        javaScriptEnabled: js,
        extraHTTPHeaders: { "x-client-ip": `203.0.113.${js ? 240 : 241}` },
        viewport: { width: 1280, height: 800 },
      });
      const page = await context.newPage();
      await signIn(page, email, b.password!);
      await page.goto("/posts");
      const main = page.getByRole("navigation", { name: "Main" });
      expect(await main.count()).toBe(1);
      expect(await page.locator(".side-nav").isVisible()).toBe(true);
      expect(await page.locator(".nav-menu").isVisible()).toBe(false);
      expect(await main.getByRole("link", { name: "Posts" }).getAttribute("aria-current")).toBe("page");
      expect(await page.locator("#reconnect-banner").innerText()).toContain("1 channel needs reconnecting");
      if (js) await shot(page, `nav-desktop-${dialect}`);

      await page.setViewportSize({ width: 390, height: 844 });
      expect(await page.locator(".side-nav").isVisible()).toBe(false);
      const menu = page.locator(".nav-menu > summary");
      expect(await menu.isVisible()).toBe(true);
      expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(0);
      await menu.click();
      const opened = page.getByRole("navigation", { name: "Main" });
      expect(await opened.getByRole("link", { name: "Queue" }).isVisible()).toBe(true);
      if (js) await shot(page, `nav-phone-menu-${dialect}`);
      await opened.getByRole("link", { name: "Queue" }).click();
      await page.waitForURL("**/queue");
      await menu.click();
      expect(
        await page
          .getByRole("navigation", { name: "Main" })
          .getByRole("link", { name: "Queue" })
          .getAttribute("aria-current"),
      ).toBe("page");
      // The opened Menu drops over the page; closed again, the page is reachable.
      await menu.click();
      expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(0);
      // The banner is the frame's: on the queue too, with the link to Channels.
      await page.locator("#reconnect-banner").getByRole("link").click();
      await page.waitForURL("**/channels");
      expect(await page.locator("#reconnect-banner").count()).toBe(0);
      expect(await page.locator("#reauth-banner").isVisible()).toBe(true);
      await context.close();
    });
});
