// The Org page, in process: every member sees the name, status and note; owners and admins see this month's
// usage against the limits; owners rename the org, follow the Billing link (a signed token checked here by a
// verifier written from the specification's text, and followable while suspended) and delete the org after
// confirming their password and typing its name. The sign-in page links to SVC_SIGNUP_URL when it is set.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHmac, timingSafeEqual } from "node:crypto";
import { sql } from "kysely";
import { adminActor } from "../../../src/domain/actor.ts";
import { createInvitation } from "../../../src/domain/identity/invitations/service.ts";
import { scopesOfRole } from "../../../src/domain/scopes.ts";
import { FakeClock } from "../../../src/lib/clock.ts";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { member, tenant } from "../../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";
const MARKUP = `<img src=x onerror="alert(1)">&<b>`;
const ESCAPED = "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&lt;b&gt;";
const KEY = "billing-link-key-for-the-org-page-tests-0123";
const BILLING = "https://billing.example.com/portal";
const SIGNUP = "https://signup.example.com/start";

/** The billing system's check, from the specification: v1.<payload>.<signature>, HMAC-SHA256 over "v1."+payload. */
function verify(token: string, key: string, nowMs: number): Record<string, unknown> | null {
  const parts = token.split(".");
  if (parts.length !== 3 || parts[0] !== "v1") return null;
  const [, payload, signature] = parts as [string, string, string];
  if (/[=+/]/.test(payload + signature)) return null;
  const want = createHmac("sha256", key).update(`v1.${payload}`).digest();
  const got = Buffer.from(signature, "base64url");
  if (got.length !== want.length || !timingSafeEqual(got, want)) return null;
  const p = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  return typeof p.exp === "number" && p.exp > nowMs / 1000 ? p : null;
}

