#!/usr/bin/env bun
// Remakes the dashboard screenshots in docs/img/ (`bun scripts/screenshots.ts`): svc in-process on a fresh SQLite
// database, a demo org made through the same API and domain functions a user reaches (brands, sandbox channels,
// scheduled posts, members, keys, a CLI sign-in), then Debian's Chromium signs in and photographs each page.
// Not a test: it asserts only what it needs to reach the next page, and fails loudly if a page is not there.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import * as OTPAuth from "otpauth";
import type { Browser, BrowserContext, Page } from "playwright-core";
import sharp from "sharp";
import { bootstrap } from "../src/domain/bootstrap/service.ts";
import { adapterFor } from "../src/platforms/adapter-registry.ts";
import { startPublishWorker } from "../src/queue/publish/worker.ts";
import { launchChromium } from "../test/e2e/browser.ts";
import { type TestApp, testApp } from "../test/helpers/app.ts";
import { key, member, userToken } from "../test/helpers/factories.ts";

const OUT = join(import.meta.dir, "../docs/img");
const OWNER = { email: "ana@northwind.example", name: "Ana Silva", password: "fresh roasted beans daily" };
const DESKTOP = { width: 1100, height: 760 };
const PHONE = { width: 390, height: 844 };
// Sessions list the browser's own User-Agent; Chromium's headless one would read as a robot in the picture.
const DESKTOP_UA =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const PHONE_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
/** Above this a screenshot is reduced to a palette PNG (UI screenshots have few colours; text stays sharp). */
const MAX_BYTES = 150 * 1024;

const totp = (secret: string, at: number) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: at, digits: 6, period: 30 });

const HOUR = 3600_000;
/** The next whole hour `hours` from now, as RFC 3339 (posts are scheduled on the hour, as people do). */
const inHours = (hours: number) =>
  new Date(Math.ceil((Date.now() + hours * HOUR) / HOUR) * HOUR).toISOString();

interface Svc {
  t: TestApp;
  url: string;
  close(): Promise<void>;
}

/**
 * svc listening on localhost, at the install's default port 8080 when it is free (links shown on the pages, such
 * as an invitation's, then read as in the docs), else at any free port. Like test/e2e/browser.ts `liveSvc`,
 * each browser context says its client address in X-Client-Ip, so Sessions shows an address per browser.
 */
async function listen(env: Record<string, string>): Promise<Svc> {
  let handle: (r: Request, peer: string | null) => Promise<Response> = async () =>
    new Response("starting", { status: 503 });
  const serve = (port: number) =>
    Bun.serve({
      hostname: "127.0.0.1",
      port,
      fetch: (req, srv) => handle(req, srv.requestIP(req)?.address ?? null),
    });
  let server: ReturnType<typeof serve>;
  try {
    server = serve(8080);
  } catch {
    console.warn("port 8080 is taken: links on the pages will name another port");
    server = serve(0);
  }
  const url = `http://localhost:${server.port}`;
  const t = await testApp("sqlite", {
    env: { SVC_BASE_URL: url, SVC_INSECURE_COOKIES: "true", SVC_CLIENT_IP_HEADER: "x-client-ip", ...env },
  });
  handle = (r, peer) => t.http.handle(r, peer);
  return {
    t,
    url,
    async close() {
      await server.stop(true);
      await t.close();
    },
  };
}

