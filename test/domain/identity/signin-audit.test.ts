// Dashboard sign-ins in the audit log (account.sign_in): a wrong password, an unknown address (kept only as the
// hash the guess counter uses), and a success, each with the client's address and browser.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

describeEachDialect("sign-in audit", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await webApp(dialect);
    a = await tenant(t.app);
  });
  afterAll(() => t.close());

  const rows = () =>
    t.app.db
      .selectFrom("audit_events")
      .selectAll()
      .where("action", "=", "account.sign_in")
      .orderBy("id")
      .execute();

  test("failures and the success are written, with no org and no secret", async () => {
    const b = new TestBrowser(t);
    b.headers["user-agent"] = "Test Browser 1.0";
    await b.signIn(a.email, "not the password");
    await b.signIn("nobody@example.com", "whatever it is");
    const ok = await b.signIn(a.email, "correct horse battery staple");
    expect(ok.status).toBe(200);
    const r = await rows();
    expect(r.map((x) => [x.user_id, x.outcome])).toEqual([
      [a.userId, "failure"],
      [null, "failure"],
      [a.userId, "success"],
    ]);
    const [wrong, unknown, success] = r.map((x) => JSON.parse(x.detail!));
    expect(wrong).toMatchObject({
      method: "password",
      reason: "password_wrong",
      ip: b.ip,
      user_agent: "Test Browser 1.0",
    });
    expect(unknown.reason).toBe("no_account");
    expect(unknown.address).toStartWith("email:");
    expect(JSON.stringify(unknown)).not.toContain("nobody@example.com");
    expect(success).toMatchObject({ method: "password", stage: "active" });
    for (const x of r) {
      expect(x.org_id).toBeNull();
      expect(x.detail).not.toContain("whatever it is");
      expect(x.detail).not.toContain("correct horse");
    }
  });
});
