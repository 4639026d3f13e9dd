// Every guess at a secret is counted in the database, per account and per client address (guesses/guard.ts):
// passwords at sign-in (known and unknown addresses answered alike), second-factor codes (a right password no
// longer forgives wrong codes), the current password at /account/password and in sudo mode, and a CLI
// sign-in's user code on /device. A guesser locks only their own address out; the person signs in from theirs,
// and while paused the password together with a code still works.
import { afterAll, beforeAll, expect, test } from "bun:test";
import * as OTPAuth from "otpauth";
import { GUESS_LIMITS } from "../../../src/domain/identity/guesses/guard.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant, userToken } from "../../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";
const codeFor = (secret: string, at: number) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: at, digits: 6, period: 30 });

let ips = 0;

/** The error shown beside a field of the page. */
const errorText = (html: string) =>
  [...html.matchAll(/id="f-[a-z_]+-error">\s*([^<]*)</g)].map((m) => m[1]!.trim()).join(" ");

describeEachDialect("secret guesses", (dialect) => {
  let t: TestApp;
  const clock = new FakeClock(Date.parse("2026-03-02T09:00:00Z"));
  beforeAll(async () => {
    t = await webApp(dialect, { clock });
  });
  afterAll(() => t.close());

  /** A browser at a fixed address; each request waits out the per-address rate limit (one every 6 s). */
  function from(ip = `192.0.2.${++ips}`) {
    const b = new TestBrowser(t);
    b.headers["x-client-ip"] = ip;
    const request = b.request.bind(b);
    b.request = (method, path, init) => {
      clock.advance(6_001);
      return request(method, path, init);
    };
    return b;
  }

  async function withTotp(a: Tenant) {
    const b = from();
    await b.signIn(a.email, PASSWORD);
    await b.post("/account/security/totp/start", {});
    // Shown in groups of four: the spaces are not part of the secret.
    const shown = /id="totp-secret">([A-Z2-7 ]+)</.exec((await b.get("/account/security")).html)![1]!;
    const secret = shown.replaceAll(" ", "");
    const done = await b.post("/account/security/totp/confirm", { code: codeFor(secret, clock.now()) });
    expect(done.status).toBe(200);
    return secret;
  }

  test("ten wrong passwords pause that address for 15 minutes; an unknown address gets the very same answers", async () => {
    const a = await tenant(t.app);
    const answers = async (email: string) => {
      const b = from();
      await b.get("/signin");
      const out: { status: number; text: string; retry: string | null }[] = [];
      for (let i = 0; i < GUESS_LIMITS.password.perAddress + 1; i++) {
        const r = await b.post("/signin", { email, password: `wrong ${i}` });
        out.push({ status: r.status, text: errorText(r.html), retry: r.headers.get("retry-after") });
      }
      // Then the right password (an account's) is refused from here too, without being checked.
      const right = await b.post("/signin", { email, password: PASSWORD });
      out.push({ status: right.status, text: "", retry: right.headers.get("retry-after") });
      return { out, b };
    };
    const known = await answers(a.email);
    const unknown = await answers("nobody-at-all@example.com");
    expect(known.out.map((x) => x.status)).toEqual([
      401, 401, 401, 401, 401, 401, 401, 401, 401, 429, 429, 429,
    ]);
    expect(unknown.out.map((x) => x.status)).toEqual(known.out.map((x) => x.status));
    expect(unknown.out.map((x) => x.text)).toEqual(known.out.map((x) => x.text));
    // The pause says 15 minutes when it starts (not 16), with the Retry-After to match.
    expect(known.out[9]!.text).toContain("paused for 15 more minutes");
    expect(known.out[9]!.retry).toBe("900");
    expect(unknown.out[9]!.retry).toBe("900");
    expect((await known.b.get("/home")).location).toBe("/signin");

    // The person, from their own address, is not locked out by the guesser.
    const person = from();
    expect((await person.signIn(a.email, PASSWORD)).status).toBe(200);
    expect((await person.get("/home")).status).toBe(200);

    // Once the pause ends, the guesser's address may try again.
    clock.advance(15 * 60_000);
    expect((await known.b.signIn(a.email, PASSWORD)).status).toBe(200);
  });

  test("the pause is counted in the database: a second process sees it for the same address", async () => {
    const a = await tenant(t.app);
    const t2 = await webApp(dialect, { env: { SVC_MASTER_KEYS: t.masterKeys }, url: t.dbUrl, clock });
    try {
      const ip = "192.0.2.250";
      for (let i = 0; i < GUESS_LIMITS.password.perAddress; i++) {
        const b = new TestBrowser(i % 2 ? t2 : t);
        b.headers["x-client-ip"] = ip;
        clock.advance(6_001);
        await b.get("/signin");
        const r = await b.post("/signin", { email: a.email, password: `wrong ${i}` });
        expect(r.status).toBe(i === GUESS_LIMITS.password.perAddress - 1 ? 429 : 401);
      }
      const b = new TestBrowser(t2);
      b.headers["x-client-ip"] = ip;
      await b.get("/signin");
      const r = await b.post("/signin", { email: a.email, password: PASSWORD });
      expect(r.status).toBe(429);
      expect(r.html).toContain("paused");
      expect((await b.get("/home")).location).toBe("/signin");
    } finally {
      await t2.close();
    }
  });

  test("while paused, the password together with a code signs in; a wrong code gets the same pause", async () => {
    const a = await tenant(t.app);
    const secret = await withTotp(a);
    const b = from();
    await b.get("/signin");
    for (let i = 0; i < GUESS_LIMITS.password.perAddress; i++)
      await b.post("/signin", { email: a.email, password: `wrong ${i}` });
    const paused = await b.post("/signin", { email: a.email, password: PASSWORD });
    expect(paused.status).toBe(429);
    // The page offers the code field (for any address: it says nothing about the account).
    expect(paused.html).toContain('name="code"');
    const wrongCode = await b.post("/signin", { email: a.email, password: PASSWORD, code: "000000" });
    expect(wrongCode.status).toBe(429);
    const wrongPassword = await b.post("/signin", {
      email: a.email,
      password: "not it at all",
      code: codeFor(secret, clock.now()),
    });
    expect(wrongPassword.status).toBe(429);
    expect(errorText(wrongPassword.html)).toBe(errorText(wrongCode.html));
    expect(errorText(wrongCode.html)).toContain("paused");
    clock.advance(30_000);
    const ok = await b.post("/signin", {
      email: a.email,
      password: PASSWORD,
      code: codeFor(secret, clock.now()),
    });
    expect(ok.status).toBe(303);
    expect(ok.location).toBe("/home");
    expect((await b.get("/home")).status).toBe(200);
  });

  test("second-factor codes: a right password no longer starts the count over; ten wrong codes pause codes", async () => {
    const a = await tenant(t.app);
    const secret = await withTotp(a);
    const b = from();
    const statuses: number[] = [];
    // Four wrong codes after each right password, three times over: the 10th wrong code pauses.
    for (let round = 0; round < 3; round++) {
      const step = await b.signIn(a.email, PASSWORD);
      expect(step.html).toContain('name="code"');
      for (let i = 0; i < 4; i++)
        statuses.push((await b.post("/signin/two-factor", { code: "000000" })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 429, 429, 429]);
    await b.signIn(a.email, PASSWORD);
    const right = await b.post("/signin/two-factor", { code: codeFor(secret, clock.now()) });
    expect(right.status).toBe(429);
    expect(right.html).toContain("A passkey still signs you in");
    expect((await b.get("/home")).location).toBe("/signin/two-factor");
  });

  test("second-factor codes from many addresses stop at the account's ceiling", async () => {
    const a = await tenant(t.app);
    const secret = await withTotp(a);
    const statuses: number[] = [];
    while (statuses.length < GUESS_LIMITS.second_factor.perAccount + 1) {
      const b = from();
      await b.signIn(a.email, PASSWORD);
      for (let i = 0; i < 7 && statuses.length < GUESS_LIMITS.second_factor.perAccount + 1; i++)
        statuses.push((await b.post("/signin/two-factor", { code: "000000" })).status);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(GUESS_LIMITS.second_factor.perAccount - 1);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    // The person's right code is paused too, from anywhere, until the pause ends.
    const person = from();
    await person.signIn(a.email, PASSWORD);
    expect((await person.post("/signin/two-factor", { code: codeFor(secret, clock.now()) })).status).toBe(
      429,
    );
    clock.advance(15 * 60_000);
    await person.signIn(a.email, PASSWORD);
    const ok = await person.post("/signin/two-factor", { code: codeFor(secret, clock.now()) });
    expect(ok.location).toBe("/home");
  });

  test("the current password at /account/password and in sudo mode is one counted guess", async () => {
    const a = await tenant(t.app);
    const b = from();
    await b.signIn(a.email, PASSWORD);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (
          await b.post("/account/password", {
            current_password: `wrong ${i}`,
            password: "a new passphrase here",
            password_confirm: "a new passphrase here",
          })
        ).status,
      );
    // Sudo confirmations count with them (the device page's password field).
    await t.app.db.updateTable("web_sessions").set({ confirmed_at: 0 }).execute();
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await b.post("/device/approve", { user_code: "BCDF-GHJK", password: `wrong ${i}` })).status,
      );
    expect(statuses).toEqual([422, 422, 422, 422, 422, 422, 401, 401, 401, 429]);
    const right = await b.post("/account/password", {
      current_password: PASSWORD,
      password: "a new passphrase here",
      password_confirm: "a new passphrase here",
    });
    expect(right.status).toBe(429);
    expect(right.html).toContain("Too many wrong passwords");
    // The password did not change.
    expect((await from().signIn(a.email, PASSWORD)).status).toBe(200);
  });

  test("an invitation accepted signed out: the account's password is a counted sign-in guess", async () => {
    const a = await tenant(t.app);
    const b = await tenant(t.app);
    const inv = await t.request("POST", "/v1/invitations", {
      key: (await userToken(t.app, a.userId)).secret,
      body: { email: b.email, role: "viewer" },
    });
    const path = new URL(inv.body.url).pathname;
    const guest = from();
    await guest.get(path);
    const statuses: number[] = [];
    for (let i = 0; i < GUESS_LIMITS.password.perAddress; i++)
      statuses.push((await guest.post(path, { password: `wrong passphrase ${i}` })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 429]);
    // Paused from this address: the right password does not join either; from another address it does.
    expect((await guest.post(path, { password: PASSWORD })).status).toBe(429);
    const person = from();
    await person.get(path);
    const joined = await person.post(path, { password: PASSWORD });
    // Joining signs in (in the org joined): Home says so.
    expect([joined.status, joined.location]).toEqual([303, "/home"]);
    expect((await person.follow(joined)).html).toContain("You joined");
  });

  test("an invitation accepted signed out: the password alone does not join an account with a second factor", async () => {
    const a = await tenant(t.app);
    const b = await tenant(t.app);
    await withTotp(b);
    const inv = await t.request("POST", "/v1/invitations", {
      key: (await userToken(t.app, a.userId)).secret,
      body: { email: b.email, role: "viewer" },
    });
    const path = new URL(inv.body.url).pathname;
    const guest = from();
    await guest.get(path);
    // Right password: it still asks for the second factor (a sign-in), and joins nothing.
    const refused = await guest.post(path, { password: PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain("second factor");
    const joined = await t.app.db
      .selectFrom("members")
      .select("user_id")
      .where("org_id", "=", a.orgId)
      .where("user_id", "=", b.userId)
      .executeTakeFirst();
    expect(joined).toBeUndefined();
    // A wrong one is the sign-in's answer, as for any address.
    expect((await guest.post(path, { password: "not the passphrase" })).status).toBe(401);
  });

  test("/device: wrong user codes are counted per person and address; the tenth pauses, a right one then too", async () => {
    const a = await tenant(t.app);
    const start = await t.request("POST", "/v1/auth/device", { body: { device_name: "laptop" } });
    const b = from();
    await b.signIn(a.email, PASSWORD);
    const statuses: number[] = [];
    const paths = ["/device", "/device/approve", "/device/deny"];
    for (let i = 0; i < 12; i++) {
      // A real code in between takes back only its own guess: it does not wipe out the wrong ones.
      if (i === 5) expect((await b.post("/device", { user_code: start.body.user_code })).status).toBe(200);
      statuses.push(
        (await b.post(paths[i % 3]!, { user_code: `BCDF-${"GHJK".slice(0, 3)}${"LMNPQRSTVW"[i % 10]}` }))
          .status,
      );
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404, 404, 404, 404, 404, 429, 429, 429]);
    const right = await b.post("/device/approve", { user_code: start.body.user_code });
    expect(right.status).toBe(429);
    expect(right.html).toContain("Too many wrong codes");
    // The CLI's sign-in is still pending: nothing was approved or denied by the guesses.
    const poll = await t.request("POST", "/v1/auth/device/token", {
      body: { device_code: start.body.device_code },
    });
    expect(poll.body.error).toBe("authorization_pending");
  });
});