async function api(svc: Svc, secret: string, method: string, path: string, body: unknown) {
  const r = await svc.t.request(method, path, { key: secret, body });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The demo org: two brands in their own time zones, sandbox channels, posts, people, keys and a CLI sign-in. */
async function demoData(svc: Svc) {
  const app = svc.t.app;
  const b = await bootstrap(app, {
    email: OWNER.email,
    name: OWNER.name,
    org: "Northwind Coffee",
    brand: "Northwind Coffee",
    timezone: "Europe/Lisbon",
    password: OWNER.password,
    sandbox: false,
  });
  const orgId = b.org.id;
  // Plan limits, as an operator sets them, so the Org page shows usage against them.
  await app.db
    .updateTable("orgs")
    .set({ limit_brands: 5, limit_members: 10, limit_posts_per_month: 500 })
    .where("id", "=", orgId)
    .execute();

  const website = await key(app, orgId, { name: "Shop website" });
  const roastery = await api(svc, website, "POST", "/v1/brands", {
    name: "Northwind Roastery",
    timezone: "America/New_York",
  });
  const channel = async (brand: string, emulates: string, display_name: string, handle: string) =>
    (
      await api(svc, website, "POST", "/v1/channels", {
        brand,
        provider: "sandbox",
        emulates,
        fields: { display_name, handle },
      })
    ).id as string;
  const coffeeBsky = await channel(b.brand.id, "bluesky", "Northwind Coffee", "@northwind.bsky.social");
  const coffeeMasto = await channel(b.brand.id, "mastodon", "Northwind Coffee", "@northwind@mastodon.social");
  const roastBsky = await channel(
    roastery.id,
    "bluesky",
    "Northwind Roastery",
    "@roastery.northwind.example",
  );

  const post = (brand: string, channels: string[], body: string, hours: number) =>
    api(svc, website, "POST", "/v1/posts", {
      brand,
      channels,
      content: { body },
      publish_at: inHours(hours),
    });
  await post(
    b.brand.id,
    [coffeeBsky, coffeeMasto],
    "Our autumn blend is back: cinnamon, dark chocolate and a hint of orange. In every shop from Monday.",
    3,
  );
  await post(
    roastery.id,
    [roastBsky],
    "Roasting day! Small batches of Ethiopia Guji go out to cafés this afternoon.",
    20,
  );
  await post(
    b.brand.id,
    [coffeeBsky],
    "Bring your own cup this week and your coffee is 20% off. Thank you for helping us cut waste.",
    26,
  );
  await post(
    b.brand.id,
    [coffeeBsky, coffeeMasto],
    "Latte art class on Saturday at 10:00 in the Rua das Flores shop. Six places left.",
    50,
  );

  await key(app, orgId, {
    name: "Newsletter",
    scopes: ["posts:read", "posts:write"],
    brand: roastery.id,
  });
  for (const [email, name, role] of [
    ["bruno@northwind.example", "Bruno Costa", "admin"],
    ["chloe@northwind.example", "Chloé Martin", "editor"],
  ] as const) {
    const id = await member(app, orgId, email, role);
    await app.db.updateTable("users").set({ name }).where("id", "=", id).execute();
  }
  await userToken(app, b.user.id, { name: "ana-macbook" });

  // The roastery's posts from the website wait for a person's approval.
  await api(svc, website, "POST", `/v1/brands/${roastery.id}`, {
    approval_policy: "required_for_editors_and_keys",
  });
  await api(svc, website, "POST", "/v1/posts", {
    brand: roastery.id,
    content: { body: "New in the shop: a washed Colombia Huila with notes of red apple and caramel." },
    publish_at: "next_slot",
  });

  // Two posts go out now through the publish worker: one is published, the other's answer never arrives (the
  // sandbox's timeout_after_send), so it needs a person to look.
  await api(svc, website, "POST", "/v1/posts", {
    brand: b.brand.id,
    channels: [coffeeBsky],
    content: { body: "Good morning, Porto! The Rua das Flores shop opens at 7:30 today." },
  });
  const uncertain = await api(svc, website, "POST", "/v1/posts", {
    brand: b.brand.id,
    channels: [coffeeMasto, coffeeBsky],
    content: { body: "Last call for the Saturday latte art class: two places left." },
    metadata: { svc_simulate: "timeout_after_send" },
  });
  const worker = startPublishWorker(app, { adapterFor, pollMs: 50 });
  await Bun.sleep(1500);
  await worker.idle();
  await worker.stop();
  return {
    orgId,
    coffeeBsky,
    coffeeMasto,
    uncertain: uncertain.id as string,
    website,
    brandId: b.brand.id,
  };
}

/**
 * `page` as a person sees it: the whole page, or (`fullPage` false) the screen alone, for a page with a dialog
 * open, whose backdrop covers the screen and would cover only its top in a picture of the whole page.
 */
async function save(page: Page, name: string, fullPage = true) {
  // A sticky part (the composer's preview) is drawn where the last scroll left it: photograph from the top.
  await page.evaluate("window.scrollTo(0, 0)");
  let png: Buffer = await page.screenshot({ fullPage });
  png = await sharp(png).png({ compressionLevel: 9 }).toBuffer();
  if (png.length > MAX_BYTES) png = await sharp(png).png({ palette: true, compressionLevel: 9 }).toBuffer();
  await Bun.write(join(OUT, `${name}.png`), png);
  const { width, height } = await sharp(png).metadata();
  console.log(`docs/img/${name}.png  ${width}x${height}  ${Math.round(png.length / 1024)} KB`);
}

async function window(browser: Browser, svc: Svc, ip: string, phone = false) {
  const context: BrowserContext = await browser.newContext({
    baseURL: svc.url,
    viewport: phone ? PHONE : DESKTOP,
    userAgent: phone ? PHONE_UA : DESKTOP_UA,
    extraHTTPHeaders: { "x-client-ip": ip },
    locale: "en-GB",
  });
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error(`page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") console.error(`console: ${m.text()}`);
  });
  return { context, page };
}

async function signIn(page: Page) {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL("**/home");
}

/** A picture for the media library: a gradient with a word on it, as sharp renders an SVG. */
const picture = (word: string, from: string, to: string, width = 1200, height = 800) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><text x="50%" y="55%" font-family="sans-serif" font-size="${Math.round(height / 7)}" fill="#fff" text-anchor="middle">${word}</text></svg>`,
    ),
  )
    .jpeg({ quality: 80 })
    .toBuffer();

/** Channels, Brands, Media and Templates, with the library's pictures and a template made through the API. */
async function libraryPages(svc: Svc, demo: Awaited<ReturnType<typeof demoData>>, page: Page, phone: Page) {
  for (const [name, word, from, to, alt] of [
    [
      "autumn-blend.jpg",
      "Autumn blend",
      "#8c3b1b",
      "#e0a458",
      "A bag of the autumn blend beside cinnamon sticks",
    ],
    ["latte-class.jpg", "Latte art", "#3d2b1f", "#c8a27a", "Latte art of a fern in a white cup"],
    ["porto-shop.jpg", "Rua das Flores", "#1f4e5f", "#7fb7be", ""],
  ] as const) {
    const form = new FormData();
    form.append("brand", demo.brandId);
    if (alt) form.append("alt", alt);
    form.append("file", new Blob([await picture(word, from, to)], { type: "image/jpeg" }), name);
    const r = await fetch(`${svc.url}/v1/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${demo.website}`, "x-client-ip": "192.0.2.50" },
      body: form,
    });
    if (r.status !== 201) throw new Error(`upload: ${r.status} ${await r.text()}`);
  }
  const template = await api(svc, demo.website, "POST", "/v1/templates", {
    brand: demo.brandId,
    key: "new-roast",
    name: "New roast of the week",
    body: "New this week: {{.roast}} from {{.origin}}.{{if .price}} {{.price}} a bag.{{end}} https://northwind.example/roasts",
    variables: {
      type: "object",
      properties: {
        roast: { type: "string", title: "Roast", description: "The coffee's name as the bag says it." },
        origin: { type: "string", title: "Origin" },
        price: { type: "string", title: "Price" },
      },
      required: ["roast", "origin"],
    },
    examples: [{ roast: "Finca La Esperanza", origin: "Huila, Colombia", price: "€14" }],
  });
  await page.goto("/channels");
  await save(page, "dashboard-channels");
  await page.goto("/brands");
  await save(page, "dashboard-brands");
  await page.goto(`/brands/${demo.brandId}`);
  await save(page, "dashboard-brand");
  await page.goto("/media");
  await save(page, "dashboard-media");
  await phone.goto("/media");
  await save(phone, "dashboard-media-phone");
  await page.goto("/reports");
  await save(page, "dashboard-reports");
  await page.goto("/insights");
  await save(page, "dashboard-insights");
  await page.goto("/mail-accounts");
  await save(page, "dashboard-mail-accounts");
  await page.goto("/newsletters/new");
  await save(page, "dashboard-newsletter");
  await phone.goto("/newsletters/new");
  await save(phone, "dashboard-newsletter-phone");
  await page.goto("/templates");
  await save(page, "dashboard-templates");
  await page.goto(`/templates/${template.id}`);
  await page.locator("#tpl-preview .preview").first().waitFor();
  await save(page, "dashboard-template");
  await page.goto(`/posts/new?template=${template.id}`);
  await page.locator(`input[name="channels"][value="${demo.coffeeMasto}"]`).check();
  await page.getByLabel("Roast", { exact: true }).fill("Sítio Bom Jardim");
  await page.getByLabel("Origin", { exact: true }).fill("Minas Gerais, Brazil");
  await page.getByLabel("Origin", { exact: true }).dispatchEvent("change");
  await page.locator("#preview", { hasText: "Sítio Bom Jardim" }).waitFor();
  await page.locator("details.media-picker summary").click();
  await save(page, "dashboard-composer-template");
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const svc = await listen({
    SVC_BILLING_URL: "https://billing.northwind.example/portal",
    SVC_BILLING_LINK_KEY: "screenshots-billing-link-key-0123456789",
  });
  const browser = await launchChromium();
  try {
    const demo = await demoData(svc);

    // A phone signed in first, so Sessions lists two browsers.
    const phone = await window(browser, svc, "198.51.100.23", true);
    await signIn(phone.page);
    await save(phone.page, "dashboard-phone");
    // The navigation folded into the Menu, opened.
    await phone.page.locator(".nav-menu > summary").click();
    await save(phone.page, "dashboard-phone-menu");
    await phone.page.locator(".nav-menu > summary").click();
    await phone.page.goto("/posts/new");
    await phone.page.locator(`input[name="channels"][value="${demo.coffeeMasto}"]`).check();
    await phone.page
      .getByLabel("Text", { exact: true })
      .fill("Latte art class on Saturday at 10:00 in the Rua das Flores shop. Six places left.");
    await phone.page.locator(`#preview-${demo.coffeeMasto} .fit-ok`).waitFor();
    await save(phone.page, "dashboard-composer-phone");
    await phone.page.goto(`/posts/${demo.uncertain}`);
    await save(phone.page, "dashboard-post-phone");

    const { page } = await window(browser, svc, "203.0.113.10");
    await page.goto("/signin");
    await page.getByLabel("Email").fill(OWNER.email);
    await save(page, "dashboard-signin");
    await signIn(page);
    await save(page, "dashboard-home");

    // The composer: two channels of one brand, a text a little long for Bluesky; the preview shows why.
    await page.goto("/posts/new");
    for (const id of [demo.coffeeBsky, demo.coffeeMasto])
      await page.locator(`input[name="channels"][value="${id}"]`).check();
    await page
      .getByLabel("Text", { exact: true })
      .fill(
        "Our autumn blend is back: cinnamon, dark chocolate and a hint of orange, roasted in small batches every " +
          "Tuesday in Porto. Find it in every shop from Monday, or order beans online for the weekend. Bring your own " +
          "cup and the first one is on us. Tasting notes, brewing tips and the story of the farm are on our site: " +
          "https://northwind.example/autumn",
      );
    await page.locator(`#preview-${demo.coffeeBsky} .violations`).waitFor();
    await save(page, "dashboard-composer");
    await page.getByText("When the text is too long for a network").click();
    await page.getByLabel("Bluesky", { exact: true }).selectOption("thread");
    await page.locator(`#preview-${demo.coffeeBsky} .parts.thread`).waitFor();
    await save(page, "dashboard-composer-thread");

    await page.goto("/posts");
    await save(page, "dashboard-posts");
    await page.goto(`/posts/${demo.uncertain}`);
    await save(page, "dashboard-post");
    await page.goto("/approvals");
    await save(page, "dashboard-approvals");

    await libraryPages(svc, demo, page, phone.page);
    // The queue at the week of the brand's next post, with one post's Move form open.
    const next = await api(
      svc,
      demo.website,
      "GET",
      `/v1/posts?brand=${demo.brandId}&status=scheduled`,
      undefined,
    );
    const first = (next.data as { id: string; publish_at: string }[]).sort((x, y) =>
      x.publish_at.localeCompare(y.publish_at),
    )[0]!;
    await page.goto(`/queue?brand=${demo.brandId}&week=${first.publish_at.slice(0, 10)}`);
    await page.locator(`#cal-${first.id}`).getByRole("link", { name: "Move this post" }).click();
    await page.locator("#move-dialog").waitFor();
    await save(page, "dashboard-queue", false);
    await phone.page.goto(`/queue?brand=${demo.brandId}&week=${first.publish_at.slice(0, 10)}`);
    await save(phone.page, "dashboard-queue-phone");

    // A key made on the page: its secret is shown once, above the list.
    await page.goto("/api-keys");
    await page.getByLabel("Name", { exact: true }).fill("Reporting");
    await page.getByLabel("posts:read").check();
    await page.getByLabel("audit:read").check();
    await page.getByRole("button", { name: "Create test key" }).click();
    await page.locator("#key-secret").waitFor();
    await save(page, "dashboard-api-keys");

    // An invitation without SMTP: the link is shown once to pass on.
    await page.goto("/members");
    await page.getByLabel("Email", { exact: true }).fill("marco@northwind.example");
    await page.getByRole("button", { name: "Invite" }).click();
    await page.locator("#invite-created").waitFor();
    await save(page, "dashboard-members");

    await page.goto("/org");
    await save(page, "dashboard-org");
    await page.goto("/account/sessions");
    await save(page, "dashboard-sessions");

    // A CLI asks to sign in (`svc auth login`); the person types its code on /device.
    const started = await fetch(`${svc.url}/v1/auth/device`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-client-ip": "203.0.113.10" },
      body: JSON.stringify({ device_name: "ana-workstation", livemode: false }),
    }).then((r) => r.json() as Promise<{ user_code: string; device_code: string }>);
    await page.goto("/device");
    await page.getByLabel("Code").fill(started.user_code);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.locator("#device-details").waitFor();
    await save(page, "dashboard-device");
    await page.getByRole("button", { name: "Approve" }).click();
    await page.locator("#device-done").waitFor();
    // The CLI's next poll receives its token; it lists posts once, so Devices shows when it was last used.
    const token = await fetch(`${svc.url}/v1/auth/device/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:device_code",
        device_code: started.device_code,
        client_id: "svc-cli",
      }),
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    await api(svc, token.access_token, "GET", "/v1/posts", undefined);
    await page.goto("/account/devices");
    await save(page, "dashboard-devices");

    // A passkey from Chromium's virtual authenticator (as a laptop's fingerprint reader would make one).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await page.goto("/account/security");
    await page.getByLabel("Name for a new passkey").fill("MacBook Touch ID");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.locator("#passkeys").waitFor();

    await page.getByRole("button", { name: "Set up an authenticator app" }).click();
    await page.locator("img.qr").waitFor();
    await save(page, "dashboard-totp");
    const secret = ((await page.locator("#totp-secret").textContent()) ?? "").replaceAll(" ", "");
    await page.getByLabel("Code from the app").fill(totp(secret, Date.now()));
    await page.getByRole("button", { name: "Turn on" }).click();
    await page.locator("#recovery-codes").waitFor();
    await save(page, "dashboard-recovery-codes");

    // The second step of signing in, now that there is an authenticator app and a passkey.
    await page.getByRole("button", { name: /^Sign out/ }).click();
    await page.waitForURL("**/signin");
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL("**/signin/two-factor");
    await save(page, "dashboard-two-factor");
  } finally {
    await browser.close();
    await svc.close();
  }
}

await main();
