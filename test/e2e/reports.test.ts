// A report's share link in headless Chromium (Debian's package, driven by playwright-core), signed out: the page
// shows the brand's month with its SVG charts and top posts, markup people typed stays text (no dialog opens), the
// Content-Security-Policy refuses nothing the page needs, it is marked noindex, and in print only the report is
// left (it prints to a PDF). A withdrawn link shows the refusal. Screenshots go to screenshots/.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { lastMonth } from "../../src/domain/reports/period.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { seedPublished } from "../helpers/published.ts";
import { type LiveSvc, launchChromium, liveSvc, person } from "./browser.ts";

setDefaultTimeout(60_000);
const SHOTS = join(import.meta.dir, "../../screenshots");

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describeEachDialect("report share link in Chromium", (dialect) => {
  let svc: LiveSvc;
  let a: Tenant;
  beforeAll(async () => {
    svc = await liveSvc(dialect);
    a = await tenant(svc.t.app);
  });
  afterAll(async () => {
    await svc.close();
  });

  test("opened signed out: the month with charts, noindex, text stays text; prints to PDF; withdrawn it is refused", async () => {
    const month = lastMonth(Date.now(), "UTC");
    const day = (d: number, h: number) =>
      Date.parse(`${month}-${String(d).padStart(2, "0")}T${String(h).padStart(2, "0")}:00:00Z`);
    const items = [];
    for (let d = 1; d <= 28; d += 1)
      items.push({
        publishedAt: day(d, 9 + (d % 8)),
        provider: ["bluesky", "mastodon", "linkedin"][d % 3]!,
        text: d === 7 ? "<img src=x onerror=alert('xss')> Launch day" : `Post of day ${d}`,
        likes: 5 + ((d * 7) % 40),
        reposts: d % 6,
        replies: d % 4,
        quotes: d % 2,
        views: null,
      });
    await seedPublished(svc.t.app, { orgId: a.orgId, brandId: a.brandId, livemode: false }, items);
    const r = await svc.t.request("POST", "/v1/reports/share_links", {
      key: a.testKey,
      body: { brand: a.brandId, month },
    });
    expect(r.status).toBe(201);
    const { context, page, dialogs, errors } = await person(browser, svc);
    try {
      // No cookie of any kind: the link is the only permission.
      expect(await context.cookies()).toEqual([]);
      const res = await page.goto(r.body.url);
      expect(res!.status()).toBe(200);
      expect(res!.headers()["x-robots-tag"]).toContain("noindex");
      expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex");
      const brand = await svc.t.request("GET", `/v1/brands/${a.brandId}`, { key: a.testKey });
      expect(await page.locator("h1").textContent()).toContain(brand.body.name);
      expect(await page.locator("#report-kpis .kpi").count()).toBeGreaterThanOrEqual(4);
      expect(await page.locator("svg.chart").count()).toBeGreaterThanOrEqual(2);
      expect(await page.locator("svg.chart rect").count()).toBeGreaterThanOrEqual(28);
      const top = await page.locator("#section-top-posts").textContent();
      expect(top).toContain("Top posts");
      // The post with markup in it is shown as its text, if it is among the top ones; nothing ran either way.
      expect(await page.locator("#report img").count()).toBe(0);
      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, `report-shared-${dialect}.png`), fullPage: true });
      // In print: the report alone (no header, no note), and Chromium makes a PDF of it.
      await page.emulateMedia({ media: "print" });
      expect(await page.locator("header.top").isVisible()).toBe(false);
      expect(await page.locator("#shared-note").isVisible()).toBe(false);
      expect(await page.locator("#report").isVisible()).toBe(true);
      const pdf = await page.pdf({ format: "A4" });
      expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
      expect(pdf.length).toBeGreaterThan(10_000);
      await page.emulateMedia({ media: "screen" });

      const gone = await svc.t.request("DELETE", `/v1/reports/share_links/${r.body.id}`, { key: a.testKey });
      expect(gone.status).toBe(200);
      const after = await page.goto(r.body.url);
      expect(after!.status()).toBe(404);
      expect(await page.locator("#shared-invalid h1").textContent()).toBe("This report link does not work");
      expect(await page.locator("#report").count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
