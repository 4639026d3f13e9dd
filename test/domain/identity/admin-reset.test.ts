// The operator's password reset (`svc admin users reset-password`) is a reset like the mailed link's (issue item
// 24): every CLI token revoked, every browser signed out, and every passkey removed (no one is there to say which
// are the person's, and a passkey signs in alone).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { resetPassword } from "../../../src/domain/identity/users/service.ts";
import { inTx } from "../../../src/domain/tx.ts";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant, userToken } from "../../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";

describeEachDialect("the operator's password reset", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await webApp(dialect);
    a = await tenant(t.app, "Admin Reset Org");
  });
  afterAll(() => t.close());

  test("signs the person out everywhere and removes every passkey; audited", async () => {
    const b = new TestBrowser(t);
    await b.signIn(a.email, PASSWORD);
    expect((await b.get("/home")).status).toBe(200);
    const tok = await userToken(t.app, a.userId);
    // An intruder's passkey, added while signed in.
    await t.app.db
      .insertInto("passkeys")
      .values({
        id: `pk-intruder-${dialect}`,
        user_id: a.userId,
        name: "intruder",
        public_key: "AAAA",
        counter: 0,
        transports: null,
        created_at: t.app.clock.now(),
        last_used_at: null,
      })
      .execute();

    const r = await inTx(t.app, (tx) => resetPassword(tx, t.app, a.email, "the operator's new one"));
    expect(r).toMatchObject({ sessionsEnded: 1, passkeysRemoved: 1 });

    expect((await b.get("/home")).location).toBe("/signin");
    expect((await t.request("GET", "/v1/me", { key: tok.secret })).body.code).toBe("user_token_invalid");
    expect(
      await t.app.db.selectFrom("passkeys").select("id").where("user_id", "=", a.userId).execute(),
    ).toEqual([]);
    const audit = await t.app.db
      .selectFrom("audit_events")
      .select("detail")
      .where("user_id", "=", a.userId)
      .where("action", "=", "account.passkey_removed")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.detail!)).toEqual({
      passkey: `pk-intruder-${dialect}`,
      reason: "password_reset",
    });
    expect((await new TestBrowser(t).signIn(a.email, "the operator's new one")).status).toBe(200);
  });
});
