// Accessibility of every dashboard page, checked in Chromium with axe-core (WCAG 2.2 A and AA rules, contrast
// included), at desktop and phone widths; the page is usable from the keyboard (the first Tab reaches "Skip to
// content") and fits a phone's width without sideways scrolling. axe is injected past the CSP for the check only, as
// an init script: every document and frame has it from the start (so the newsletter previews' frames are checked
// too), at about a third of what sending its 500 KB through addScriptTag after each of the 70 loads cost.
// Only violations are collected (resultTypes): axe skips gathering the passing nodes, which took half its time.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { key } from "../helpers/factories.ts";
import { type LiveSvc, launchChromium, liveSvc, shot } from "./browser.ts";

const AXE = readFileSync(Bun.resolveSync("axe-core/axe.min.js", import.meta.dir), "utf8");

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: string[] }[];
}

async function violations(page: Page): Promise<string[]> {
  const result = (await page.evaluate(
    `axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] }, resultTypes: ["violations"] })`,
  )) as { violations: AxeViolation[] };
  return result.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
  );
}

const PAGES = [
  "/home",
  "/org",
  "/members",
  "/api-keys",
  "/account/security",
  "/account/sessions",
  "/account/devices",
  "/posts/new",
  "/posts",
  "/approvals",
  "/queue",
  "/queue?view=month",
  "/webhooks",
  "/events",
  "/audit",
  "/requests",
  "/insights",
  // A path svc does not serve: the "Page not found" page, in the frame (docs/dashboard.md).
  "/no-such-page",
  // The error codes page every problem's doc_url points at (served to anyone, signed in or not).
  "/docs/errors",
  "/connect",
  "/channels",
  "/brands",
  "/media",
  "/templates",
  "/templates/new",
  "/newsletters",
  "/newsletters/new",
  "/mail-accounts",
];

describeEachDialect("dashboard accessibility", (dialect) => {
  let svc: LiveSvc;
  beforeAll(async () => {
    svc = await liveSvc(dialect);
  });
  afterAll(() => svc.close());

  for (const [label, viewport] of [
    ["desktop", { width: 1100, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    test(`every page passes axe's WCAG AA rules and fits the width (${label})`, async () => {
      const email = `a11y-${label}-${Math.random().toString(36).slice(2, 7)}@example.com`;
      const b = await bootstrap(svc.t.app, { email, org: "Access Org", brand: "Access Brand" });
      // A post, so the list has a row and a post's page has a target.
      const post = await svc.t.request("POST", "/v1/posts", {
        key: await key(svc.t.app, b.org.id, { name: "a11y" }),
        body: { brand: b.brand.id, content: { body: "Accessible post" }, publish_at: "next_slot" },
      });
      expect(post.status).toBe(201);
      // An endpoint with a delivery, for the webhooks pages.
      const endpoint = await svc.t.request("POST", "/v1/webhook_endpoints", {
        key: await key(svc.t.app, b.org.id, { name: "a11y hooks" }),
        body: { url: "http://example.com/hook", description: "Accessible hook" },
      });
      expect(endpoint.status).toBe(201);
      // A post waiting for approval and a client review link to it (the signed-out review page).
      const admin = await key(svc.t.app, b.org.id, {
        name: "a11y admin",
        scopes: ["posts:approve", "posts:read", "brands:write"],
      });
      await svc.t.request("POST", `/v1/brands/${b.brand.id}`, {
        key: admin,
        body: { approval_policy: "required_for_editors_and_keys" },
      });
      const waiting = await svc.t.request("POST", "/v1/posts", {
        key: await key(svc.t.app, b.org.id, { name: "a11y waiting" }),
        body: { brand: b.brand.id, content: { body: "Waiting for a client" }, publish_at: "next_slot" },
      });
      expect(waiting.body.status).toBe("pending_approval");
      const link = await svc.t.request("POST", "/v1/review_links", {
        key: admin,
        body: { brand: b.brand.id, name: "Accessible client" },
      });
      expect(link.status).toBe(201);
      // A mail account and an issue through it, for the newsletter pages (editor, preview frames, results).
      const nl = await key(svc.t.app, b.org.id, { name: "a11y newsletters" });
      const mail = await svc.t.request("POST", "/v1/mail_accounts", {
        key: nl,
        body: {
          brand: b.brand.id,
          provider: "sandbox",
          from_name: "Access",
          from_email: "news@access.example",
          default_audiences: ["everyone"],
        },
      });
      expect(mail.status).toBe(201);
      const issue = await svc.t.request("POST", "/v1/newsletters", {
        key: nl,
        body: {
          brand: b.brand.id,
          subject: "Accessible issue",
          body: "# Hello\n\nRead [more](https://access.example).",
          deliveries: [{ mail_account: mail.body.id }],
        },
      });
      expect(issue.status).toBe(201);
      const context = await browser.newContext({
        baseURL: svc.url,
        viewport,
        bypassCSP: true,
        extraHTTPHeaders: { "x-client-ip": label === "phone" ? "192.0.2.10" : "192.0.2.11" },
      });
      await context.addInitScript({ content: AXE });
      const page = await context.newPage();
      await page.goto("/signin");
      expect(await violations(page)).toEqual([]);
      await page.keyboard.press("Tab");
      expect(await page.evaluate("document.activeElement.textContent")).toBe("Skip to content");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password", { exact: true }).fill(b.password!);
      await page.keyboard.press("Enter");
      await page.waitForURL("**/home");
      for (const path of [
        ...PAGES,
        `/posts/${post.body.id}`,
        `/webhooks/${endpoint.body.id}`,
        `/brands/${b.brand.id}`,
        `/newsletters/${issue.body.id}`,
        new URL(link.body.url).pathname,
      ]) {
        await page.goto(path);
        expect({ path, violations: await violations(page) }).toEqual({ path, violations: [] });
        const overflow = await page.evaluate("document.documentElement.scrollWidth - window.innerWidth");
        expect({ path, overflow }).toEqual({ path, overflow: 0 });
        if (label === "phone") await shot(page, `phone${path.replaceAll("/", "-").slice(0, 40)}-${dialect}`);
      }
      await context.close();
      // Twenty pages, each checked by axe, on a shared two-core machine: more than the default minute.
    }, 180_000);
  }
});
