// The calendar's month in process: posts on their days in the brand's zone with free slots counted; a move from the
// month goes back to it, a refused one shows its code there; another org's brand and the other mode's posts never
// show; a bad month is refused beside nothing half-drawn; a cross-site move changes nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { FakeClock } from "../../../src/lib/clock.ts";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { tenant } from "../../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";
const MARKUP = `<img src=x onerror="alert(1)">&<b>`;

describeEachDialect("dashboard calendar month", (dialect) => {
  let t: TestApp;
  const clock = new FakeClock(Date.parse("2026-03-02T09:00:00Z"));
  beforeAll(async () => {
    t = await webApp(dialect, { clock });
  });
  afterAll(() => t.close());

  test("posts on their days, moves from the month, isolation by org and mode", async () => {
    const a = await tenant(t.app);
    const other = await tenant(t.app);
    // The default slots: Monday to Friday 09:00 and 13:00 UTC (the bootstrap brand's zone).
    const post = async (key: string, brand: string, body: string, at: string) => {
      const r = await t.request("POST", "/v1/posts", {
        key,
        body: { brand, content: { body }, publish_at: at },
      });
      if (r.status !== 201) throw new Error(JSON.stringify(r.body));
      return r.body;
    };
    const brand = (await t.request("GET", `/v1/brands/${a.brandId}`, { key: a.testKey })).body;
    const p1 = await post(a.testKey, a.brandId, MARKUP, "2026-03-10T09:00:00Z");
    const p2 = await post(a.testKey, a.brandId, "Second", "2026-03-12T09:00:00Z");
    const theirs = await post(other.testKey, other.brandId, "Theirs", "2026-03-11T13:00:00Z");

    // A busy day: its first four posts show, and how many more there are.
    for (const hour of ["10", "11", "14", "15", "16", "17"])
      await post(a.testKey, a.brandId, `Busy ${hour}`, `2026-03-18T${hour}:00:00Z`);
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const page = await b.get(`/queue?view=month&brand=${a.brandId}&month=2026-03`);
    expect(page.status).toBe(200);
    expect(page.html).toContain("March 2026");
    const day = (date: string) => {
      const i = page.html.indexOf(`id="day-${date}"`);
      return page.html.slice(i, page.html.indexOf('id="day-', i + 10));
    };
    expect(brand.timezone).toBe("UTC");
    expect(day("2026-03-10")).toContain(`id="month-${p1.id}"`);
    expect(day("2026-03-10")).toContain("1 free slot");
    expect(day("2026-03-14")).not.toContain("free slot");
    const busy = day("2026-03-18");
    expect(busy.match(/class="month-post /g)).toHaveLength(4);
    expect(busy).toContain("Busy 10");
    expect(busy).not.toContain("Busy 16");
    expect(busy).toContain(">2 more<");
    expect(page.html).not.toContain(MARKUP);
    expect(page.html).toContain("&lt;img src=x");
    expect(page.html).not.toContain(theirs.id);
    expect(page.html).toContain(`data-move="/queue/${p1.id}/move"`);
    // 2026-03 starts on a Sunday: the grid starts Monday 23 February and ends Sunday 5 April.
    expect(page.html).toContain('id="day-2026-02-23"');
    expect(page.html).toContain('id="day-2026-04-05"');
    expect(page.html).not.toContain('id="day-2026-04-06"');

    // A move from the month (what a drop sends) returns to the month; onto a held time, slot_taken.
    const taken = await b.post(`/queue/${p1.id}/move`, {
      brand: a.brandId,
      month: "2026-03",
      at: "2026-03-12T09:00",
    });
    expect(taken.status).toBe(409);
    expect(taken.html).toContain("slot_taken");
    expect(taken.html).toContain('id="month-problems"');
    const moved = await b.post(`/queue/${p1.id}/move`, {
      brand: a.brandId,
      month: "2026-03",
      at: "2026-03-16T09:00",
    });
    expect(moved.status).toBe(303);
    expect(moved.location).toBe(`/queue?view=month&brand=${a.brandId}&month=2026-03`);
    expect((await t.request("GET", `/v1/posts/${p1.id}`, { key: a.testKey })).body.publish_at).toBe(
      "2026-03-16T09:00:00.000Z",
    );
    const cross = await b.post(
      `/queue/${p2.id}/move`,
      { brand: a.brandId, month: "2026-03", at: "2026-03-17T09:00" },
      { site: "cross-site" },
    );
    expect(cross.status).toBe(403);
    expect((await t.request("GET", `/v1/posts/${p2.id}`, { key: a.testKey })).body.publish_at).toBe(
      p2.publish_at,
    );

    // Another org's brand and post are missing; a bad month is refused.
    expect((await b.get(`/queue?view=month&brand=${other.brandId}`)).status).toBe(404);
    const theirsMoved = await b.post(`/queue/${theirs.id}/move`, {
      brand: a.brandId,
      month: "2026-03",
      at: "2026-03-18T09:00",
    });
    expect(theirsMoved.status).toBe(404);
    const bad = await b.get(`/queue?view=month&brand=${a.brandId}&month=2026-13`);
    expect(bad.status).toBe(400);
    expect(bad.html).toContain("parameter_invalid");

    // In live mode the test posts do not show, and the slots they hold are free there.
    await b.post("/mode", { livemode: "true" });
    const livePage = await b.get(`/queue?view=month&brand=${a.brandId}&month=2026-03`);
    expect(livePage.status).toBe(200);
    expect(livePage.html).not.toContain(`id="month-${p2.id}"`);
    expect(livePage.html).not.toContain(`id="month-${p1.id}"`);
  });
});
