// resolveTemplate and findTemplate, as posts call them, on both databases.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Actor } from "../../../src/domain/actor.ts";
import { authenticate } from "../../../src/domain/identity/auth/authenticate.ts";
import { findTemplate, resolveTemplate } from "../../../src/domain/templates/resolve.ts";
import { ServiceError } from "../../../src/lib/errors.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { key, type Tenant, tenant } from "../../helpers/factories.ts";
import { release } from "../../http/api/v1/template-helpers.ts";

describeEachDialect("resolveTemplate", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let actor: Actor;
  let id: string;
  let otherBrand: string;
  const actorOf = (secret: string) =>
    authenticate(t.app, { authorization: `Bearer ${secret}`, org: null, requestId: "req_test" });
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
    actor = await actorOf(a.testKey);
    const made = await t.request("POST", "/v1/templates", {
      key: a.testKey,
      body: { brand: a.brandId, key: "release", ...release() },
    });
    id = made.body.id;
    await t.request("POST", `/v1/templates/${id}/versions`, {
      key: a.testKey,
      body: release({ body: "Two {{.version}} {{.url}}" }),
    });
    otherBrand = (await t.request("POST", "/v1/brands", { key: a.testKey, body: { name: "Other" } })).body.id;
  });
  afterAll(() => t.close());

  test("by key, key@N and ID: the row, the version chosen and its source", async () => {
    const latest = await resolveTemplate(t.app.db, actor, a.brandId, "release");
    expect([latest.template.id, latest.template.key, latest.version, latest.source.body]).toEqual([
      id,
      "release",
      2,
      "Two {{.version}} {{.url}}",
    ]);
    expect(latest.source.examples).toEqual(release().examples);
    const first = await resolveTemplate(t.app.db, actor, a.brandId, "release@1");
    expect([first.version, first.source.body]).toEqual([1, release().body]);
    const byId = await resolveTemplate(t.app.db, actor, null, id);
    expect([byId.version, byId.template.brand_id]).toEqual([2, a.brandId]);
  });

  test("misses are template_missing and malformed references template_invalid, as a 422 or a problem", async () => {
    const miss = (brandId: string | null, ref: string, who = actor) =>
      findTemplate(t.app.db, who, brandId, ref);
    expect(await miss(a.brandId, "release@3")).toMatchObject({
      code: "template_missing",
      param: "template",
      detail: { latest_version: 2 },
    });
    expect(await miss(otherBrand, "release")).toMatchObject({ code: "template_missing" });
    expect(await miss(otherBrand, id)).toMatchObject({ code: "template_missing" });
    expect(await miss(null, "release")).toMatchObject({ code: "template_missing" });
    expect(await miss(a.brandId, "tmpl_nope")).toMatchObject({ code: "template_invalid" });
    const limited = await actorOf(await key(t.app, a.orgId, { name: "other only", brand: otherBrand }));
    expect(await miss(a.brandId, "release", limited)).toMatchObject({ code: "template_missing" });
    expect(await miss(null, id, limited)).toMatchObject({ code: "template_missing" });
    const stranger = await actorOf((await tenant(t.app)).testKey);
    expect(await miss(null, id, stranger)).toMatchObject({ code: "template_missing" });
    const thrown = await resolveTemplate(t.app.db, actor, a.brandId, "gone", "body.template").catch((e) => e);
    expect(thrown).toBeInstanceOf(ServiceError);
    expect([thrown.status, thrown.code, thrown.param]).toEqual([422, "template_missing", "body.template"]);
  });

  test("a deleted template no longer resolves, while the rows stay for posts that used it", async () => {
    const made = await t.request("POST", "/v1/templates", {
      key: a.testKey,
      body: { brand: a.brandId, key: "retired", ...release() },
    });
    await t.request("DELETE", `/v1/templates/${made.body.id}`, { key: a.testKey });
    expect(await findTemplate(t.app.db, actor, a.brandId, "retired")).toMatchObject({
      code: "template_missing",
    });
    const kept = await t.app.db
      .selectFrom("template_versions")
      .select("version")
      .where("template_id", "=", made.body.id)
      .execute();
    expect(kept).toEqual([{ version: 1 }]);
  });
});
