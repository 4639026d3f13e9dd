// A passkey signs in alone, so one an intruder added must not outlive the reset meant to lock them out (issue item
// 24): the reset page lists the account's passkeys and removes every one the person does not tick as theirs, and
// "sign out everywhere" on the Sessions page does the same beside ending every other browser and CLI.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "kysely";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { member, type Tenant, tenant, userToken } from "../../helpers/factories.ts";
import { type SmtpReceiver, smtpReceiver } from "../../helpers/smtp.ts";

const PASSWORD = "correct horse battery staple";

describeEachDialect("passkeys after a reset or signing out everywhere", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await smtpReceiver();
    t = await webApp(dialect, { env: smtp.env });
    a = await tenant(t.app, "Passkey Reset Org");
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const userId = async (email: string) =>
    (await t.app.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;

  /** A stored passkey (registering one through a real authenticator is the Chromium test's part). */
  const passkey = (uid: string, id: string, name: string) =>
    t.app.db
      .insertInto("passkeys")
      .values({
        id,
        user_id: uid,
        name,
        public_key: "AAAA",
        counter: 0,
        transports: null,
        created_at: t.app.clock.now(),
        last_used_at: null,
      })
      .execute();
  const passkeysOf = async (uid: string) =>
    (
      await t.app.db.selectFrom("passkeys").select("id").where("user_id", "=", uid).orderBy("id").execute()
    ).map((r) => r.id);

  async function resetLink(who: string): Promise<string> {
    const b = new TestBrowser(t);
    await b.get("/reset");
    await b.post("/reset", { email: who });
    const mail = await smtp.waitFor(who, /Reset your svc password/);
    return /http:\/\/localhost:8080(\/reset\/[0-9A-Za-z]+)/.exec(mail.text)![1]!;
  }

  test("the reset page asks about each passkey; the ones not kept are removed, with every session", async () => {
    const who = `pk-reset-${dialect}@example.com`;
    await member(t.app, a.orgId, who, "editor");
    const uid = await userId(who);
    // The intruder's browser, signed in (before the passkeys exist: with one, sign-in would ask for it).
    const intruder = new TestBrowser(t);
    await intruder.signIn(who, PASSWORD);
    expect((await intruder.get("/home")).status).toBe(200);
    await passkey(uid, `pk-mine-${dialect}`, "My <b>phone</b>");
    await passkey(uid, `pk-theirs-${dialect}`, "Intruder's key");
    await t.app.db
      .insertInto("recovery_codes")
      .values({ user_id: uid, hash: `h-${dialect}`, used_at: null, created_at: 0 })
      .execute();

    const path = await resetLink(who);
    const b = new TestBrowser(t);
    const form = await b.get(path);
    expect(form.html).toContain('id="keep-passkeys"');
    expect(form.html).toContain("My &lt;b&gt;phone&lt;/b&gt;");
    expect(form.html).toContain("Intruder&#39;s key");
    // Nothing is ticked: a passkey stays only when the person says so.
    expect(form.html).not.toMatch(/name="keep_passkey"[^>]*checked/);
    const done = await b.post(path, {
      password: "a brand new passphrase",
      keep_passkey: `pk-mine-${dialect}`,
    });
    expect(done.status).toBe(303);

    expect(await passkeysOf(uid)).toEqual([`pk-mine-${dialect}`]);
    // A factor is left, so the recovery codes stay.
    expect(
      (await t.app.db.selectFrom("recovery_codes").select("hash").where("user_id", "=", uid).execute())
        .length,
    ).toBe(1);
    expect((await intruder.get("/home")).location).toBe("/signin");
    const audit = await t.app.db
      .selectFrom("audit_events")
      .select(["action", "detail"])
      .where("user_id", "=", uid)
      .where("action", "in", ["account.passkey_removed", "account.password_reset"])
      .orderBy("created_at")
      .execute();
    expect(audit.map((r) => [r.action, JSON.parse(r.detail!)])).toEqual([
      ["account.passkey_removed", { passkey: `pk-theirs-${dialect}`, reason: "password_reset" }],
      ["account.password_reset", { tokens_revoked: 0, passkeys_removed: 1 }],
    ]);
  });

  test("a reset keeping nothing removes every passkey and, with no factor left, the recovery codes", async () => {
    const who = `pk-reset2-${dialect}@example.com`;
    await member(t.app, a.orgId, who, "viewer");
    const uid = await userId(who);
    await passkey(uid, `pk-a-${dialect}`, "one");
    await passkey(uid, `pk-b-${dialect}`, "two");
    await t.app.db
      .insertInto("recovery_codes")
      .values({ user_id: uid, hash: `h2-${dialect}`, used_at: null, created_at: 0 })
      .execute();
    const path = await resetLink(who);
    const b = new TestBrowser(t);
    await b.get(path);
    // Another person's passkey ID sent along keeps nothing of theirs and removes nothing of theirs.
    await passkey(a.userId, `pk-owner-${dialect}`, "owner's");
    expect(
      (await b.post(path, { password: "a brand new passphrase", keep_passkey: `pk-owner-${dialect}` }))
        .status,
    ).toBe(303);
    expect(await passkeysOf(uid)).toEqual([]);
    expect(await passkeysOf(a.userId)).toEqual([`pk-owner-${dialect}`]);
    expect(
      await t.app.db.selectFrom("recovery_codes").select("hash").where("user_id", "=", uid).execute(),
    ).toEqual([]);
  });

  test("sign out everywhere: other browsers and CLIs end, unkept passkeys go, this browser stays", async () => {
    const who = `pk-everywhere-${dialect}@example.com`;
    await member(t.app, a.orgId, who, "editor");
    const uid = await userId(who);
    const tok = await userToken(t.app, uid);
    const other = new TestBrowser(t);
    await other.signIn(who, PASSWORD);
    const b = new TestBrowser(t);
    await b.signIn(who, PASSWORD);
    await passkey(uid, `pk-keep-${dialect}`, "keep me");
    await passkey(uid, `pk-drop-${dialect}`, "drop me");
    // Sudo mode: past the window the password is asked, and without it nothing happens.
    await sql`UPDATE web_sessions SET confirmed_at = 0 WHERE user_id = ${uid}`.execute(t.app.db);
    const page = await b.get("/account/sessions");
    expect(page.html).toContain('id="everywhere-form"');
    expect(page.html).toContain("drop me");
    expect(page.html).toContain('name="password"');
    const refused = await b.post("/account/sessions/everywhere", { keep_passkey: `pk-keep-${dialect}` });
    expect(refused.status).toBe(403);
    expect(await passkeysOf(uid)).toEqual([`pk-drop-${dialect}`, `pk-keep-${dialect}`]);
    expect((await other.get("/home")).status).toBe(200);

    const done = await b.post("/account/sessions/everywhere", {
      keep_passkey: `pk-keep-${dialect}`,
      password: PASSWORD,
    });
    expect(done.status).toBe(303);
    expect((await b.follow(done)).html).toContain("Every other browser and command line is signed out");
    expect(await passkeysOf(uid)).toEqual([`pk-keep-${dialect}`]);
    expect((await other.get("/home")).location).toBe("/signin");
    expect((await t.request("GET", "/v1/me", { key: tok.secret })).body.code).toBe("user_token_invalid");
    expect((await b.get("/home")).status).toBe(200);
  });

  test("sign out everywhere will not leave this browser without the factor an org requires", async () => {
    const org = await tenant(t.app, "Strict Org");
    const b = new TestBrowser(t);
    await b.signIn(org.email, PASSWORD);
    // Added after sign-in (the Security page's part); the org then requires two-factor.
    await passkey(org.userId, `pk-only-${dialect}`, "only one");
    await sql`UPDATE orgs SET require_mfa = 1 WHERE id = ${org.orgId}`.execute(t.app.db);
    const other = new TestBrowser(t);
    await other.signIn(org.email, PASSWORD);
    const r = await b.post("/account/sessions/everywhere", {});
    expect(r.status).toBe(409);
    expect(r.html).toContain("requires two-factor sign-in");
    // Nothing happened: the passkey and the other session (halfway through sign-in) are as they were.
    expect(await passkeysOf(org.userId)).toEqual([`pk-only-${dialect}`]);
    expect((await other.get("/signin/two-factor")).status).toBe(200);
    expect(
      (await b.post("/account/sessions/everywhere", { keep_passkey: `pk-only-${dialect}` })).status,
    ).toBe(303);
  });
});
