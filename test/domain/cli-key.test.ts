// The fallback CLI sign-in (/cli?device=<name>): a dashboard session in sudo mode gets a full-access key in the
// requested mode, shown once; "full access" is what the person's role may grant.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { issueCliKey } from "../../src/domain/identity/api-keys/cli-key.ts";
import { INTEGRATION_SCOPES, scopesOfRole } from "../../src/domain/scopes.ts";
import { ServiceError } from "../../src/lib/errors.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { member, type Tenant, tenant } from "../helpers/factories.ts";
import { personActor } from "../helpers/person.ts";

async function refused(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ServiceError) return e;
    throw e;
  }
  throw new Error("expected a ServiceError");
}

describeEachDialect("CLI key from /cli", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app, "CLI Key Org");
  });
  afterAll(() => t.close());

  test("an owner gets a full-access live key, shown once, that answers /v1/me in live mode", async () => {
    const owner = await personActor(t.app, a.userId, a.orgId);
    const k = await issueCliKey(
      t.app,
      owner,
      { device_name: "<b>laptop</b>", livemode: true },
      {
        confirmedAt: t.app.clock.now(),
      },
    );
    expect(k.secret).toMatch(/^svc_live_/);
    expect(k).toMatchObject({ name: "CLI: <b>laptop</b>", livemode: true, scopes: [], brand: null });
    const me = await t.request("GET", "/v1/me", { key: k.secret! });
    expect(me.body).toMatchObject({ livemode: true, api_key: { id: k.id } });
    const stored = await t.app.db
      .selectFrom("api_keys")
      .selectAll()
      .where("id", "=", k.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(k.secret!);
    // Full access: it can write brands.
    expect((await t.request("POST", "/v1/brands", { key: k.secret!, body: { name: "By CLI" } })).status).toBe(
      201,
    );
  });

  test("an editor's key lists only the integration scopes an editor holds", async () => {
    const editorId = await member(t.app, a.orgId, `ed-${dialect}@example.com`, "editor");
    const editor = await personActor(t.app, editorId, a.orgId);
    const k = await issueCliKey(
      t.app,
      editor,
      { device_name: "ed", livemode: false },
      {
        confirmedAt: t.app.clock.now(),
      },
    );
    const held = scopesOfRole("editor");
    expect(k.scopes).toEqual(INTEGRATION_SCOPES.filter((s) => held.has(s)));
    expect(k.scopes).not.toContain("channels:write");
    expect((await t.request("POST", "/v1/brands", { key: k.secret!, body: { name: "No" } })).body.code).toBe(
      "scope_missing",
    );
  });

  test("needs sudo mode and a session; bad device names refused", async () => {
    const owner = await personActor(t.app, a.userId, a.orgId);
    const before = await t.app.db.selectFrom("api_keys").selectAll().execute();
    expect(
      (await refused(issueCliKey(t.app, owner, { device_name: "x", livemode: false }, { confirmedAt: null })))
        .code,
    ).toBe("reauthentication_required");
    const viaToken = { ...owner, userTokenId: "utok_x" };
    expect(
      (
        await refused(
          issueCliKey(
            t.app,
            viaToken,
            { device_name: "x", livemode: false },
            { confirmedAt: t.app.clock.now() },
          ),
        )
      ).code,
    ).toBe("forbidden");
    for (const device_name of ["", "y".repeat(95), 7])
      expect(
        (
          await refused(
            issueCliKey(t.app, owner, { device_name, livemode: false }, { confirmedAt: t.app.clock.now() }),
          )
        ).status,
      ).toBeOneOf([400, 422]);
    expect(await t.app.db.selectFrom("api_keys").selectAll().execute()).toHaveLength(before.length);
  });
});
