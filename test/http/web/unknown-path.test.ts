// A browser on a path svc does not serve gets a page of the dashboard with a way back (signed in: with its
// navigation), not problem JSON; an API client asking the same keeps the problem details.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { tenant } from "../../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";
const HTML = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"; // what a browser sends

describeEachDialect("unknown paths", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await webApp(dialect);
  });
  afterAll(() => t.close());

  test("a browser gets an HTML page naming the path, with a way back to the dashboard", async () => {
    const br = new TestBrowser(t);
    br.headers.accept = HTML;
    const page = await br.get("/dashbord/<b>x</b>");
    expect(page.status).toBe(404);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.headers.get("request-id")).toMatch(/^req_/);
    expect(page.html).toStartWith("<!doctype html>");
    expect(page.html).toContain("<h1>Page not found</h1>");
    expect(page.html).toContain("There is no page at /dashbord/%3Cb%3Ex%3C/b%3E.");
    expect(page.html).toContain('<a href="/">Go back to the dashboard</a>');
    expect(page.html).toContain('<a href="/docs/errors#route_unknown"><code>route_unknown</code></a>');
    expect(page.html).not.toContain('"type":"about:blank"');
  });

  test("signed in, the page keeps the navigation and the mode bar", async () => {
    const a = await tenant(t.app, "Nav Org");
    const br = new TestBrowser(t);
    br.headers.accept = HTML;
    await br.signIn(a.email, PASSWORD);
    const page = await br.get("/settings/nowhere");
    expect(page.status).toBe(404);
    expect(page.html).toContain('id="mode-bar"');
    expect(page.html).toContain('href="/members"');
    expect(page.html).toContain("Nav Org");
  });

  test("a method the path does not take is a page too, with Allow", async () => {
    const br = new TestBrowser(t);
    br.headers.accept = HTML;
    const page = await br.request("DELETE", "/v1/platforms");
    expect(page.status).toBe(405);
    expect(page.headers.get("allow")).toBe("GET");
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.html).toContain(
      '<a href="/docs/errors#method_not_allowed"><code>method_not_allowed</code></a>',
    );
  });

  test("API clients keep the problem JSON", async () => {
    for (const accept of [undefined, "application/json", "*/*", "application/problem+json"]) {
      const r = await t.request("GET", "/dashbord", { headers: accept ? { accept } : {} });
      expect([accept, r.status, r.headers.get("content-type")]).toEqual([
        accept,
        404,
        "application/problem+json",
      ]);
      expect(r.body).toMatchObject({ code: "route_unknown", detail: "No route GET /dashbord." });
    }
    const wrong = await t.request("DELETE", "/v1/platforms", { headers: { accept: "application/json" } });
    expect([wrong.status, wrong.body.code, wrong.headers.get("allow")]).toEqual([
      405,
      "method_not_allowed",
      "GET",
    ]);
  });
});
