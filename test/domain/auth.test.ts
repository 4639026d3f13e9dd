// User tokens (`svc_user_…`) through /v1: choosing the org with Svc-Org, the ways a token stops working, roles
// checked like scopes, the dashboard-only key management, single sign-on orgs, and operator keys outside
// /v1/operator/.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { newOperatorKey } from "../../src/crypto/credentials.ts";
import { resetPassword } from "../../src/domain/identity/users/service.ts";
import { inTx } from "../../src/domain/tx.ts";
import { FakeClock } from "../../src/lib/clock.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { member, type Tenant, tenant, userToken } from "../helpers/factories.ts";

const DAY = 86400_000;

describeEachDialect("user tokens", (dialect) => {
  const clock = new FakeClock();
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect, { clock });
    a = await tenant(t.app, "Auth A");
  });
  afterAll(() => t.close());

  const me = (token: string, org?: string) =>
    t.request("GET", "/v1/me", { key: token, ...(org ? { headers: { "Svc-Org": org } } : {}) });

  test("a person in one org needs no Svc-Org; /v1/me shows the user, the token and the role", async () => {
    const tok = await userToken(t.app, a.userId, { name: "work laptop" });
    expect(tok.secret).toMatch(/^svc_user_[0-9A-Za-z]{32}$/);
    const r = await me(tok.secret);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      object: "me",
      livemode: false,
      org: { id: a.orgId, name: "Auth A" },
      role: "owner",
      user: { id: a.userId, object: "user", email: a.email, name: null },
      user_token: {
        id: tok.id,
        object: "user_token",
        name: "work laptop",
        hint: `…${tok.secret.slice(-4)}`,
        livemode: false,
        created_at: new Date(clock.now()).toISOString(),
      },
    });
    const live = await userToken(t.app, a.userId, { livemode: true });
    expect((await me(live.secret)).body.livemode).toBe(true);
  });

  test("a person in several orgs names one in Svc-Org, by name or by ID", async () => {
    const p = await tenant(t.app, "Auth P");
    const b = await tenant(t.app, "Auth B");
    await member(t.app, b.orgId, p.email, "viewer");
    const tok = await userToken(t.app, p.userId);

    const none = await me(tok.secret);
    expect([none.status, none.body.code, none.body.param]).toEqual([422, "org_required", "Svc-Org"]);
    const byName = await me(tok.secret, "Auth B");
    expect([byName.status, byName.body.org.id, byName.body.role]).toEqual([200, b.orgId, "viewer"]);
    const byId = await me(tok.secret, b.orgId);
    expect([byId.body.org.id, byId.body.role]).toEqual([b.orgId, "viewer"]);
    const own = await me(tok.secret, "Auth P");
    expect([own.body.org.id, own.body.role]).toEqual([p.orgId, "owner"]);
    // The role decides what the token may do in each org.
    const brand = { name: "New" };
    const asViewer = await t.request("POST", "/v1/brands", {
      key: tok.secret,
      body: brand,
      headers: { "Svc-Org": b.orgId },
    });
    expect([asViewer.status, asViewer.body.code]).toEqual([403, "forbidden"]);
    const asOwner = await t.request("POST", "/v1/brands", {
      key: tok.secret,
      body: brand,
      headers: { "Svc-Org": p.orgId },
    });
    expect(asOwner.status).toBe(201);
  });

  test("two orgs sharing a name: the name is org_ambiguous, the ID works", async () => {
    const p = await tenant(t.app, "Twin");
    const q = await tenant(t.app, "Twin");
    await member(t.app, q.orgId, p.email, "editor");
    const tok = await userToken(t.app, p.userId);
    const r = await me(tok.secret, "Twin");
    expect([r.status, r.body.code, r.body.param]).toEqual([422, "org_ambiguous", "Svc-Org"]);
    expect((await me(tok.secret, q.orgId)).body).toMatchObject({ org: { id: q.orgId }, role: "editor" });
    expect((await me(tok.secret, p.orgId)).body).toMatchObject({ org: { id: p.orgId }, role: "owner" });
  });

  test("an org the person is not in is org_unknown (404), by name or by ID", async () => {
    const other = await tenant(t.app, "Not Yours");
    const tok = await userToken(t.app, a.userId);
    const byName = await me(tok.secret, "Not Yours");
    expect([byName.status, byName.body.code, byName.body.param]).toEqual([404, "org_unknown", "Svc-Org"]);
    expect((await me(tok.secret, other.orgId)).body.code).toBe("org_unknown");
    expect((await me(tok.secret, "No Such Org")).status).toBe(404);
  });

  test("a password reset revokes every token of the person: user_token_invalid", async () => {
    const p = await tenant(t.app, "Reset Org");
    const one = await userToken(t.app, p.userId);
    const two = await userToken(t.app, p.userId, { livemode: true });
    expect((await me(one.secret)).status).toBe(200);
    await inTx(t.app, (tx) => resetPassword(tx, t.app, p.email, "a brand new password"));
    for (const tok of [one, two]) {
      const r = await me(tok.secret);
      expect([r.status, r.body.code]).toEqual([401, "user_token_invalid"]);
      expect(r.headers.get("www-authenticate")).toBe('Bearer realm="svc"');
    }
    // A token issued after the reset works.
    expect((await me((await userToken(t.app, p.userId)).secret)).status).toBe(200);
  });

  test("a token unused for a year stops working; use keeps it alive", async () => {
    const p = await tenant(t.app, "Idle Org");
    const used = await userToken(t.app, p.userId);
    const idle = await userToken(t.app, p.userId);
    clock.advance(300 * DAY);
    expect((await me(used.secret)).status).toBe(200); // last used now
    clock.advance(65 * DAY + 1); // just over a year after issue, 65 days after the last use
    const r = await me(idle.secret);
    expect([r.status, r.body.code]).toEqual([401, "user_token_invalid"]);
    expect((await me(used.secret)).status).toBe(200);
    const row = await t.app.db
      .selectFrom("user_tokens")
      .select("last_used_at")
      .where("id", "=", used.id)
      .executeTakeFirstOrThrow();
    expect(row.last_used_at).toBe(clock.now());
  });

  test("a disabled person's tokens are user_token_invalid", async () => {
    const p = await tenant(t.app, "Disabled Org");
    const tok = await userToken(t.app, p.userId);
    expect((await me(tok.secret)).status).toBe(200);
    await t.app.db
      .updateTable("users")
      .set({ disabled_at: clock.now() })
      .where("id", "=", p.userId)
      .execute();
    expect((await me(tok.secret)).body.code).toBe("user_token_invalid");
  });

  test("an unknown token of the right shape is user_token_invalid", async () => {
    const r = await me(`svc_user_${"A".repeat(32)}`);
    expect([r.status, r.body.code]).toEqual([401, "user_token_invalid"]);
  });

  test("roles: a viewer and an editor cannot create brands (forbidden); an admin can", async () => {
    const tokens: Record<string, string> = {};
    for (const role of ["viewer", "editor", "admin"]) {
      const id = await member(
        t.app,
        a.orgId,
        `${role}-${Math.random().toString(36).slice(2)}@example.com`,
        role,
      );
      tokens[role] = (await userToken(t.app, id)).secret;
    }
    for (const role of ["viewer", "editor"]) {
      const r = await t.request("POST", "/v1/brands", { key: tokens[role]!, body: { name: `By ${role}` } });
      expect([r.status, r.body.code]).toEqual([403, "forbidden"]);
      expect(r.body.details).toEqual({ scope: "brands:write" });
      const read = await t.request("GET", "/v1/brands", { key: tokens[role]! });
      expect(read.status).toBe(200);
    }
    const ok = await t.request("POST", "/v1/brands", { key: tokens.admin!, body: { name: "By admin" } });
    expect([ok.status, ok.body.name]).toEqual([201, "By admin"]);
    const roleOf = async (k: string) => (await me(k)).body.role;
    expect([await roleOf(tokens.viewer!), await roleOf(tokens.editor!), await roleOf(tokens.admin!)]).toEqual(
      ["viewer", "editor", "admin"],
    );
    // The audit row names the person and the token.
    const log = await t.request("GET", "/v1/audit_events?limit=100", { key: a.testKey });
    const row = log.body.data.find(
      (e: { request_id: string }) => e.request_id === ok.headers.get("request-id"),
    );
    expect(row).toMatchObject({ action: "brand.create", api_key: null });
    expect(row.user).toMatch(/^user_/);
    expect(row.user_token).toMatch(/^utok_/);
  });

  test("managing API keys with a user token needs the dashboard: reauthentication_required", async () => {
    const owner = await userToken(t.app, a.userId);
    const create = await t.request("POST", "/v1/api_keys", {
      key: owner.secret,
      body: { name: "from cli" },
    });
    expect([create.status, create.body.code]).toEqual([403, "reauthentication_required"]);
    const list = await t.request("GET", "/v1/api_keys", { key: owner.secret });
    expect([list.status, list.body.code]).toEqual([403, "reauthentication_required"]);
    const viewerId = await member(
      t.app,
      a.orgId,
      `v-${Math.random().toString(36).slice(2)}@example.com`,
      "viewer",
    );
    const viewer = await userToken(t.app, viewerId);
    const v = await t.request("POST", "/v1/api_keys", { key: viewer.secret, body: { name: "x" } });
    expect([v.status, v.body.code]).toEqual([403, "forbidden"]);
  });

  test("an org requiring single sign-on takes only tokens approved through it (sso_required)", async () => {
    const s = await tenant(t.app, "SSO Org");
    await t.app.db.updateTable("orgs").set({ require_sso: 1 }).where("id", "=", s.orgId).execute();
    const plain = await userToken(t.app, s.userId);
    const r = await me(plain.secret);
    expect([r.status, r.body.code]).toEqual([403, "sso_required"]);
    const sso = await userToken(t.app, s.userId, { viaSso: true });
    expect((await me(sso.secret)).body.org.id).toBe(s.orgId);
    // API keys are not people: the org's keys keep working.
    expect((await t.request("GET", "/v1/me", { key: s.testKey })).status).toBe(200);
  });

  test("an operator key is refused outside /v1/operator/ (401)", async () => {
    const op = newOperatorKey();
    expect(op).toMatch(/^svc_op_[0-9A-Za-z]{32}$/);
    const r = await t.request("GET", "/v1/me", { key: op });
    expect([r.status, r.body.code]).toEqual([401, "api_key_invalid"]);
    expect(r.body.detail).toBe("Operator keys are accepted only under /v1/operator/.");
  });
});
