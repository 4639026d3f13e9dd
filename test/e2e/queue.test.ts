// The queue end to end in headless Chromium: a brand's week in its zone with free slots and posts in them; moving
// a post onto a held slot shows slot_taken, onto a free slot moves it, two posts swap times, and a post that stopped being movable
// shows post_not_movable; a read-only org offers no move; markup is text.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { localParts } from "../../src/lib/zoned.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { key } from "../helpers/factories.ts";
import { type LiveSvc, launchChromium, liveSvc, person, shot, signIn } from "./browser.ts";

const MARK = (what: string) => `<img src=x onerror=alert('${what}')><b>${what}</b>`;
const TZ = "Europe/Lisbon";
const pad = (n: number) => String(n).padStart(2, "0");
/** The local date and datetime-local value of an instant in the brand's zone. */
function local(iso: string) {
  const p = localParts(Date.parse(iso), TZ);
  const date = `${p.year}-${pad(p.month)}-${pad(p.day)}`;
  return { date, input: `${date}T${pad(p.hour)}:${pad(p.minute)}` };
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describeEachDialect("queue in Chromium", (dialect) => {
  let svc: LiveSvc;
  beforeAll(async () => {
    svc = await liveSvc(dialect);
  });
  afterAll(() => svc.close());

  test("a week by slot; move onto a held slot (slot_taken), to a free slot, swap two, and a post no longer movable", async () => {
    const email = `queue-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const b = await bootstrap(svc.t.app, {
      email,
      org: "Queue Org",
      brand: "Northwind Coffee",
      timezone: TZ,
    });
    const k = await key(svc.t.app, b.org.id, { name: "setup" });
    // Every slot of a day, so the week of the first post holds all three posts and a free slot.
    await svc.t.request("POST", `/v1/brands/${b.brand.id}`, {
      key: k,
      body: {
        slots: ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].flatMap(
          (weekday) =>
            ["08:00", "10:00", "12:00", "14:00", "16:00", "18:00", "20:00", "22:00"].map((time) => ({
              weekday,
              time,
            })),
        ),
      },
    });
    const post = async (body: string) =>
      (
        await svc.t.request("POST", "/v1/posts", {
          key: k,
          body: { brand: b.brand.id, content: { body }, publish_at: "next_slot" },
        })
      ).body;
    const a = await post("Roasting day! Small batches go out this afternoon.");
    const held = await post("Latte art class on Saturday.");
    const c = await post(MARK("post"));

    const { page, dialogs, context } = await person(browser, svc);
    await signIn(page, email, b.password!);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Queue" }).click();
    await page.waitForURL("**/queue");
    await page.goto(`/queue?brand=${b.brand.id}&week=${local(a.publish_at).date}`);
    expect(await page.locator("#week-of").innerText()).toContain(`times in ${TZ}`);
    expect(await page.locator(`#cal-${a.id} .cal-time`).innerText()).toBe(
      local(a.publish_at).input.slice(11),
    );
    expect(await page.locator(`#cal-${c.id} .post-text`).innerText()).toBe(MARK("post"));
    expect(await page.locator(".cal-free").count()).toBeGreaterThan(0);
    await shot(page, `queue-${dialect}`);

    // One move form for the page, not one per card: each Move link opens it, set for its post.
    expect(await page.locator("#move-dialog").count()).toBe(1);
    expect(await page.locator("form#move-form").count()).toBe(1);
    const dialog = page.locator("#move-dialog");
    const moveOf = (id: string) => page.locator(`#cal-${id}`).getByRole("link", { name: "Move this post" });

    // Onto the slot the other post holds: refused, said plainly beside the post and in the form.
    await moveOf(a.id).click();
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.locator("#move-which").innerText()).toContain("Roasting day!");
    await dialog.getByLabel(/^Or a time/).fill(local(held.publish_at).input);
    await dialog.getByRole("button", { name: "Move here" }).click();
    expect(await page.locator(`#move-${a.id}-error`).innerText()).toContain("slot_taken");
    expect(await page.locator("#move-form-error").innerText()).toContain("slot_taken");
    expect(await page.locator("#move-form").getAttribute("action")).toBe(`/queue/${a.id}/move`);
    await shot(page, `queue-slot-taken-${dialect}`);

    // To a free slot of the week (the refused form is open again for the same post).
    const option = dialog.locator(`select[name="slot"] option:not([value=""])`).last();
    const target = (await option.getAttribute("value"))!;
    await dialog.getByLabel("To a free slot").selectOption(target);
    await dialog.getByRole("button", { name: "Move here" }).click();
    expect(await page.locator("#flash").innerText()).toBe("Post moved.");
    expect((await svc.t.request("GET", `/v1/posts/${a.id}`, { key: k })).body.publish_at).toBe(target);

    // Swap: the two posts trade times. The post itself is not offered as its own swap.
    const heldAt = (await svc.t.request("GET", `/v1/posts/${held.id}`, { key: k })).body.publish_at;
    await moveOf(held.id).click();
    expect(await dialog.locator(`select[name="swap_with"] option[value="${held.id}"]`).isDisabled()).toBe(
      true,
    );
    await dialog.getByLabel("Or swap times with").selectOption(a.id);
    await dialog.getByRole("button", { name: "Move here" }).click();
    expect(await page.locator("#flash").innerText()).toBe("The two posts traded times.");
    const [a2, held2] = await Promise.all(
      [a.id, held.id].map(
        async (id) => (await svc.t.request("GET", `/v1/posts/${id}`, { key: k })).body.publish_at,
      ),
    );
    expect([a2, held2]).toEqual([heldAt, target]);

    // A post canceled meanwhile (on another screen) is no longer movable.
    await moveOf(c.id).click();
    expect((await svc.t.request("POST", `/v1/posts/${c.id}/cancel`, { key: k })).status).toBe(200);
    await dialog.getByLabel(/^Or a time/).fill(local(target).input.replace(/T\d\d/, "T23"));
    await dialog.getByRole("button", { name: "Move here" }).click();
    expect(await page.locator(`#move-${c.id}-error`).innerText()).toContain("post_not_movable");

    // Escape closes the dialog; nothing moved.
    await page.keyboard.press("Escape");
    expect(await dialog.isVisible()).toBe(false);

    // Read-only: nothing offers a move.
    await svc.t.app.db.updateTable("orgs").set({ status: "read_only" }).where("id", "=", b.org.id).execute();
    await page.reload();
    expect(await page.locator("a.move-link").count()).toBe(0);
    expect(await page.locator("#move-dialog").count()).toBe(0);
    expect(await page.locator("main img, main b").count()).toBe(0);
    expect(dialogs).toEqual([]);
    await context.close();
  });

  test("without JavaScript a Move link opens the page with the one form set for that post, and moves it", async () => {
    const email = `queue-nojs-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const b = await bootstrap(svc.t.app, {
      email,
      org: "Queue NoJS",
      brand: "Northwind Roastery",
      timezone: TZ,
    });
    const k = await key(svc.t.app, b.org.id, { name: "setup" });
    const created = await svc.t.request("POST", "/v1/posts", {
      key: k,
      body: { brand: b.brand.id, content: { body: "Cold brew is back." }, publish_at: "next_slot" },
    });
    const p = created.body;
    const context = await browser.newContext({
      baseURL: svc.url,
      javaScriptEnabled: false,
      extraHTTPHeaders: { "x-client-ip": "203.0.113.251" },
    });
    const page = await context.newPage();
    await signIn(page, email, b.password!);
    await page.goto(`/queue?brand=${b.brand.id}&week=${local(p.publish_at).date}`);
    await page.locator(`#cal-${p.id}`).getByRole("link", { name: "Move this post" }).click();
    expect(new URL(page.url()).searchParams.get("move")).toBe(p.id);
    expect(await page.locator("#move-form").getAttribute("action")).toBe(`/queue/${p.id}/move`);
    const at = local(p.publish_at).input.replace(/T\d\d:\d\d/, "T23:30");
    await page
      .locator("#move-dialog")
      .getByLabel(/^Or a time/)
      .fill(at);
    await page.locator("#move-dialog").getByRole("button", { name: "Move here" }).click();
    expect(await page.locator("#flash").innerText()).toBe("Post moved.");
    const moved = (await svc.t.request("GET", `/v1/posts/${p.id}`, { key: k })).body.publish_at;
    expect(local(moved).input).toBe(at);
    await context.close();
  });
});
