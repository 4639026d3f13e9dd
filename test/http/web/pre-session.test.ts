// A visitor who has not signed in is stored nowhere: the sign-in page's session is a token signed with a key
// derived from the master key, carried in the cookie only (its nonce binds the CSRF token; a passkey challenge
// rides in it). Before, every cookie-less GET /signin wrote a web_sessions row (17,804 in 8 s from one address).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { FakeClock } from "../../../src/lib/clock.ts";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { tenant } from "../../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";
const COOKIE = "__Host-svc_session";

describeEachDialect("pre-sessions", (dialect) => {
  let t: TestApp;
  const clock = new FakeClock(Date.parse("2026-03-02T09:00:00Z"));
  beforeAll(async () => {
    t = await webApp(dialect, { clock });
  });
  afterAll(() => t.close());

  const rows = async () =>
    Number(
      (
        await t.app.db
          .selectFrom("web_sessions")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test("cookie-less visits to the sign-in pages store nothing", async () => {
    const before = await rows();
    for (let i = 0; i < 200; i++) {
      const r = await new TestBrowser(t).get(["/signin", "/reset", "/signin"][i % 3]!);
      expect(r.status).toBe(200);
      expect(r.headers.getSetCookie().some((c) => c.startsWith(`${COOKIE}=p1.`))).toBe(true);
    }
    // Passkey options too: the challenge goes into the cookie, not a row.
    const b = new TestBrowser(t);
    await b.get("/signin");
    const opt = await b.request("POST", "/signin/passkey/options", {
      body: "{}",
      headers: {
        "content-type": "application/json",
        "x-csrf-token": b.csrf,
        "sec-fetch-site": "same-origin",
        origin: "http://localhost",
      },
    });
    expect(opt.status).toBe(200);
    expect(b.cookies.get(COOKIE)).toContain(JSON.parse(opt.html).challenge);
    expect(await rows()).toBe(before);
  });

  test("signing in from a pre-session works and stores exactly the signed-in session", async () => {
    const a = await tenant(t.app);
    const before = await rows();
    const b = new TestBrowser(t);
    await b.get("/signin");
    const pre = b.cookies.get(COOKIE)!;
    const r = await b.post("/signin", { email: a.email, password: PASSWORD });
    expect(r.location).toBe("/home");
    expect(b.cookies.get(COOKIE)).not.toBe(pre);
    expect(b.cookies.get(COOKIE)).toHaveLength(40);
    expect(await rows()).toBe(before + 1);
  });

  test("the CSRF token is bound to its pre-session; a forged, altered or expired token is no session", async () => {
    const a = await tenant(t.app);
    const mine = new TestBrowser(t);
    await mine.get("/signin");
    const other = new TestBrowser(t);
    await other.get("/signin");
    // Another pre-session's token with my cookie.
    mine.csrf = other.csrf;
    expect((await mine.post("/signin", { email: a.email, password: PASSWORD })).html).toContain(
      "csrf_invalid",
    );

    // A token whose parts were changed (a longer expiry, another challenge) fails its signature.
    const b = new TestBrowser(t);
    await b.get("/signin");
    const [p, nonce, exp, ch, at, mac] = b.cookies.get(COOKIE)!.split(".");
    for (const forged of [
      [p, nonce, String(Number(exp) + 86400_000), ch, at, mac],
      [p, nonce, exp, "Y2hvc2VuLWJ5LXRoZS1jbGllbnQ", String(clock.now()), mac],
      [p, "A".repeat(32), exp, ch, at, mac],
    ]) {
      const f = new TestBrowser(t);
      f.cookies.set(COOKIE, forged.join("."));
      f.csrf = b.csrf;
      const r = await f.post("/signin", { email: a.email, password: PASSWORD });
      expect(r.status).toBe(403);
      expect(r.html).toContain("csrf_invalid");
    }

    // Two hours on, the pre-session has ended: a post with it is refused, and a new one is handed out.
    clock.advance(2 * 3600_000 + 1);
    const late = await b.post("/signin", { email: a.email, password: PASSWORD });
    expect(late.status).toBe(403);
    expect((await b.get("/signin")).status).toBe(200);
    expect((await b.post("/signin", { email: a.email, password: PASSWORD })).location).toBe("/home");
  });
});
