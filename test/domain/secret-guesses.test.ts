// The secret-guess counter in the domain: concurrent guesses cannot slip past the ceiling (each is counted
// before its secret is checked), a right guess of one kind leaves other kinds' counts alone, a password reset
// ends the pause, and sessions.prune deletes counts a day old.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sha256hex } from "../../src/crypto/hash.ts";
import {
  accountSubject,
  beginGuess,
  emailSubject,
  GUESS_LIMITS,
} from "../../src/domain/identity/guesses/guard.ts";
import { resetPasswordWithLink } from "../../src/domain/identity/passwords/service.ts";
import type { Session } from "../../src/domain/identity/sessions/service.ts";
import { signInWithPassword } from "../../src/domain/identity/sessions/signin.ts";
import { FakeClock } from "../../src/lib/clock.ts";
import { ServiceError } from "../../src/lib/errors.ts";
import { sessionsPrune } from "../../src/queue/tasks/sessions-prune.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { tenant } from "../helpers/factories.ts";

describeEachDialect("secret guesses (domain)", (dialect) => {
  let t: TestApp;
  const clock = new FakeClock(Date.parse("2026-03-02T09:00:00Z"));
  beforeAll(async () => {
    t = await testApp(dialect, { clock });
  });
  afterAll(() => t.close());

  test("30 wrong passwords at once from one address: at most ten are checked, the rest are refused unchecked", async () => {
    const a = await tenant(t.app);
    const meta = { ip: "203.0.113.30", userAgent: null };
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        signInWithPassword(t.app, {} as Session, { email: a.email, password: `wrong ${i}` }, meta).then(
          () => "signed in",
          (e) => (e instanceof ServiceError ? e.code : String(e)),
        ),
      ),
    );
    const checked = results.filter((r) => r === "sign_in_failed").length;
    expect(checked).toBeLessThanOrEqual(GUESS_LIMITS.password.perAddress);
    expect(results.filter((r) => r === "account_locked").length).toBe(30 - checked);
  });

  test("a right guess of one kind does not clear another kind; matched guesses do not wipe out wrong ones", async () => {
    const subject = accountSubject("usr_test_kinds");
    const g = { subject, address: "203.0.113.31" };
    for (let i = 0; i < 9; i++) await (await beginGuess(t.app, { kind: "second_factor", ...g })).wrong();
    await (await beginGuess(t.app, { kind: "current_password", ...g })).right();
    const tenth = await beginGuess(t.app, { kind: "second_factor", ...g });
    expect(tenth.lockedUntil).toBeNull();
    expect(await tenth.wrong()).toBe(clock.now() + 15 * 60_000);
    expect((await beginGuess(t.app, { kind: "second_factor", ...g })).lockedUntil).toBe(
      clock.now() + 15 * 60_000,
    );

    const u = {
      kind: "user_code" as const,
      subject: accountSubject("usr_test_codes"),
      address: "203.0.113.32",
    };
    for (let i = 0; i < 9; i++) {
      await (await beginGuess(t.app, u)).wrong();
      await (await beginGuess(t.app, u)).matched();
    }
    expect(await (await beginGuess(t.app, u)).wrong()).not.toBeNull();
  });

  test("a password reset through the emailed link ends the pause of password sign-in", async () => {
    const a = await tenant(t.app);
    const meta = { ip: "203.0.113.34", userAgent: null };
    const attempt = (password: string) =>
      signInWithPassword(t.app, {} as Session, { email: a.email, password }, meta).then(
        () => "signed in",
        (e) => (e instanceof ServiceError ? e.code : String(e)),
      );
    for (let i = 0; i < GUESS_LIMITS.password.perAddress; i++) await attempt(`wrong ${i}`);
    expect(await attempt("another wrong one")).toBe("account_locked");
    const token = "r".repeat(40);
    await t.app.db
      .insertInto("password_resets")
      .values({
        id: "pwreset_test",
        user_id: a.userId,
        token_hash: sha256hex(`password_reset:${token}`),
        expires_at: clock.now() + 60_000,
        used_at: null,
        created_at: clock.now(),
      })
      .execute();
    await resetPasswordWithLink(t.app, { token, password: "a brand new passphrase" });
    // Not paused any more: the wrong password is checked (and refused as wrong), not refused unchecked.
    expect(await attempt("still wrong")).toBe("sign_in_failed");
  });

  test("counts start over after the window; sessions.prune deletes counts untouched for a day", async () => {
    const g = {
      kind: "password" as const,
      subject: emailSubject("Window@Example.com"),
      address: "203.0.113.33",
    };
    for (let i = 0; i < 9; i++) await (await beginGuess(t.app, g)).wrong();
    clock.advance(15 * 60_000);
    // Nine wrong, then the window passed: the next wrong one starts a new count instead of pausing.
    expect(await (await beginGuess(t.app, g)).wrong()).toBeNull();
    const rows = () =>
      t.app.db.selectFrom("secret_guesses").select("address").where("subject", "=", g.subject).execute();
    expect((await rows()).length).toBe(2);
    clock.advance(86400_000 + 1);
    await sessionsPrune.run(t.app);
    expect(await rows()).toEqual([]);
  });
});
