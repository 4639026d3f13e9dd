// The API keys page in headless Chromium: at 1,280 px every action of every row (Roll with its overlap, Revoke) is
// in view without scrolling the table sideways, also with long scopes and a brand limit; at 390 px the actions stay
// within the screen. Revoking asks first: dismissing keeps the key, accepting revokes it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { INTEGRATION_SCOPES } from "../../src/domain/scopes.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { key } from "../helpers/factories.ts";
import { type LiveSvc, launchChromium, liveSvc, shot } from "./browser.ts";

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Buttons and selects of the key rows that are not wholly inside the viewport and the table's visible part. */
async function outOfView(page: Page): Promise<string[]> {
  return (await page.evaluate(`(() => {
    const wrap = document.querySelector("#keys").closest(".table-wrap").getBoundingClientRect();
    const right = Math.min(wrap.right, window.innerWidth);
    return [...document.querySelectorAll("#keys button, #keys select")]
      .filter((el) => { const r = el.getBoundingClientRect(); return r.left < wrap.left || r.right > right + 0.5; })
      .map((el) => el.getAttribute("aria-label") || el.id);
  })()`)) as string[];
}

describeEachDialect("API keys page in a browser", (dialect) => {
  let svc: LiveSvc;
  beforeAll(async () => {
    svc = await liveSvc(dialect);
  });
  afterAll(() => svc.close());

  for (const [label, viewport] of [
    ["1280", { width: 1280, height: 800 }],
    ["390", { width: 390, height: 844 }],
  ] as const)
    test(`every row action is in view at ${label} px; revoking asks first`, async () => {
      const email = `keys-${label}-${Math.random().toString(36).slice(2, 7)}@example.com`;
      const b = await bootstrap(svc.t.app, { email, org: "Keys Browser Org", brand: "Keys Browser Brand" });
      // Keys with every scope listed and a brand limit: the widest rows the table shows.
      for (const name of ["Reporting dashboard for the marketing team", "Website"])
        await key(svc.t.app, b.org.id, { name, scopes: [...INTEGRATION_SCOPES], brand: b.brand.id });
      const context = await browser.newContext({
        baseURL: svc.url,
        viewport,
        extraHTTPHeaders: { "x-client-ip": label === "390" ? "192.0.2.20" : "192.0.2.21" },
      });
      const page = await context.newPage();
      await page.goto("/signin");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password", { exact: true }).fill(b.password!);
      await page.keyboard.press("Enter");
      await page.waitForURL("**/home");
      await page.goto("/api-keys");
      expect(await outOfView(page)).toEqual([]);
      // Signing in just now confirmed the password: Roll is offered beside Revoke.
      expect(await page.getByRole("button", { name: "Roll key Website" }).count()).toBe(1);
      await shot(page, `api-keys-${label}-${dialect}`);

      // Dismissing the question sends nothing.
      const asked: string[] = [];
      page.once("dialog", (d) => {
        asked.push(d.message());
        void d.dismiss();
      });
      await page.getByRole("button", { name: "Revoke key Website" }).click();
      await page.waitForTimeout(200);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatch(
        /^Revoke the key “Website” \(…\w+\)\? Whatever uses it stops working at once\.$/,
      );
      expect(page.url()).toEndWith("/api-keys");
      expect(await page.getByRole("button", { name: "Revoke key Website" }).count()).toBe(1);

      // Accepting revokes it.
      page.once("dialog", (d) => void d.accept());
      await page.getByRole("button", { name: "Revoke key Website" }).click();
      await page.locator("#flash").waitFor();
      expect(await page.locator("#flash").textContent()).toContain("API key revoked");
      expect(await page.getByRole("button", { name: "Revoke key Website" }).count()).toBe(0);
      await context.close();
    });
});
