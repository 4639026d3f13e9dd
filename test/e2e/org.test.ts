// The Org page end to end in headless Chromium: the sign-in page links to SVC_SIGNUP_URL; an owner opens Org from
// the navigation, sees usage against limits, follows Billing to a billing receiver (a local server that checks the
// token as the specification says a receiver must), and deletes the org with password and name. Markup in the
// org's name is text (no dialog opens); no console errors (CSP included).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Browser } from "playwright-core";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type LiveSvc, launchChromium, liveSvc, person, shot, signIn } from "./browser.ts";

const KEY = "e2e-billing-link-key-0123456789abcdef";
const ORG = `<img src=x onerror=alert('org')><b>Bakery</b>`;

/** A billing page: accepts a valid, unexpired token once (HMAC-SHA256 over "v1."+payload, constant time). */
function billingReceiver() {
  const used = new Set<string>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const token = new URL(req.url).searchParams.get("token") ?? "";
      const [v, payload, sig] = token.split(".");
      const refuse = (why: string) => new Response(`refused: ${why}`, { status: 403 });
      if (v !== "v1" || !payload || !sig) return refuse("format");
      const want = createHmac("sha256", KEY).update(`v1.${payload}`).digest();
      const got = Buffer.from(sig, "base64url");
      if (got.length !== want.length || !timingSafeEqual(got, want)) return refuse("signature");
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
      if (claims.exp <= Date.now() / 1000) return refuse("expired");
      if (used.has(token)) return refuse("replayed");
      used.add(token);
      return new Response(`accepted ${claims.org} ${claims.role}`, {
        headers: { "Content-Type": "text/plain" },
      });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/portal`, stop: () => server.stop(true) };
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describeEachDialect("Org page in Chromium", (dialect) => {
  let svc: LiveSvc;
  let billing: ReturnType<typeof billingReceiver>;
  beforeAll(async () => {
    billing = billingReceiver();
    svc = await liveSvc(dialect, {
      SVC_BILLING_URL: billing.url,
      SVC_BILLING_LINK_KEY: KEY,
      SVC_SIGNUP_URL: "https://signup.example.com/start",
    });
  });
  afterAll(async () => {
    await svc.close();
    billing.stop();
  });

  test("sign-up link; usage against limits; Billing reaches the billing page; delete with password and name", async () => {
    const email = `owner-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const b = await bootstrap(svc.t.app, { email, org: ORG, brand: "Bakery Brand" });
    await svc.t.app.db
      .updateTable("orgs")
      .set({ limit_brands: 2, limit_posts_per_month: 100 })
      .where("id", "=", b.org.id)
      .execute();
    const { page, dialogs, errors, context } = await person(browser, svc);
    await page.goto("/signin");
    expect(await page.getByRole("link", { name: "Create an account" }).getAttribute("href")).toBe(
      "https://signup.example.com/start",
    );
    await signIn(page, email, b.password!);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Org" }).click();
    await page.waitForURL("**/org");
    expect(await page.locator("#org-page-name").innerText()).toBe(ORG);
    expect(await page.locator("#usage-brands").innerText()).toBe("1 of 2");
    expect(await page.locator("#usage-live-posts").innerText()).toBe("0 of 100");
    expect(await page.locator("#usage-members").innerText()).toBe("1 (no limit)");
    await shot(page, `org-${dialect}`);

    await page.getByRole("link", { name: "Billing" }).click();
    await page.waitForURL(`${billing.url}?token=*`);
    expect(await page.locator("body").innerText()).toBe(`accepted ${b.org.id} owner`);
    await page.goBack();
    await page.waitForURL("**/org");

    await page.getByLabel("Your password").fill(b.password!);
    await page.getByLabel("Type the org's name to confirm").fill("wrong name");
    await page.getByRole("button", { name: "Delete the org for good" }).click();
    expect(await page.locator("#f-confirm-error").innerText()).toContain("repeat the org's name");
    await page.getByLabel("Your password").fill(b.password!);
    await page.getByLabel("Type the org's name to confirm").fill(ORG);
    await page.getByRole("button", { name: "Delete the org for good" }).click();
    await page.waitForURL("**/org/deleted");
    expect(await page.locator("#org-deleted").innerText()).toContain("The org is deleted");
    const left = await svc.t.app.db.selectFrom("orgs").select("id").where("id", "=", b.org.id).execute();
    expect(left).toEqual([]);
    expect(dialogs).toEqual([]);
    // The wrong name above answered 422 on purpose; nothing else may fail (a CSP refusal, a missing file).
    expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
    await context.close();
  });
});
