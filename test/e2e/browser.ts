// Headless Chromium (Debian's package) driven by playwright-core, for the dashboard's end-to-end tests: one
// browser per test file, a fresh profile per launch, a context per person; svc listens on 127.0.0.1, port 0.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import type { Dialect } from "../../src/db/migration.ts";
import { type TestApp, testApp } from "../helpers/app.ts";

export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Playwright gives every launch a fresh temporary user-data-dir of its own. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_FLAGS });

export interface LiveSvc {
  t: TestApp;
  url: string;
  close(): Promise<void>;
}

/**
 * A real listening svc for a fresh database. The base URL is http://localhost:<port> (a passkey's relying party
 * must be a host name, and localhost is a secure context over plain HTTP). Each browser context says which client
 * address it is through X-Client-Ip (SVC_CLIENT_IP_HEADER), as a proxy would, so sign-in limits per address apply.
 */
export async function liveSvc(dialect: Dialect, env: Record<string, string> = {}): Promise<LiveSvc> {
  let handle: (r: Request, peer: string | null) => Promise<Response> = async () =>
    new Response("starting", { status: 503 });
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req, srv) => handle(req, srv.requestIP(req)?.address ?? null),
  });
  const url = `http://localhost:${server.port}`;
  const t = await testApp(dialect, {
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

let addresses = 0;

/** A person's own browser window: a new context with its own client address; records any dialog (XSS probe). */
export async function person(browser: Browser, svc: LiveSvc) {
  const ip = `203.0.113.${(++addresses % 250) + 1}`;
  const context: BrowserContext = await browser.newContext({
    baseURL: svc.url,
    extraHTTPHeaders: { "x-client-ip": ip },
    viewport: { width: 1100, height: 800 },
  });
  const page: Page = await context.newPage();
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on("console", (m) => {
    // A refused form answers 401/403/429 on purpose; anything else (a CSP refusal, a missing file) is an error.
    if (m.type() === "error" && !/status of (401|403|429)/.test(m.text())) errors.push(m.text());
  });
  return { context, page, dialogs, errors, ip };
}

const SHOTS = join(import.meta.dir, "../../screenshots");

/** A full-page screenshot into the ignored screenshots/ folder. */
export async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/**
 * Waits for the page to reach `url` when a form was sent twice (a double click): the browser abandons the first
 * submission's navigation for the second's, and a wait that caught the first one ends in ERR_ABORTED. The next
 * wait sees the second (or finds the page there already).
 */
export async function waitPastAbandoned(page: Page, url: RegExp): Promise<void> {
  for (let tries = 0; ; tries++) {
    try {
      return await page.waitForURL(url);
    } catch (e) {
      if (tries >= 2 || !String(e).includes("ERR_ABORTED")) throw e;
    }
  }
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForLoadState();
}
