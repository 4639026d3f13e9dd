// The org's status on every dashboard route (issue item 28), by walking the route table the way the API's
// conventions test walks its own: in a read-only org every route that changes the org (or exists only to) answers
// 403 org_read_only; in a suspended org every route that reads or changes it answers 403 org_suspended (its
// members see only the notice); routes that touch only the person or the session work in both. Accepting an
// invitation into such an org is refused too.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "kysely";
import { webRoutes } from "../../../src/http/web/index.tsx";
import type { WebRoute } from "../../../src/http/web/route.ts";
import type { TestApp } from "../../helpers/app.ts";
import { type Page, TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant, userToken } from "../../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";

/**
 * The member routes that touch only the person or the session, reviewed here by name: a new route lands in this
 * list only on purpose.
 */
const PERSONAL = [
  "GET /account/devices",
  "POST /account/devices/:id/revoke",
  "GET /account/password",
  "POST /account/password",
  "GET /account/sessions",
  "POST /account/sessions/:id/revoke",
  "POST /account/sessions/everywhere",
  "GET /device",
  "POST /device",
  "POST /device/approve",
  "POST /device/deny",
  "POST /members/confirm",
  "POST /mode",
  "POST /org",
  "GET /org/billing",
  "GET /notifications/preferences",
  "POST /notifications/preferences",
].sort();

const name = (r: WebRoute) => `${r.method} ${r.path}`;
const members = webRoutes.filter((r) => r.access === "member");
const codeOf = (p: Page) => /<code>([a-z_]+)<\/code>/.exec(p.html)?.[1] ?? null;

describeEachDialect("org status on every dashboard route", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await webApp(dialect);
  });
  afterAll(() => t.close());

  async function signedIn(status: "read_only" | "suspended"): Promise<{ a: Tenant; b: TestBrowser }> {
    const a = await tenant(t.app);
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    await sql`UPDATE orgs SET status = ${status}, status_note = ${"Ask <b>ops</b>"} WHERE id = ${a.orgId}`.execute(
      t.app.db,
    );
    return { a, b };
  }

  const call = (b: TestBrowser, r: WebRoute) => {
    const path = r.path.replace(/:[a-z]+/g, "x_1");
    return r.method === "GET"
      ? b.get(path)
      : b.post(path, { name: "x", email: "x@example.com", role: "viewer" });
  };

  test("every member route says what it does with the org; the personal ones are the reviewed list", () => {
    for (const r of members) expect(["write", "read", "none"]).toContain(r.org);
    expect(
      members
        .filter((r) => r.org === "none")
        .map(name)
        .sort(),
    ).toEqual(PERSONAL);
  });

  test("read-only: every write route is refused with org_read_only; reads and personal routes are not", async () => {
    const { b } = await signedIn("read_only");
    for (const r of members) {
      const p = await call(b, r);
      if (r.org === "write") {
        expect({ route: name(r), status: p.status, code: codeOf(p) }).toEqual({
          route: name(r),
          status: 403,
          code: "org_read_only",
        });
        expect(p.html).toContain("Ask &lt;b&gt;ops&lt;/b&gt;");
      } else
        expect({ route: name(r), code: codeOf(p) }).not.toEqual({ route: name(r), code: "org_read_only" });
    }
  });

  test("suspended: every read and write route shows only the notice; personal routes work", async () => {
    const { b } = await signedIn("suspended");
    for (const r of members) {
      const p = await call(b, r);
      if (r.org !== "none") {
        expect({ route: name(r), status: p.status, code: codeOf(p) }).toEqual({
          route: name(r),
          status: 403,
          code: "org_suspended",
        });
        expect(p.html).toContain('id="org-status"');
        // Nothing of the org's people or keys is on the page.
        expect(p.html).not.toContain('id="invite-form"');
        expect(p.html).not.toContain("test full");
      } else
        expect({ route: name(r), code: codeOf(p) }).not.toEqual({ route: name(r), code: "org_suspended" });
    }
    expect((await b.get("/account/sessions")).status).toBe(200);
  });

  test("the refused forms changed nothing: no invitation, role change, key or rename", async () => {
    for (const status of ["read_only", "suspended"] as const) {
      const { a, b } = await signedIn(status);
      const keysBefore = await t.app.db
        .selectFrom("api_keys")
        .select("id")
        .where("org_id", "=", a.orgId)
        .execute();
      expect((await b.post("/members/invite", { email: "new@example.com", role: "viewer" })).status).toBe(
        403,
      );
      expect((await b.post("/cli", { device: "laptop", livemode: "false" })).status).toBe(403);
      expect((await b.post(`/members/${a.userId}/role`, { role: "viewer" })).status).toBe(403);
      const inv = await t.app.db
        .selectFrom("invitations")
        .select("id")
        .where("org_id", "=", a.orgId)
        .execute();
      expect(inv).toEqual([]);
      expect(
        await t.app.db.selectFrom("api_keys").select("id").where("org_id", "=", a.orgId).execute(),
      ).toEqual(keysBefore);
      const role = await t.app.db
        .selectFrom("members")
        .select("role")
        .where("user_id", "=", a.userId)
        .where("org_id", "=", a.orgId)
        .executeTakeFirstOrThrow();
      expect(role.role).toBe("owner");
    }
  });

  test("an invitation into a read-only or suspended org cannot be accepted; once active again it can", async () => {
    for (const status of ["read_only", "suspended"] as const) {
      const a = await tenant(t.app);
      const other = await tenant(t.app);
      const owner = (await userToken(t.app, a.userId)).secret;
      const inv = await t.request("POST", "/v1/invitations", {
        key: owner,
        body: { email: other.email, role: "viewer" },
      });
      expect(inv.status).toBe(201);
      await sql`UPDATE orgs SET status = ${status} WHERE id = ${a.orgId}`.execute(t.app.db);
      const path = new URL(inv.body.url).pathname;
      const o = new TestBrowser(t);
      await o.signIn(other.email, PASSWORD);
      await o.get(path);
      const r = await o.post(path, {});
      expect(r.status).toBe(403);
      expect(codeOf(r)).toBe(status === "read_only" ? "org_read_only" : "org_suspended");
      const joined = await t.app.db
        .selectFrom("members")
        .select("user_id")
        .where("org_id", "=", a.orgId)
        .where("user_id", "=", other.userId)
        .execute();
      expect(joined).toEqual([]);
      await sql`UPDATE orgs SET status = 'active' WHERE id = ${a.orgId}`.execute(t.app.db);
      await o.get(path);
      expect((await o.post(path, {})).location).toBe("/home");
    }
  });
});
