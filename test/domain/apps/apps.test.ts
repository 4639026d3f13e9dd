// Developer apps through /v1: an org registers its own (secret sealed, never returned), renames and removes it;
// the install's apps are listed beside them without client IDs; the spec's codes for every refusal.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { addInstallApp } from "../../../src/domain/apps/install.ts";
import { openClientSecret } from "../../../src/domain/apps/seal.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { member, type Tenant, tenant, userToken } from "../../helpers/factories.ts";

describeEachDialect("developer apps", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let b: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app, "Apps A");
    b = await tenant(t.app, "Apps B");
  });
  afterAll(() => t.close());

  const create = (key: string, body: Record<string, unknown>) =>
    t.request("POST", "/v1/developer_apps", { key, body });

  test("an org registers its app: the secret is sealed and never shown; the redirect URI is given to copy", async () => {
    const r = await create(a.liveKey, {
      provider: "x",
      name: "Our X app",
      client_id: "Y2xpZW50LWlk",
      client_secret: "very-secret-value",
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^app_/),
      object: "developer_app",
      provider: "x",
      name: "Our X app",
      provided_by: "org",
      client_id: "Y2xpZW50LWlk",
      redirect_uri: "http://localhost:8080/connect/x/callback",
      created_at: expect.any(String),
    });
    expect(JSON.stringify(r.body)).not.toContain("very-secret-value");
    const row = await t.app.db
      .selectFrom("developer_apps")
      .selectAll()
      .where("id", "=", r.body.id)
      .executeTakeFirstOrThrow();
    expect(row.client_secret).not.toContain("very-secret-value");
    expect(row.client_secret.startsWith("v1:")).toBe(true);
    expect(await openClientSecret(t.app.db, t.app, row)).toBe("very-secret-value");
    // Bound to its row: the same sealed value copied to another app does not open.
    await expect(
      openClientSecret(t.app.db, t.app, { ...row, id: "app_0000000000000000000000000" }),
    ).rejects.toThrow();
    // Developer apps belong to the org, not a mode: the test key sees the app the live key made.
    const got = await t.request("GET", `/v1/developer_apps/${r.body.id}`, { key: a.testKey });
    expect(got.body).toEqual(r.body);
  });

  test("every refusal has its code: provider_invalid, name_invalid, client_id_invalid, client_secret_invalid, name_taken", async () => {
    const bad = await create(a.testKey, {
      provider: "bluesky",
      name: "",
      client_id: "has space",
      client_secret: "",
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { code: string; param: string }) => [e.code, e.param]).sort()).toEqual(
      [
        ["client_id_invalid", "client_id"],
        ["client_secret_invalid", "client_secret"],
        ["name_invalid", "name"],
      ].sort(),
    );
    const provider = await create(a.testKey, {
      provider: "bluesky",
      name: "B",
      client_id: "c",
      client_secret: "s",
    });
    expect([provider.status, provider.body.code, provider.body.param]).toEqual([
      422,
      "provider_invalid",
      "provider",
    ]);
    const long = await create(a.testKey, {
      provider: "x",
      name: "x".repeat(101),
      client_id: "c",
      client_secret: "s",
    });
    expect(long.body.code).toBe("name_invalid");
    expect(
      (await create(a.testKey, { provider: "x", name: "Twice", client_id: "c", client_secret: "s" })).status,
    ).toBe(201);
    const twice = await create(a.testKey, {
      provider: "pinterest",
      name: "Twice",
      client_id: "c",
      client_secret: "s",
    });
    expect([twice.status, twice.body.code, twice.body.param]).toEqual([422, "name_taken", "name"]);
    // Another org may use the same name: names are unique per owner.
    expect(
      (await create(b.testKey, { provider: "x", name: "Twice", client_id: "c", client_secret: "s" })).status,
    ).toBe(201);
    const missing = await create(a.testKey, { provider: "x", name: "No secret", client_id: "c" });
    expect([missing.status, missing.body.code]).toEqual([400, "parameter_missing"]);
  });

  test("rename and remove: a taken name is refused; removed apps are gone; audit rows name each change", async () => {
    const one = (
      await create(a.testKey, { provider: "linkedin", name: "LI one", client_id: "c1", client_secret: "s1" })
    ).body;
    await create(a.testKey, { provider: "linkedin", name: "LI two", client_id: "c2", client_secret: "s2" });
    const taken = await t.request("POST", `/v1/developer_apps/${one.id}`, {
      key: a.testKey,
      body: { name: "LI two" },
    });
    expect([taken.status, taken.body.code]).toEqual([422, "name_taken"]);
    const renamed = await t.request("POST", `/v1/developer_apps/${one.id}`, {
      key: a.testKey,
      body: { name: "LI main" },
    });
    expect([renamed.status, renamed.body.name]).toEqual([200, "LI main"]);
    const del = await t.request("DELETE", `/v1/developer_apps/${one.id}`, { key: a.testKey });
    expect(del.body).toEqual({ id: one.id, object: "developer_app", deleted: true });
    expect((await t.request("GET", `/v1/developer_apps/${one.id}`, { key: a.testKey })).status).toBe(404);
    const log = await t.request("GET", "/v1/audit_events?limit=100", { key: a.testKey });
    const actions = log.body.data
      .filter((e: { target: string }) => e.target === one.id)
      .map((e: { action: string }) => e.action);
    expect(actions.sort()).toEqual(["developer_app.create", "developer_app.delete", "developer_app.rename"]);
  });

  test("install apps are listed to every org as provided by the server, without client ID, after the org's own", async () => {
    const inst = await addInstallApp(t.app, "test", {
      provider: "pinterest",
      name: "Server Pinterest",
      client_id: "install-client-id",
      client_secret: "install-secret",
    });
    const row = await t.app.db
      .selectFrom("developer_apps")
      .selectAll()
      .where("id", "=", inst.id)
      .executeTakeFirstOrThrow();
    expect(row.client_secret.startsWith("m1:")).toBe(true);
    expect(await openClientSecret(t.app.db, t.app, row)).toBe("install-secret");
    const viewer = (await userToken(t.app, await member(t.app, b.orgId, "viewer-apps@example.com", "viewer")))
      .secret;
    const list = await t.request("GET", "/v1/developer_apps?provider=pinterest", { key: viewer });
    expect(list.status).toBe(200);
    const shown = list.body.data.find((x: { id: string }) => x.id === inst.id);
    expect(shown).toEqual({
      id: inst.id,
      object: "developer_app",
      provider: "pinterest",
      name: "Server Pinterest",
      provided_by: "server",
      client_id: null,
      redirect_uri: "http://localhost:8080/connect/pinterest/callback",
      created_at: expect.any(String),
    });
    expect(JSON.stringify(list.body)).not.toContain("install-client-id");
    // A viewer cannot register apps; an org cannot rename or remove the server's.
    const v = await create(viewer, { provider: "x", name: "Nope", client_id: "c", client_secret: "s" });
    expect([v.status, v.body.code]).toEqual([403, "forbidden"]);
    const ren = await t.request("POST", `/v1/developer_apps/${inst.id}`, {
      key: b.testKey,
      body: { name: "Mine" },
    });
    expect([ren.status, ren.body.code]).toEqual([404, "resource_missing"]);
    const del = await t.request("DELETE", `/v1/developer_apps/${inst.id}`, { key: b.testKey });
    expect([del.status, del.body.code]).toEqual([404, "resource_missing"]);
    // Another org's app is never listed.
    const mine = await create(a.testKey, {
      provider: "pinterest",
      name: "A's pins",
      client_id: "a-client",
      client_secret: "s",
    });
    const listB = await t.request("GET", "/v1/developer_apps?limit=100", { key: b.testKey });
    expect(listB.body.data.map((x: { id: string }) => x.id)).not.toContain(mine.body.id);
  });

  test("svc admin keys rotate rewraps an install app's secret under the new primary master key", async () => {
    const inst = await addInstallApp(t.app, "test", {
      provider: "x",
      name: "Rotated X",
      client_id: "rot-client",
      client_secret: "rot-secret",
    });
    const next = await testApp(dialect, {
      url: t.dbUrl,
      env: { SVC_MASTER_KEYS: `k2:${randomBytes(32).toString("base64")},${t.masterKeys}` },
    });
    try {
      const r = await next.app.keys.rotate(next.app.db, Date.now());
      expect(r.failed).toEqual([]);
      const row = await next.app.db
        .selectFrom("developer_apps")
        .selectAll()
        .where("id", "=", inst.id)
        .executeTakeFirstOrThrow();
      expect(row.client_secret.startsWith("m1:k2:")).toBe(true);
      expect(await openClientSecret(next.app.db, next.app, row)).toBe("rot-secret");
    } finally {
      await next.close();
    }
  });
});
