// The dashboard's frame and password sign-in, in process: redirects, headers, CSRF, session rotation, wrong
// passwords, the per-address limit, sessions and sign-out (the lockout: secret-guesses.test.ts).
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";

describeEachDialect("dashboard sign-in", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await webApp(dialect);
    a = await tenant(t.app, "Frame Org");
  });
  afterAll(() => t.close());

  test("/ sends the signed-out to sign-in and the signed-in home", async () => {
    const b = new TestBrowser(t);
    const r = await b.get("/");
    expect(r.status).toBe(303);
    expect(r.location).toBe("/signin");
    await b.signIn(a.email, PASSWORD);
    expect((await b.get("/")).location).toBe("/home");
  });

  test("pages carry a strict CSP and the security headers; the session cookie is HttpOnly, Lax, Secure", async () => {
    const b = new TestBrowser(t);
    const r = await b.get("/signin");
    expect(r.status).toBe(200);
    const csp = r.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(r.headers.get("x-frame-options")).toBe("DENY");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("referrer-policy")).toBe("same-origin");
    expect(r.headers.get("request-id")).toMatch(/^req_/);
    expect(r.headers.get("cache-control")).toBe("no-store");
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith("__Host-svc_session="))!;
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Secure");
    expect(r.html).not.toMatch(/<script>|<style>| style="/);
    expect(r.html).toContain('<label for="f-email">Email</label>');
  });

  test("htmx, the WebAuthn helper and the CSS are served by svc itself", async () => {
    for (const [name, type, needle] of [
      ["htmx.min.js", "text/javascript", "htmx"],
      ["webauthn.js", "text/javascript", "SimpleWebAuthnBrowser"],
      ["app.css", "text/css", ".mode-test"],
    ] as const) {
      const res = await t.http.handle(new Request(`http://localhost/static/${name}`));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toStartWith(type);
      expect(await res.text()).toContain(needle);
    }
    expect((await t.http.handle(new Request("http://localhost/static/..%2Fpackage.json"))).status).toBe(404);
  });

  test("signing in rotates the session ID; home shows the org; sign-out ends the session", async () => {
    const b = new TestBrowser(t);
    await b.get("/signin");
    const before = b.cookies.get("__Host-svc_session");
    const r = await b.post("/signin", { email: a.email, password: PASSWORD });
    expect(r.status).toBe(303);
    expect(r.location).toBe("/home");
    const after = b.cookies.get("__Host-svc_session");
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    const home = await b.follow(r);
    expect(home.status).toBe(200);
    expect(home.html).toContain("Frame Org");
    expect(home.html).toContain("TEST MODE");
    expect(home.html).toContain("Frame Org Brand");
    // The pre-sign-in cookie is worth nothing now.
    const planted = new TestBrowser(t);
    planted.cookies.set("__Host-svc_session", before!);
    expect((await planted.get("/home")).location).toBe("/signin");

    const out = await b.post("/signout", {});
    expect(out.location).toBe("/signin");
    const again = new TestBrowser(t);
    again.cookies.set("__Host-svc_session", after!);
    expect((await again.get("/home")).location).toBe("/signin");
  });

  test("a wrong password says so beside the field and signs no one in", async () => {
    const b = new TestBrowser(t);
    await b.get("/signin");
    const r = await b.post("/signin", { email: a.email, password: "wrong" });
    expect(r.status).toBe(401);
    expect(r.html).toContain("The email or password is wrong.");
    expect(r.html).toContain('id="f-password-error"');
    expect(r.html).toContain(`value="${a.email}"`);
    const none = await b.post("/signin", { email: "nobody@example.com", password: PASSWORD });
    expect(none.status).toBe(401);
    expect(none.html).toContain("The email or password is wrong.");
    expect((await b.get("/home")).location).toBe("/signin");
  });

  test("a cross-site form post and a CSRF token from another session are refused", async () => {
    const b = new TestBrowser(t);
    await b.get("/signin");
    const cross = await b.post("/signin", { email: a.email, password: PASSWORD }, { site: "cross-site" });
    expect(cross.status).toBe(403);
    expect(cross.html).toContain("cross_site_request");
    const foreignOrigin = await b.post(
      "/signin",
      { email: a.email, password: PASSWORD },
      { origin: "https://evil.example" },
    );
    expect(foreignOrigin.status).toBe(403);

    const other = new TestBrowser(t);
    await other.signIn(a.email, PASSWORD);
    const victim = new TestBrowser(t);
    await victim.signIn(a.email, PASSWORD);
    // The attacker's own valid token, sent with the victim's cookie.
    victim.csrf = other.csrf;
    const r = await victim.post("/mode", { livemode: "true", back: "/home" });
    expect(r.status).toBe(403);
    expect(r.html).toContain("csrf_invalid");
    expect((await victim.get("/home")).html).toContain("TEST MODE");
    // No token at all.
    victim.csrf = "";
    expect((await victim.post("/mode", { livemode: "true" })).status).toBe(403);
  });

  test("a passkey answer that is not one is refused, and signs no one in", async () => {
    const b = new TestBrowser(t);
    await b.get("/signin");
    const json = (path: string, body: unknown) =>
      b.request("POST", path, {
        body: JSON.stringify(body),
        headers: {
          "content-type": "application/json",
          "x-csrf-token": b.csrf,
          "sec-fetch-site": "same-origin",
          origin: "http://localhost",
        },
      });
    const options = JSON.parse((await json("/signin/passkey/options", {})).html);
    expect(options.challenge).toBeString();
    expect(options.rpId).toBe("localhost");
    const r = await json("/signin/passkey", { response: { id: "bm90LWEta2V5", type: "public-key" } });
    expect(r.status).toBe(401);
    expect(JSON.parse(r.html).code).toBe("passkey_invalid");
    // The challenge was spent: even a right answer now would need new options.
    expect((await json("/signin/passkey", { response: { id: "x" } })).status).toBe(401);
    expect((await b.get("/home")).location).toBe("/signin");
  });

  test("a huge form body is refused before it is read", async () => {
    const b = new TestBrowser(t);
    await b.get("/signin");
    const r = await b.post("/signin", { email: a.email, password: "x".repeat(70_000) });
    expect(r.status).toBe(413);
    expect(r.html).toContain("too large");
  });

  test("the mode switcher changes the mode on every page", async () => {
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const r = await b.follow(await b.post("/mode", { livemode: "true", back: "/account/sessions" }));
    expect(r.html).toContain("LIVE MODE");
    expect(r.html).toContain("Switched to live mode.");
    expect((await b.get("/home")).html).toContain("LIVE MODE");
  });

  test("the sessions page lists sessions and signs another one out", async () => {
    const other = new TestBrowser(t);
    const phone =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
    other.headers["user-agent"] = phone;
    await other.signIn(a.email, PASSWORD);
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const page = await b.get("/account/sessions");
    // Each browser as a person knows it, the whole User-Agent on hover.
    expect(page.html).toContain(`<td title="${phone}">Safari 17 on iOS </td>`);
    const ids = [...page.html.matchAll(/\/account\/sessions\/(sess_[a-z0-9]+)\/revoke/g)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) await b.post(`/account/sessions/${id}/revoke`, {});
    expect((await other.get("/home")).location).toBe("/signin");
    expect((await b.get("/home")).status).toBe(200);
    // Someone else's session ID looks missing.
    const res = await b.post("/account/sessions/sess_00000000000000000000000000/revoke", {});
    expect(res.status).toBe(404);
  });

  test("sign-in attempts are limited per client address", async () => {
    const b = new TestBrowser(t);
    await b.get("/signin");
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await b.post("/signin", { email: `nobody${i}@example.com`, password: "x" })).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    const last = await b.post("/signin", { email: a.email, password: PASSWORD });
    expect(last.status).toBe(429);
    expect(last.html).toContain("Too many sign-in attempts from your address");
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Another address is not held up.
    expect((await new TestBrowser(t).signIn(a.email, PASSWORD)).status).toBe(200);
  });
  // The lockout (now per account and address, shared through the database) is tested in secret-guesses.test.ts.
});
