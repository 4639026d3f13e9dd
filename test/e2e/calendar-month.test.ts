// The calendar's month end to end in headless Chromium: posts sit on their days in the brand's zone with free slots
// counted; dragging a post onto a day where its time of day is held shows slot_taken and moves nothing; dragging
// it onto a free day moves it there at the same time; markup in a post is text; a viewer gets nothing to drag.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { localParts, zonedToUtc } from "../../src/lib/zoned.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { key, member } from "../helpers/factories.ts";
import { type LiveSvc, launchChromium, liveSvc, person, shot, signIn } from "./browser.ts";

const MARK = `<img src=x onerror=alert('month')><b>month</b>`;
const TZ = "Europe/Lisbon";
const pad = (n: number) => String(n).padStart(2, "0");

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describeEachDialect("calendar month in Chromium", (dialect) => {
  let svc: LiveSvc;
  beforeAll(async () => {
    svc = await liveSvc(dialect);
  });
  afterAll(() => svc.close());

  test("posts on their days; drag onto a held time shows slot_taken, onto a free day moves it", async () => {
    const email = `month-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const b = await bootstrap(svc.t.app, {
      email,
      org: "Month Org",
      brand: "Northwind Coffee",
      timezone: TZ,
    });
    const k = await key(svc.t.app, b.org.id, { name: "setup" });
    await svc.t.request("POST", `/v1/brands/${b.brand.id}`, {
      key: k,
      body: {
        slots: ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map(
          (weekday) => ({
            weekday,
            time: "10:00",
          }),
        ),
      },
    });
    // Next month in the brand's zone: every day of it is ahead.
    const now = localParts(Date.now(), TZ);
    const [y, m] = now.month === 12 ? [now.year + 1, 1] : [now.year, now.month + 1];
    const month = `${y}-${pad(m)}`;
    const at = (day: number) => new Date(zonedToUtc(y, m, day, 10, 0, TZ)).toISOString();
    const post = async (body: string, day: number) => {
      const r = await svc.t.request("POST", "/v1/posts", {
        key: k,
        body: { brand: b.brand.id, content: { body }, publish_at: at(day) },
      });
      expect(r.status).toBe(201);
      return r.body;
    };
    const a = await post("Roasting day! Small batches go out this afternoon.", 10);
    const held = await post(MARK, 12);

    const { page, dialogs, context } = await person(browser, svc);
    // Tall enough that both days of a drag are on screen (a drag does not scroll the page).
    await page.setViewportSize({ width: 1280, height: 1300 });
    await signIn(page, email, b.password!);
    await page.goto(`/queue?brand=${b.brand.id}`);
    await page
      .getByRole("navigation", { name: "Calendar view" })
      .getByRole("link", { name: "Month" })
      .click();
    await page.waitForURL("**view=month**");
    await page.goto(`/queue?view=month&brand=${b.brand.id}&month=${month}`);
    const day10 = page.locator(`#day-${month}-10`);
    const day12 = page.locator(`#day-${month}-12`);
    const day15 = page.locator(`#day-${month}-15`);
    expect(await day10.locator(`#month-${a.id} .cal-time`).innerText()).toBe("10:00");
    expect(await day12.locator(`#month-${held.id} .month-text`).innerText()).toBe(MARK);
    expect(await day15.locator(".month-free").innerText()).toBe("1 free slot");
    expect(await day10.locator(".month-free").count()).toBe(0);
    await shot(page, `calendar-month-${dialect}`);

    // Onto the 12th: 10:00 there is held by the other post.
    await page.locator(`#month-${a.id}`).dragTo(day12);
    await page.waitForSelector("#month-problems");
    expect(await page.locator("#month-problems").innerText()).toContain("slot_taken");
    let got = await svc.t.request("GET", `/v1/posts/${a.id}`, { key: k });
    expect(got.body.publish_at).toBe(a.publish_at);

    // Onto the 15th: free, so it moves there at 10:00.
    await page.locator(`#month-${a.id}`).dragTo(page.locator(`#day-${month}-15`));
    await page.waitForSelector(`#day-${month}-15 #month-${a.id}`);
    expect(await page.locator("#flash, .alert.ok").first().innerText()).toContain("Post moved");
    got = await svc.t.request("GET", `/v1/posts/${a.id}`, { key: k });
    expect(got.body.publish_at).toBe(at(15));
    expect(await page.locator(`#day-${month}-15 .month-free`).count()).toBe(0);
    expect(await page.locator(`#day-${month}-10 .month-free`).innerText()).toBe("1 free slot");
    expect(dialogs).toEqual([]);
    await context.close();

    // A viewer sees the month but has nothing to drag.
    const viewerEmail = `viewer-${Math.random().toString(36).slice(2, 8)}@example.com`;
    await member(svc.t.app, b.org.id, viewerEmail, "viewer");
    const v = await person(browser, svc);
    await signIn(v.page, viewerEmail, "correct horse battery staple");
    await v.page.goto(`/queue?view=month&brand=${b.brand.id}&month=${month}`);
    expect(await v.page.locator(`#month-${a.id}`).count()).toBe(1);
    expect(await v.page.locator("[draggable=true]").count()).toBe(0);
    expect(await v.page.locator("#month-move").count()).toBe(0);
    await v.context.close();
  });
});