describeEachDialect("dashboard Org page", (dialect) => {
  let t: TestApp;
  let plain: TestApp;
  const clock = new FakeClock(Date.parse("2026-03-14T09:00:00Z"));
  beforeAll(async () => {
    t = await webApp(dialect, {
      clock,
      env: { SVC_BILLING_URL: BILLING, SVC_BILLING_LINK_KEY: KEY, SVC_SIGNUP_URL: SIGNUP },
    });
    plain = await webApp(dialect, { clock });
  });
  afterAll(async () => {
    await t.close();
    await plain.close();
  });

  const orgRow = (orgId: string) =>
    t.app.db.selectFrom("orgs").select(["id", "name"]).where("id", "=", orgId).executeTakeFirst();

  test("an owner sees usage against limits: each N of LIMIT, or N (no limit)", async () => {
    const a = await tenant(t.app, "Usage Org");
    await t.app.db
      .updateTable("orgs")
      .set({ limit_brands: 3, limit_members: 5, status_note: "Plan: small" })
      .where("id", "=", a.orgId)
      .execute();
    await member(t.app, a.orgId, `ed-${a.orgId}@example.com`, "editor");
    await createInvitation(t.app, adminActor(a.orgId, "test", scopesOfRole("owner")), {
      email: `inv-${a.orgId}@example.com`,
      role: "viewer",
    });
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const page = await b.get("/org");
    expect(page.status).toBe(200);
    expect(page.html).toContain('href="/org" aria-current="page"');
    expect(page.html).toMatch(/id="org-page-name">Usage Org</);
    expect(page.html).toMatch(/id="org-page-status">Active</);
    expect(page.html).toMatch(/id="org-page-note">Plan: small</);
    expect(page.html).toMatch(/id="usage-brands">1 of 3</);
    expect(page.html).toMatch(/id="usage-members">3 of 5</);
    expect(page.html).toMatch(/id="usage-live-channels">0 \(no limit\)</);
    expect(page.html).toMatch(/id="usage-live-posts">0 \(no limit\)</);
    expect(page.html).toContain("2026-03-01 00:00 UTC");
    expect(page.html).toContain('id="org-billing"');
    expect(page.html).toContain('id="org-rename"');
    expect(page.html).toContain('id="org-delete"');
  });

  test("an editor sees the org but no usage, no Billing link and no deletion; their requests are refused", async () => {
    const a = await tenant(t.app, "Editor Org");
    const email = `editor-${a.orgId}@example.com`;
    await member(t.app, a.orgId, email, "editor");
    const b = new TestBrowser(t);
    await b.signIn(email, PASSWORD);
    const page = await b.get("/org");
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/id="org-page-name">Editor Org</);
    expect(page.html).not.toContain('id="usage"');
    expect(page.html).not.toContain("/org/billing");
    expect(page.html).not.toContain('id="org-delete"');
    expect(page.html).not.toContain('id="org-rename"');
    expect((await b.get("/org/billing")).status).toBe(403);
    expect((await b.post("/org/name", { name: "Taken Over" })).status).toBe(403);
    const del = await b.post("/org/delete", { password: PASSWORD, confirm: "Editor Org" });
    expect(del.status).toBe(403);
    expect(await orgRow(a.orgId)).toEqual({ id: a.orgId, name: "Editor Org" });
  });

  test("an admin sees usage but cannot rename, bill or delete", async () => {
    const a = await tenant(t.app, "Admin Org");
    const email = `admin-${a.orgId}@example.com`;
    await member(t.app, a.orgId, email, "admin");
    const b = new TestBrowser(t);
    await b.signIn(email, PASSWORD);
    const page = await b.get("/org");
    expect(page.html).toMatch(/id="usage-brands">1 \(no limit\)</);
    expect(page.html).not.toContain("/org/billing");
    expect(page.html).not.toContain('id="org-delete"');
    expect((await b.get("/org/billing")).status).toBe(403);
  });

  test("Billing redirects to the billing page with a fresh token that verifies", async () => {
    const a = await tenant(t.app, "Paying Org");
    await t.app.db.updateTable("orgs").set({ external_ref: "cus_7" }).where("id", "=", a.orgId).execute();
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const r = await b.get("/org/billing");
    expect(r.status).toBe(303);
    const to = new URL(r.location!);
    expect(to.origin + to.pathname).toBe(BILLING);
    const token = to.searchParams.get("token")!;
    const p = verify(token, KEY, clock.now());
    expect(p).toMatchObject({
      org: a.orgId,
      external_ref: "cus_7",
      user: a.userId,
      email: a.email,
      role: "owner",
    });
    expect(verify(token, `${KEY}x`, clock.now())).toBeNull();
    expect(verify(token, KEY, clock.now() + 301_000)).toBeNull();
    clock.advance(1000);
    const again = new URL((await b.get("/org/billing")).location!).searchParams.get("token");
    expect(again).not.toBe(token);
  });

  test("a suspended org: the owner sees only the notice with the Billing link, and it works", async () => {
    const a = await tenant(t.app, "Paused Org");
    const email = `ed-${a.orgId}@example.com`;
    await member(t.app, a.orgId, email, "editor");
    await sql`UPDATE orgs SET status = 'suspended', status_note = ${"Pay <i>now</i>"} WHERE id = ${a.orgId}`.execute(
      t.app.db,
    );
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const home = await b.get("/home");
    expect(home.html).toContain("This org is suspended by the operator");
    expect(home.html).toContain('id="status-billing"');
    const org = await b.get("/org");
    expect(org.html).toContain("Pay &lt;i&gt;now&lt;/i&gt;");
    expect(org.html).not.toContain('id="usage"');
    expect(org.html).not.toContain('id="org-delete"');
    const r = await b.get("/org/billing");
    expect(r.status).toBe(303);
    const p = verify(new URL(r.location!).searchParams.get("token")!, KEY, clock.now());
    expect(p).toMatchObject({ org: a.orgId, user: a.userId, role: "owner" });
    expect((await b.post("/org/delete", { password: PASSWORD, confirm: "Paused Org" })).status).toBe(403);
    expect(await orgRow(a.orgId)).toBeDefined();

    const ed = new TestBrowser(t);
    await ed.signIn(email, PASSWORD);
    expect((await ed.get("/home")).html).not.toContain("status-billing");
    expect((await ed.get("/org/billing")).status).toBe(403);
  });

  test("a read-only org: the owner sees usage and Billing, but renaming and deleting are refused", async () => {
    const a = await tenant(t.app, "Frozen Org");
    await sql`UPDATE orgs SET status = 'read_only' WHERE id = ${a.orgId}`.execute(t.app.db);
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    const page = await b.get("/org");
    expect(page.html).toContain("Read-only: members can look, but changes are refused");
    expect(page.html).toMatch(/id="usage-brands">1 \(no limit\)</);
    expect(page.html).toContain('id="org-billing"');
    expect(page.html).not.toContain('id="org-rename"');
    expect(page.html).not.toContain('id="org-delete"');
    expect((await b.get("/org/billing")).status).toBe(303);
    const r = await b.post("/org/name", { name: "Thawed" });
    expect(r.status).toBe(403);
    expect(r.html).toContain("read-only");
    expect((await b.post("/org/delete", { password: PASSWORD, confirm: "Frozen Org" })).status).toBe(403);
    expect(await orgRow(a.orgId)).toEqual({ id: a.orgId, name: "Frozen Org" });
  });

  test("without SVC_BILLING_URL there is no Billing link and /org/billing is missing", async () => {
    const a = await tenant(plain.app, "No Billing Org");
    const b = new TestBrowser(plain);
    await b.signIn(a.email, PASSWORD);
    expect((await b.get("/org")).html).not.toContain("/org/billing");
    expect((await b.get("/org/billing")).status).toBe(404);
  });

  test("renaming: owners only, markup kept as text, a bad name refused beside the field", async () => {
    const a = await tenant(t.app, "Rename Org");
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    await b.get("/org");
    const r = await b.post("/org/name", { name: MARKUP });
    expect(r.status).toBe(303);
    const page = await b.follow(r);
    expect(page.html).toContain("Org renamed.");
    expect(page.html).not.toContain(MARKUP);
    expect(page.html).toContain(`id="org-page-name">${ESCAPED}<`);
    expect((await orgRow(a.orgId))!.name).toBe(MARKUP);
    const bad = await b.post("/org/name", { name: "" });
    expect(bad.status).toBe(422);
    expect(bad.html).toContain('id="f-name-error"');
    expect((await orgRow(a.orgId))!.name).toBe(MARKUP);
    const cross = await b.post("/org/name", { name: "Evil" }, { site: "cross-site" });
    expect(cross.status).toBe(403);
    expect((await orgRow(a.orgId))!.name).toBe(MARKUP);
  });

  test("deleting: refused without the password, with a wrong one, or a wrong name; done with both", async () => {
    const a = await tenant(t.app, "Doomed Org");
    const other = await tenant(t.app, "Kept Org");
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    await b.get("/org");

    const noPassword = await b.post("/org/delete", { confirm: "Doomed Org" });
    expect(noPassword.status).toBe(403);
    expect(noPassword.html).toContain("Confirm your password to delete the org.");
    const wrongPassword = await b.post("/org/delete", { password: "not it", confirm: "Doomed Org" });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.html).toContain('id="f-password-error"');
    const wrongName = await b.post("/org/delete", { password: PASSWORD, confirm: "doomed org" });
    expect(wrongName.status).toBe(422);
    expect(wrongName.html).toContain('id="f-confirm-error"');
    expect(await orgRow(a.orgId)).toBeDefined();
    const brands = await t.app.db.selectFrom("brands").select("id").where("org_id", "=", a.orgId).execute();
    expect(brands.length).toBe(1);
    const cross = await b.post(
      "/org/delete",
      { password: PASSWORD, confirm: "Doomed Org" },
      { site: "cross-site" },
    );
    expect(cross.status).toBe(403);
    expect(await orgRow(a.orgId)).toBeDefined();

    const done = await b.post("/org/delete", { password: PASSWORD, confirm: "Doomed Org" });
    expect(done.status).toBe(303);
    expect(done.location).toBe("/org/deleted");
    const after = await b.follow(done);
    expect(after.status).toBe(200);
    expect(after.html).toContain("The org is deleted, with everything in it. Your account remains.");
    expect(await orgRow(a.orgId)).toBeUndefined();
    expect(await t.app.db.selectFrom("brands").select("id").where("org_id", "=", a.orgId).execute()).toEqual(
      [],
    );
    expect((await t.request("GET", "/v1/org", { key: a.testKey })).status).toBe(401);
    // The person keeps the account; the other org is untouched.
    const user = await t.app.db
      .selectFrom("users")
      .select("id")
      .where("id", "=", a.userId)
      .executeTakeFirst();
    expect(user).toEqual({ id: a.userId });
    expect(await orgRow(other.orgId)).toEqual({ id: other.orgId, name: "Kept Org" });
    const audit = await t.app.db
      .selectFrom("audit_events")
      .select("action")
      .where("org_id", "=", a.orgId)
      .where("action", "=", "org.delete")
      .execute();
    expect(audit.length).toBe(1);
    const again = new TestBrowser(t);
    const signedIn = await again.follow(await again.signIn(a.email, PASSWORD));
    expect(signedIn.html).toContain("not a member of any org");
  });

  test("an owner of two orgs goes on in the other one after deleting one", async () => {
    const a = await tenant(t.app, "First Org");
    const second = await tenant(t.app, "Second Org");
    await t.app.db
      .insertInto("members")
      .values({ org_id: second.orgId, user_id: a.userId, role: "owner", created_at: clock.now() })
      .execute();
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    await b.get("/org");
    const done = await b.follow(await b.post("/org/delete", { password: PASSWORD, confirm: "First Org" }));
    expect(done.html).toContain("Go on in Second Org");
    expect((await b.get("/org")).html).toMatch(/id="org-page-name">Second Org</);
  });

  test("the sign-in page links to SVC_SIGNUP_URL only when it is set", async () => {
    const page = await new TestBrowser(t).get("/signin");
    expect(page.html).toContain(`<a href="${SIGNUP}" id="signup-link">Create an account</a>`);
    const none = await new TestBrowser(plain).get("/signin");
    expect(none.html).not.toContain("signup-link");
    expect(none.html).not.toContain("Create an account");
  });
});
