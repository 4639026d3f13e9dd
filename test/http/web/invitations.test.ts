// Invitations prove the address (issue item 27) and sign the person in (item 7). The link an admin is shown
// cannot make an account for the address (someone else's choice of password), and the invitation page tells its
// holder nothing about whether the address has an account on this install; the proof comes only through the
// invited address's mailbox, or by signing in as its account. Joining lands the person on Home, signed in, in the
// org they joined.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "kysely";
import { createOrgAsOperator } from "../../../src/domain/operator/create.ts";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant, userToken } from "../../helpers/factories.ts";
import { type SmtpReceiver, smtpReceiver } from "../../helpers/smtp.ts";

const PASSWORD = "correct horse battery staple";

describeEachDialect("invitations prove the address and sign in", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let smtp: SmtpReceiver;
  let owner: string;
  beforeAll(async () => {
    smtp = await smtpReceiver();
    t = await webApp(dialect, { env: smtp.env });
    a = await tenant(t.app, "Inviting Org");
    owner = (await userToken(t.app, a.userId)).secret;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const invite = async (email: string, role = "editor", send_email = false) => {
    const r = await t.request("POST", "/v1/invitations", { key: owner, body: { email, role, send_email } });
    expect(r.status).toBe(201);
    return { id: r.body.id as string, url: r.body.url as string, path: new URL(r.body.url).pathname };
  };
  const userNamed = (email: string) =>
    t.app.db
      .selectFrom("users")
      .select(["id", "password_hash"])
      .where("email", "=", email)
      .executeTakeFirst();
  /** The page with what differs by invitation (token, address, CSRF token) blanked out. */
  const shape = (html: string, email: string) =>
    html
      .replaceAll(email, "EMAIL")
      .replace(/\/invite\/[0-9A-Za-z]+/g, "/invite/TOKEN")
      .replace(/[A-Za-z0-9_-]{43}/g, "CSRF");

  test("the admin's link makes no account: the page asks for proof, the same for any address", async () => {
    const fresh = `fresh-${dialect}@example.com`;
    const other = await tenant(t.app, "Other Install Org");
    const forNew = await invite(fresh);
    const forExisting = await invite(other.email);
    // The admin holding the links (or anyone) sees the same page for an address with and without an account.
    const admin = new TestBrowser(t);
    await admin.signIn(a.email, PASSWORD);
    const guest = new TestBrowser(t);
    const pNew = await guest.get(forNew.path);
    const pExisting = await guest.get(forExisting.path);
    expect(pNew.html).toContain('id="invite-prove-form"');
    // Its one password field is an existing account's own (a counted sign-in guess): nothing makes an account.
    expect(pNew.html).not.toContain("new-password");
    expect(pNew.html).not.toContain('name="name"');
    expect(shape(pNew.html, fresh)).toBe(shape(pExisting.html, other.email));
    const aNew = await admin.get(forNew.path);
    const aExisting = await admin.get(forExisting.path);
    expect(aNew.html).toContain('id="invite-signout"');
    expect(shape(aNew.html, fresh)).toBe(shape(aExisting.html, other.email));

    // Posting a password to the link is refused (the sign-in's answer to a wrong password), and says nothing
    // about the address either.
    await guest.get(forNew.path);
    const rNew = await guest.post(forNew.path, { password: "the holder's choice" });
    await guest.get(forExisting.path);
    const rExisting = await guest.post(forExisting.path, { password: "the holder's choice" });
    expect([rNew.status, rExisting.status]).toEqual([401, 401]);
    expect(shape(rNew.html, fresh)).toBe(shape(rExisting.html, other.email));
    expect(await userNamed(fresh)).toBeUndefined();

    // Asking for the link answers the same for both addresses.
    await guest.get(forNew.path);
    const sNew = await guest.post(`${forNew.path}/confirm`, {});
    await guest.get(forExisting.path);
    const sExisting = await guest.post(`${forExisting.path}/confirm`, {});
    expect(sNew.html).toContain("We sent a link to");
    expect(shape(sNew.html, fresh)).toBe(shape(sExisting.html, other.email));
    // The mailbox learns which: a link to make the account, or a reminder to sign in (no proof in it).
    const made = await smtp.waitFor(fresh, /Join Inviting Org/);
    expect(made.text).toMatch(new RegExp(`${forNew.url}/p/[0-9A-Za-z]{40}`));
    const reminder = await smtp.waitFor(other.email, /Join Inviting Org/);
    expect(reminder.text).toContain("You already have an account");
    expect(reminder.text).not.toContain("/p/");
  });

  test("the mailed link makes the account and signs in; the proof works for its own invitation only", async () => {
    const who = `proven-${dialect}@example.com`;
    const inv = await invite(who, "viewer");
    const elsewhere = await invite(`unrelated-${dialect}@example.com`);
    const b = new TestBrowser(t);
    await b.get(inv.path);
    await b.post(`${inv.path}/confirm`, {});
    const mail = await smtp.waitFor(who, /Join Inviting Org/);
    const proofPath = new RegExp(`http://localhost:8080(${inv.path}/p/[0-9A-Za-z]+)`).exec(mail.text)![1]!;
    const proof = proofPath.split("/").pop()!;
    // Another invitation's link with this proof, or this link with a wrong one: still only the proof step.
    expect((await b.get(`${elsewhere.path}/p/${proof}`)).html).toContain('id="invite-prove-form"');
    expect((await b.get(`${inv.path}/p/${"x".repeat(40)}`)).html).toContain('id="invite-prove-form"');
    expect((await b.post(`${elsewhere.path}/p/${proof}`, { password: "a long passphrase" })).status).toBe(
      401,
    );
    expect(await userNamed(`unrelated-${dialect}@example.com`)).toBeUndefined();

    const form = await b.get(proofPath);
    expect(form.html).toContain('name="password"');
    const done = await b.post(proofPath, { password: "my own passphrase", name: "Proven" });
    // Signed in at once: Home, in the org joined (no "sign in", no "your session ended").
    expect([done.status, done.location]).toEqual([303, "/home"]);
    const home = await b.follow(done);
    expect(home.status).toBe(200);
    expect(home.html).toContain("You joined the org");
    expect(home.html).toContain("Inviting Org");
    const user = (await userNamed(who))!;
    const session = await t.app.db
      .selectFrom("web_sessions")
      .select(["org_id", "stage", "confirmed_at"])
      .where("user_id", "=", user.id)
      .where("revoked_at", "is", null)
      .executeTakeFirstOrThrow();
    expect(session).toMatchObject({ org_id: a.orgId, stage: "active" });
    expect(session.confirmed_at).not.toBeNull();
    // The link is spent; the audit says how the address was proven.
    expect((await b.get(proofPath)).status).toBe(404);
    const row = await t.app.db
      .selectFrom("audit_events")
      .select("detail")
      .where("action", "=", "invitation.accept")
      .where("target", "=", inv.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.detail!)).toMatchObject({ created_account: true, proven_by: "mailed_link" });
  });

  test("an emailed invitation carries the proof: one step from the mail", async () => {
    const who = `emailed-${dialect}@example.com`;
    const inv = await invite(who, "editor", true);
    const mail = await smtp.waitFor(who, /invited to Inviting Org/);
    const proofPath = new RegExp(`http://localhost:8080(${inv.path}/p/[0-9A-Za-z]+)`).exec(mail.text)![1]!;
    const b = new TestBrowser(t);
    await b.get(proofPath);
    const done = await b.post(proofPath, { password: "emailed passphrase" });
    expect(done.location).toBe("/home");
    expect((await b.follow(done)).status).toBe(200);
  });

  test("an existing account joins signed in, and its session moves to the org joined", async () => {
    const other = await tenant(t.app, "Home Org");
    const inv = await invite(other.email, "viewer");
    const o = new TestBrowser(t);
    await o.signIn(other.email, PASSWORD);
    const page = await o.get(inv.path);
    expect(page.html).toContain('id="invite-accept-form"');
    const joined = await o.post(inv.path, {});
    expect([joined.status, joined.location]).toEqual([303, "/home"]);
    expect((await o.follow(joined)).html).toContain("You joined the org");
    const session = await t.app.db
      .selectFrom("web_sessions")
      .select("org_id")
      .where("user_id", "=", other.userId)
      .where("revoked_at", "is", null)
      .where("stage", "=", "active")
      .executeTakeFirstOrThrow();
    expect(session.org_id).toBe(a.orgId);
  });

  test("joining an org that requires two-factor signs in to set it up first", async () => {
    const strict = await tenant(t.app, "Strict Inviting Org");
    await sql`UPDATE orgs SET require_mfa = 1 WHERE id = ${strict.orgId}`.execute(t.app.db);
    const tok = (await userToken(t.app, strict.userId)).secret;
    const who = `strict-${dialect}@example.com`;
    const r = await t.request("POST", "/v1/invitations", {
      key: tok,
      body: { email: who, role: "viewer", send_email: true },
      headers: { "Svc-Org": strict.orgId },
    });
    const path = new URL(r.body.url).pathname;
    const mail = await smtp.waitFor(who, /invited to Strict Inviting Org/);
    const proofPath = new RegExp(`http://localhost:8080(${path}/p/[0-9A-Za-z]+)`).exec(mail.text)![1]!;
    const b = new TestBrowser(t);
    await b.get(proofPath);
    const done = await b.post(proofPath, { password: "strict passphrase" });
    expect(done.location).toBe("/account/security");
    expect((await b.get("/home")).location).toBe("/account/security");
  });

  test("an invitation the operator made is vouched for: its link makes the account", async () => {
    const made = await createOrgAsOperator(
      t.app,
      { kind: "operator", operatorKeyId: "opkey_test", name: "test operator", requestId: "req_test" },
      { name: `Hosted ${dialect}`, owner_email: `founder-${dialect}@example.com` },
    );
    const path = new URL(made.owner_invitation.url!).pathname;
    const b = new TestBrowser(t);
    const page = await b.get(path);
    expect(page.html).toContain('name="password"');
    const done = await b.post(path, { password: "founder passphrase" });
    expect(done.location).toBe("/home");
  });
});
