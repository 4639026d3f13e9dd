// The approvals inbox end to end in headless Chromium: posts a key made under an approval policy wait; an admin
// sees each with its brand and the slot approving takes (the brand's next free slot, in its zone), approves one
// (it takes that slot), meets slots_full on a brand whose slots are all taken, and rejects with a note the
// author sees on the post's page; an editor sees what waits without the buttons; markup is text.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { whenIn } from "../../views/parts.tsx";
import { describeEachDialect } from "../helpers/db.ts";
import { key, member } from "../helpers/factories.ts";
import { type LiveSvc, launchChromium, liveSvc, person, shot, signIn } from "./browser.ts";

const MARK = (what: string) => `<img src=x onerror=alert('${what}')><b>${what}</b>`;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describeEachDialect("approvals in Chromium", (dialect) => {
  let svc: LiveSvc;
  beforeAll(async () => {
    svc = await liveSvc(dialect);
  });
  afterAll(() => svc.close());

  test("approve takes the next free slot; slots_full shown; reject with a note; an editor only looks", async () => {
    const email = `approver-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const b = await bootstrap(svc.t.app, {
      email,
      org: "Approvals Org",
      brand: "Northwind Coffee",
      timezone: "Europe/Lisbon",
    });
    const k = await key(svc.t.app, b.org.id, { name: "shop" });
    const api = async (method: string, path: string, body: unknown) =>
      svc.t.request(method, path, { key: k, body });
    expect(
      (await api("POST", `/v1/brands/${b.brand.id}`, { approval_policy: "required_for_editors_and_keys" }))
        .status,
    ).toBe(200);
    // A brand with one weekly slot, every instant of the next 56 days taken.
    const tiny = (
      await api("POST", "/v1/brands", {
        name: "Tiny Roastery",
        timezone: "America/New_York",
        slots: [{ weekday: "monday", time: "09:00" }],
      })
    ).body;
    const chan = (
      await api("POST", "/v1/channels", {
        brand: tiny.id,
        provider: "sandbox",
        emulates: "mastodon",
        fields: { display_name: "Tiny", handle: "@tiny@mastodon.social" },
      })
    ).body;
    for (let i = 0, status = 201; status === 201 && i < 12; i++)
      status = (
        await api("POST", "/v1/posts", {
          brand: tiny.id,
          content: { body: `Filler ${i}` },
          publish_at: "next_slot",
        })
      ).status;
    await api("POST", `/v1/brands/${tiny.id}`, { approval_policy: "required_for_all" });
    const first = await api("POST", "/v1/posts", {
      brand: b.brand.id,
      content: { body: "Autumn blend is back." },
      publish_at: "next_slot",
    });
    const full = await api("POST", "/v1/posts", {
      brand: tiny.id,
      channels: [chan.id],
      content: { body: MARK("waiting") },
      publish_at: "next_slot",
    });
    expect([first.body.status, full.body.status]).toEqual(["pending_approval", "pending_approval"]);

    const { page, dialogs, context } = await person(browser, svc);
    await signIn(page, email, b.password!);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Approvals" }).click();
    await page.waitForURL("**/approvals");
    expect(await page.locator("#approvals > li").count()).toBe(2);
    const slotText = await page.locator(`#slot-${first.body.id}`).innerText();
    expect(slotText).toMatch(/^Approving takes the next free slot: \d{4}-\d{2}-\d{2} \d{2}:\d{2} GMT/);
    expect(await page.locator(`#slot-${full.body.id}`).innerText()).toContain("none is free");
    expect(await page.locator(`#approval-${full.body.id} .post-text`).innerText()).toBe(MARK("waiting"));
    await shot(page, `approvals-${dialect}`);

    await page.locator(`#approval-${first.body.id}`).getByRole("button", { name: "Approve" }).click();
    expect(await page.locator("#flash").innerText()).toContain("Post approved");
    const approved = (await svc.t.request("GET", `/v1/posts/${first.body.id}`, { key: k })).body;
    expect(approved.status).toBe("scheduled");
    expect(slotText).toContain(whenIn(approved.publish_at, "Europe/Lisbon"));

    const card = page.locator(`#approval-${full.body.id}`);
    await card.getByRole("button", { name: "Approve" }).click();
    expect(await page.locator(`#approval-${full.body.id}-error`).innerText()).toContain("slots_full");
    expect((await svc.t.request("GET", `/v1/posts/${full.body.id}`, { key: k })).body.status).toBe(
      "pending_approval",
    );
    await shot(page, `approvals-slots-full-${dialect}`);
    await card.getByLabel("Note for the author (optional)").fill(MARK("note"));
    await card.getByRole("button", { name: "Reject" }).click();
    expect(await page.locator("#flash").innerText()).toBe("Post rejected.");
    expect(await page.locator("#approvals-empty").innerText()).toContain("Nothing waits for approval");
    await page.goto(`/posts/${full.body.id}`);
    expect(await page.locator("#post-status").innerText()).toBe("Rejected");
    expect(await page.locator("#post-summary").innerText()).toContain(MARK("note"));
    expect(await page.locator("main img, main b").count()).toBe(0);
    expect(dialogs).toEqual([]);
    await context.close();

    // An editor sees what waits, without the buttons.
    await api("POST", "/v1/posts", {
      brand: b.brand.id,
      content: { body: "For review." },
      publish_at: "next_slot",
    });
    const editorEmail = `editor-${Math.random().toString(36).slice(2, 8)}@example.com`;
    await member(svc.t.app, b.org.id, editorEmail, "editor");
    const ed = await person(browser, svc);
    await signIn(ed.page, editorEmail, "correct horse battery staple");
    await ed.page.goto("/approvals");
    expect(await ed.page.locator("#approvals > li").count()).toBe(1);
    expect(await ed.page.locator("#approvals-readonly").innerText()).toContain("Admins and owners approve");
    expect(await ed.page.getByRole("button", { name: "Approve" }).count()).toBe(0);
    await ed.context.close();
  });
});
