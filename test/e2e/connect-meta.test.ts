// Facebook Pages, Instagram and Threads connected from the dashboard in headless Chromium, as a person does it:
// the org's Meta app added on /connect (its redirect URI shown to copy), the network's button, Meta's Login dialog
// (the stand-in's, which signs in whoever the test names and sends the browser back), the accounts offered, the
// ones picked becoming channels. Meta's requests and answers are checked against its node descriptions; Threads'
// against its documentation.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { openSecrets } from "../../src/domain/channels/fields.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type MetaStandIn, startMeta } from "../stand-ins/meta.ts";
import { expectClean } from "../stand-ins/server.ts";
import { startThreads, type ThreadsStandIn } from "../stand-ins/threads.ts";
import { type LiveSvc, launchChromium, liveSvc, person, signIn } from "./browser.ts";

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const META = { clientId: "987654321", clientSecret: "meta-dashboard-secret" };
const THREADS = { clientId: "threads-dash", clientSecret: "threads-dash-secret" };

describeEachDialect("Meta networks connected from the dashboard", (dialect) => {
  let svc: LiveSvc;
  let meta: MetaStandIn;
  let threads: ThreadsStandIn;
  let page: Page;
  const visited: string[] = [];

  beforeAll(async () => {
    const noMedia = async () => new Response(null, { status: 404 });
    meta = startMeta({ fetchMedia: noMedia });
    threads = startThreads({ fetchMedia: noMedia });
    svc = await liveSvc(dialect, {
      SVC_PROVIDER_ORIGINS: [
        `facebook=${meta.url},facebook.auth=${meta.url},facebook.token=${meta.url}`,
        `instagram=${meta.url},instagram.auth=${meta.url},instagram.token=${meta.url}`,
        `threads=${threads.url},threads.auth=${threads.url},threads.token=${threads.url}`,
      ].join(","),
      SVC_ALLOW_PRIVATE_NETWORKS: "true",
    });
    for (const p of ["facebook", "instagram"])
      meta.registerApp(META.clientId, META.clientSecret, `${svc.url}/connect/${p}/callback`);
    threads.registerApp(THREADS.clientId, THREADS.clientSecret, `${svc.url}/connect/threads/callback`);
    const email = `meta-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const b = await bootstrap(svc.t.app, { email, org: "Meta Co", brand: "Meta Brand" });
    const p = await person(browser, svc);
    page = p.page;
    page.on("request", (r) => {
      if (r.isNavigationRequest()) visited.push(r.url());
    });
    await signIn(page, email, b.password!);
    await page.click("#mode-switch");
    await page.waitForLoadState();
  });
  afterAll(async () => {
    await page?.context().close();
    await svc?.close();
    meta?.stop();
    threads?.stop();
  });

  async function addApp(provider: string, name: string, c: { clientId: string; clientSecret: string }) {
    await page.goto("/connect");
    await page.selectOption("#f-provider", provider);
    await page.fill("#f-name", name);
    await page.fill("#f-client_id", c.clientId);
    await page.fill("#f-client_secret", c.clientSecret);
    await page.click("#app-create button[type=submit]");
    await page.waitForURL(/\/connect$/);
  }
  const offered = () =>
    page.locator('input[name="accounts"]').evaluateAll((els) => els.map((e) => e.getAttribute("value")));

  test("Facebook: the Login dialog with PKCE, each Page offered, the picked Page a channel with its own token", async () => {
    const shop = meta.addPage("rosa", "Rosa's Shop");
    meta.addPage("rosa", "Rosa's Blog");
    await addApp("facebook", "Our Meta app", META);
    meta.signInAs = "rosa";
    const before = visited.length;
    await page.click("#signin-facebook");
    await page.waitForURL(/\/connect\/choose\//);
    const dialog = new URL(
      visited.slice(before).find((u) => u.startsWith(`${meta.url}/v25.0/dialog/oauth`))!,
    );
    expect(dialog.searchParams.get("code_challenge_method")).toBe("S256");
    expect(dialog.searchParams.get("redirect_uri")).toBe(`${svc.url}/connect/facebook/callback`);
    expect((await offered()).length).toBe(2);
    await page.check(`input[value="${shop.id}"]`);
    await page.click("#connect-chosen");
    await page.waitForSelector("#connected-channels");
    const row = await svc.t.app.db
      .selectFrom("channels")
      .selectAll()
      .where("provider", "=", "facebook")
      .executeTakeFirstOrThrow();
    expect(row.display_name).toBe("Rosa's Shop");
    expect((await openSecrets(svc.t.app, row)).access_token).toBe(shop.token);
    expectClean(meta);
  });

  test("Instagram through the same Meta app; Threads through its own", async () => {
    const linked = meta.addPage("sam", "Sam Studio", "samstudio");
    await addApp("instagram", "Our Meta app for Instagram", META);
    meta.signInAs = "sam";
    await page.click("#signin-instagram");
    await page.waitForURL(/\/connect\/choose\//);
    expect(await offered()).toEqual([linked.instagram!.id]);
    await page.check(`input[value="${linked.instagram!.id}"]`);
    await page.click("#connect-chosen");
    await page.waitForSelector("#connected-channels");

    await addApp("threads", "Our Threads app", THREADS);
    threads.signInAs = "tess";
    await page.click("#signin-threads");
    await page.waitForURL(/\/connect\/choose\//);
    await page.check(`input[value="${threads.userId("tess")}"]`);
    await page.click("#connect-chosen");
    await page.waitForSelector("#connected-channels");
    const rows = await svc.t.app.db
      .selectFrom("channels")
      .select(["provider", "handle"])
      .where("provider", "in", ["instagram", "threads"])
      .orderBy("provider")
      .execute();
    expect(rows).toEqual([
      { provider: "instagram", handle: "@samstudio" },
      { provider: "threads", handle: "@tess" },
    ]);
    expectClean(meta);
    expectClean(threads);
  });
});
