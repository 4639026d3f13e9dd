#!/usr/bin/env bun
// Remakes the screenshots of the calendar's month, webhooks, events, audit log and request log in docs/img/
// (`bun scripts/screenshots-ops.ts`), at desktop (1280) and phone (390) width: svc in-process on a fresh SQLite
// database, a demo org made through the API (a brand with slots, scheduled posts, a webhook endpoint whose
// deliveries reach a local receiver, requests of two keys and a CLI sign-in), then Debian's Chromium signs in and
// photographs each page. Not a test: it asserts only what it needs to reach the next page.
import { join } from "node:path";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { bootstrap } from "../src/domain/bootstrap/service.ts";
import { zonedToUtc } from "../src/lib/zoned.ts";
import { deliverDue } from "../src/queue/webhook-deliveries.ts";
import { launchChromium, liveSvc } from "../test/e2e/browser.ts";
import { key, userToken } from "../test/helpers/factories.ts";
import { startReceiver } from "../test/helpers/receiver.ts";

const OUT = join(import.meta.dir, "../docs/img");
const OWNER = { email: "ana@northwind.example", password: "fresh roasted beans daily" };
const TZ = "Europe/Lisbon";
const MAX_BYTES = 150 * 1024;
const pad = (n: number) => String(n).padStart(2, "0");

async function main() {
  const receiver = startReceiver();
  const svc = await liveSvc("sqlite", { SVC_ALLOW_PRIVATE_WEBHOOKS: "127.0.0.1" });
  const { t } = svc;
  const b = await bootstrap(t.app, {
    email: OWNER.email,
    org: "Northwind",
    brand: "Northwind Roastery",
    timezone: TZ,
    password: OWNER.password,
  });
  const shop = await key(t.app, b.org.id, { name: "Shop website" });
  const news = await key(t.app, b.org.id, { name: "Newsletter", scopes: ["posts:read"] });
  const cli = await userToken(t.app, b.user.id, { name: "ana-macbook" });
  const api = async (secret: string, method: string, path: string, body?: unknown) => {
    const r = await t.request(method, path, { key: secret, body, headers: { "svc-org": b.org.id } });
    return r;
  };
  await api(shop, "POST", `/v1/brands/${b.brand.id}`, {
    slots: ["monday", "tuesday", "wednesday", "thursday", "friday"].flatMap((weekday) => [
      { weekday, time: "09:00" },
      { weekday, time: "13:00" },
    ]),
  });
  const hook = await api(shop, "POST", "/v1/webhook_endpoints", {
    url: `${receiver.url}/ok`,
    description: "Shop website: order updates",
    enabled_events: ["post.created", "post.published", "post.failed"],
  });
  await api(shop, "POST", "/v1/webhook_endpoints", {
    url: `${receiver.url}/fail`,
    description: "Old analytics hook",
  });
  // Posts across next month in the brand's zone.
  const now = new Date();
  const [y, m] =
    now.getUTCMonth() === 11 ? [now.getUTCFullYear() + 1, 1] : [now.getUTCFullYear(), now.getUTCMonth() + 2];
  const texts = [
    "Roasting day! Small batches of the Ethiopia Guji go out this afternoon.",
    "Latte art class on Saturday: six seats left.",
    "New in the shop: a washed Colombian with notes of red apple.",
    "How we pick our green coffee, a thread.",
    "Brewing guide: the V60 at home, step by step.",
    "Our winter opening hours.",
    "Meet the roaster: Inês on ten years at Northwind.",
    "Cupping session on Thursday evening, free for members.",
  ];
  let i = 0;
  for (const day of [2, 3, 5, 9, 10, 12, 16, 17, 19, 23, 24, 26]) {
    const d = new Date(Date.UTC(y, m - 1, day));
    if (d.getUTCDay() === 0 || d.getUTCDay() === 6) continue;
    for (const hour of i % 3 === 0 ? [9, 13] : [9]) {
      const at = new Date(zonedToUtc(y, m, day, hour, 0, TZ)).toISOString();
      await api(shop, "POST", "/v1/posts", {
        brand: b.brand.id,
        content: { body: texts[i++ % texts.length] },
        publish_at: at,
      });
    }
  }
  await api(news, "GET", "/v1/posts?limit=5");
  await api(news, "POST", "/v1/posts", { brand: b.brand.id, content: { body: "x" } });
  await api(cli.secret, "GET", "/v1/channels");
  await api(shop, "GET", "/v1/posts/post_01jxxxxxxxxxxxxxxxxxxxxxxx");
  await api(shop, "POST", "/v1/posts", { brand: b.brand.id, content: { body: "" } });
  await deliverDue(t.app);
  await t.http.ctx.requestLog.flush();

  const browser = await launchChromium();
  const month = `${y}-${pad(m)}`;
  const pages: [string, string][] = [
    ["calendar-month", `/queue?view=month&brand=${b.brand.id}&month=${month}`],
    ["webhooks", "/webhooks"],
    ["webhook-endpoint", `/webhooks/${hook.body.id}`],
    ["events", "/events"],
    ["audit", "/audit"],
    ["requests", "/requests"],
  ];
  for (const [phone, width, height] of [
    [false, 1280, 800],
    [true, 390, 844],
  ] as const) {
    const context = await browser.newContext({
      baseURL: svc.url,
      viewport: { width, height },
      extraHTTPHeaders: { "x-client-ip": "203.0.113.9" },
    });
    const page: Page = await context.newPage();
    await page.goto("/signin");
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL("**/home");
    for (const [name, path] of pages) {
      const res = await page.goto(path);
      if (res?.status() !== 200) throw new Error(`${path}: ${res?.status()}`);
      let png: Buffer = await page.screenshot({ fullPage: !phone || name !== "calendar-month" });
      if (png.length > MAX_BYTES) png = await sharp(png).png({ palette: true, colours: 64 }).toBuffer();
      await Bun.write(join(OUT, `dashboard-${name}${phone ? "-phone" : ""}.png`), png);
    }
    await context.close();
  }
  await browser.close();
  await svc.close();
  receiver.stop();
}

await main();
