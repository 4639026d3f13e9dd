// Every /v1 route, tried with no credential, a malformed one, a revoked one, an expired one, a key lacking the
// route's scope, a key of another org and a key of the other mode (ARCHITECTURE rule 4).
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { ALL_SCOPES } from "../../src/domain/scopes.ts";
import { v1Routes } from "../../src/http/api/v1/index.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { ADMIN, INTEGRATION, key, member, type Tenant, tenant, userToken } from "../helpers/factories.ts";
import { fixtures } from "./fixtures.ts";

const fill = (path: string, params: Record<string, string>) =>
  path.replace(/:([A-Za-z_]+)/g, (_, k: string) => params[k] ?? "x");

import { createOperatorKey } from "../../src/domain/identity/auth/operator.ts";

const placeholder = (path: string) => path.replace(/:([A-Za-z_]+)/g, "x");

describeEachDialect("access to every /v1 route", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let b: Tenant;
  let revoked: string;
  let expired: string;
  /** User tokens, for the routes that accept nothing else: owners of A and B, and a viewer in A. */
  let ownerA: string;
  let ownerB: string;
  let viewerA: string;
  let operator: string;
  beforeAll(async () => {
    t = await testApp(dialect);
    operator = (await createOperatorKey(t.app, "access")).secret;
    a = await tenant(t.app, "Org A");
    b = await tenant(t.app, "Org B");
    revoked = await key(t.app, a.orgId, { name: "revoked" });
    const me = await t.request("GET", "/v1/me", { key: revoked });
    await t.request("POST", `/v1/api_keys/${me.body.api_key.id}/revoke`, { key: a.testKey });
    expired = await key(t.app, a.orgId, {
      name: "expired",
      expires_at: new Date(Date.now() + 1500).toISOString(),
    });
    ownerA = (await userToken(t.app, a.userId)).secret;
    ownerB = (await userToken(t.app, b.userId)).secret;
    viewerA = (await userToken(t.app, await member(t.app, a.orgId, "viewer-a@example.com", "viewer"))).secret;
    await Bun.sleep(1600);
  });
  afterAll(() => t.close());
  // Each test gets full keys of its own, with a full rate-limit bucket: the file's 300-odd tests a dialect spend
  // an org's keys faster than their limit (burst 100, 25 a second) refills on a quick machine, and a 429 would
  // hide the answer under test. Same orgs, scopes and modes as the tenants' first keys.
  beforeEach(async () => {
    for (const x of [a, b]) {
      x.testKey = await key(t.app, x.orgId, { name: "test full", scopes: [...INTEGRATION, ...ADMIN] });
      x.liveKey = await key(t.app, x.orgId, { name: "live full", scopes: [...INTEGRATION, ...ADMIN] }, true);
    }
  });

  for (const r of v1Routes) {
    const name = `${r.method} ${r.path}`;
    if (r.operator) {
      // The operator API spans orgs by design: only operator keys, and an unknown org is missing.
      test(`${name}: only operator keys; an unknown org is missing`, async () => {
        const path = r.path.replace(/:([A-Za-z_]+)/g, "org_00000000000000000000000000");
        const body = r.method === "GET" ? undefined : {};
        for (const k of [undefined, a.testKey, a.liveKey, ownerA, "svc_op_notakey"]) {
          const res = await t.request(r.method, path, { key: k, body });
          expect([res.status, res.body.code]).toEqual([401, "operator_key_invalid"]);
        }
        if (path.includes("org_0")) {
          const res = await t.request(r.method, path, { key: operator, body });
          expect([res.status, res.body.code]).toEqual([404, "resource_missing"]);
        }
      });
      continue;
    }
    test(`${name}: credentials`, async () => {
      const path = placeholder(r.path);
      const body = r.method === "GET" ? undefined : {};
      const none = await t.request(r.method, path, { body });
      expect([none.status, none.body.code]).toEqual([401, "api_key_missing"]);
      const bad = await t.request(r.method, path, { key: "svc_test_notakey", body });
      expect([bad.status, bad.body.code]).toEqual([401, "api_key_invalid"]);
      const rev = await t.request(r.method, path, { key: revoked, body });
      expect([rev.status, rev.body.code]).toEqual([401, "api_key_expired"]);
      const exp = await t.request(r.method, path, { key: expired, body });
      expect([exp.status, exp.body.code]).toEqual([401, "api_key_expired"]);
    });

    if (r.userTokensOnly) {
      test(`${name}: API keys are refused; a role without ${r.scope ?? "any role"} is forbidden`, async () => {
        const body = r.method === "GET" ? undefined : {};
        const res = await t.request(r.method, placeholder(r.path), { key: a.testKey, body });
        expect([res.status, res.body.code]).toEqual([403, "forbidden"]);
        if (r.scope) {
          const v = await t.request(r.method, placeholder(r.path), { key: viewerA, body });
          expect([v.status, v.body.code]).toEqual([403, "forbidden"]);
        }
      });
    }

    if (r.scope && !r.userTokensOnly) {
      test(`${name}: a key without ${r.scope} gets scope_missing`, async () => {
        const other = ALL_SCOPES.find((s) => s !== r.scope && s !== "keys:write")!;
        const k = await key(t.app, a.orgId, { name: "narrow", scopes: [other] });
        const res = await t.request(r.method, placeholder(r.path), {
          key: k,
          body: r.method === "GET" ? undefined : {},
        });
        expect([res.status, res.body.code]).toEqual([403, "scope_missing"]);
      });
    }

    if (r.path.includes(":")) {
      test(`${name}: another org's and the other mode's objects are missing`, async () => {
        const make = fixtures[name];
        expect(make).toBeDefined(); // every route with parameters needs a fixture in fixtures.ts
        const f = await make!(t, a);
        const path = fill(r.path, f.params);
        const body = r.method === "GET" ? undefined : (f.body ?? {});
        if (r.userTokensOnly) {
          // People, not keys: B's owner cannot reach A's object; A's owner can (in either mode).
          const theirs = await t.request(r.method, path, { key: ownerB, body });
          expect([theirs.status, theirs.body.code]).toEqual([404, "resource_missing"]);
          const mine = await t.request(r.method, path, { key: ownerA, body });
          expect(mine.status).toBeLessThan(300);
          return;
        }
        const other = await t.request(r.method, path, { key: b.testKey, body });
        expect([other.status, other.body.code]).toEqual([404, "resource_missing"]);
        if (f.modeScoped) {
          const live = await t.request(r.method, path, { key: a.liveKey, body });
          expect([live.status, live.body.code]).toEqual([404, "resource_missing"]);
        }
        const own = await t.request(r.method, path, { key: a.testKey, body });
        if (f.ownAnswer) expect([own.status, own.body.code]).toEqual(f.ownAnswer);
        else expect(own.status).toBeLessThan(300);
      });
    }
  }

  test("a refusal is audited once per credential and route per minute", async () => {
    const k = await key(t.app, a.orgId, { name: "denied", scopes: ["posts:read"] });
    for (let i = 0; i < 3; i++) expect((await t.request("GET", "/v1/brands", { key: k })).status).toBe(403);
    const keyId = (await t.request("GET", "/v1/me", { key: k })).body.api_key.id;
    // Read with a key of its own: the tests above spend the org's test key's rate limit (burst 100), and on a fast
    // machine it has not refilled by now.
    const auditor = await key(t.app, a.orgId, { name: "auditor", scopes: ["audit:read"] });
    const log = await t.request("GET", "/v1/audit_events?limit=100", { key: auditor });
    expect(log.status).toBe(200);
    const denied = log.body.data.filter(
      (e: { action: string; target: string; api_key: string }) =>
        e.action === "access.denied" && e.target === "GET /v1/brands" && e.api_key === keyId,
    );
    expect(denied).toHaveLength(1);
    expect(denied[0].outcome).toBe("denied");
  });

  test("a suspended org's keys are refused; a read-only org reads but changes nothing", async () => {
    const c = await tenant(t.app, "Org C");
    await t.app.db
      .updateTable("orgs")
      .set({ status: "read_only", status_note: "Billing overdue." })
      .where("id", "=", c.orgId)
      .execute();
    expect((await t.request("GET", "/v1/brands", { key: c.testKey })).status).toBe(200);
    const w = await t.request("POST", "/v1/brands", { key: c.testKey, body: { name: "Nope" } });
    expect([w.status, w.body.code]).toEqual([403, "org_read_only"]);
    expect(w.body.detail).toContain("Billing overdue.");
    await t.app.db.updateTable("orgs").set({ status: "suspended" }).where("id", "=", c.orgId).execute();
    const s = await t.request("GET", "/v1/brands", { key: c.testKey });
    expect([s.status, s.body.code]).toEqual([403, "org_suspended"]);
  });
});
