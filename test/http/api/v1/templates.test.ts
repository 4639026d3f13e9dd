// The template routes end to end on both databases: create, list, get, versions, update, delete, approval rules,
// events and audit rows, and every template error code a request can meet.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type TestApp, testApp } from "../../../helpers/app.ts";
import { describeEachDialect } from "../../../helpers/db.ts";
import { key, type Tenant, tenant } from "../../../helpers/factories.ts";
import { codesOf, personToken, release, shapeErrors } from "./template-helpers.ts";

describeEachDialect("/v1/templates", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  const create = (k: string, over: Record<string, unknown> = {}, credential = a.testKey) =>
    t.request("POST", "/v1/templates", {
      key: credential,
      body: { brand: a.brandId, key: k, ...release(), ...over },
    });
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
  });
  afterAll(() => t.close());

  test("create answers 201 with version 1, its events in the key's mode, and an audit row", async () => {
    const r = await create("release", { name: "Release notes", fit: { x: "thread" } });
    expect(r.status).toBe(201);
    expect(shapeErrors("Template", r.body)).toEqual([]);
    expect(r.body).toMatchObject({
      object: "template",
      brand: a.brandId,
      key: "release",
      name: "Release notes",
      approval: "inherit",
      latest_version: 1,
      latest: { version: 1, body: release().body, fit: { x: "thread" }, examples: release().examples },
    });
    expect(r.body.id).toMatch(/^tmpl_[0-7][0-9a-z]{25}$/);
    const events = await t.app.db
      .selectFrom("events")
      .selectAll()
      .where("org_id", "=", a.orgId)
      .where("type", "like", "template.%")
      .orderBy("seq")
      .execute();
    expect(events.map((e) => [e.type, e.livemode])).toEqual([
      ["template.version_created", 0],
      ["template.version_published", 0],
    ]);
    expect(JSON.parse(events[0]!.data).object).toEqual(r.body);
    const audit = await t.request("GET", "/v1/audit_events", { key: a.testKey });
    const row = audit.body.data.find((e: { action: string }) => e.action === "template.create");
    expect([row.target, row.detail.key]).toEqual([r.body.id, "release"]);
    // A live key's change is announced in live mode: templates are shared, events are not.
    const live = await create("live-made", {}, a.liveKey);
    expect(live.status).toBe(201);
    const liveEvents = await t.app.db
      .selectFrom("events")
      .select(["type", "livemode"])
      .where("data", "like", `%${live.body.id}%`)
      .execute();
    expect(liveEvents.map((e) => e.livemode)).toEqual([1, 1]);
  });

  test("name defaults to the key; the same key is fine in another brand but taken in the same one", async () => {
    const r = await create("plain");
    expect(r.body.name).toBe("plain");
    const again = await create("plain");
    expect([again.status, again.body.code, again.body.param]).toEqual([409, "key_taken", "key"]);
    const other = await t.request("POST", "/v1/brands", { key: a.testKey, body: { name: "Other brand" } });
    const there = await t.request("POST", "/v1/templates", {
      key: a.testKey,
      body: { brand: other.body.slug, key: "plain", ...release() },
    });
    expect([there.status, there.body.brand]).toEqual([201, other.body.id]);
    const missing = await create("nobrand", { brand: "no-such-brand" });
    expect([missing.status, missing.body.code, missing.body.param]).toEqual([
      404,
      "resource_missing",
      "brand",
    ]);
  });

  test("list leaves bodies out, finds by brand and key, pages, and keeps a brand-limited key to its brand", async () => {
    const all = await t.request("GET", "/v1/templates", { key: a.testKey });
    expect(all.status).toBe(200);
    expect(shapeErrors("TemplateList", all.body)).toEqual([]);
    expect(all.body.data.every((x: object) => !("latest" in x))).toBe(true);
    const found = await t.request("GET", `/v1/templates?brand=${a.brandSlug}&key=plain`, {
      key: a.testKey,
    });
    expect(found.body.data.map((x: { key: string; brand: string }) => [x.key, x.brand])).toEqual([
      ["plain", a.brandId],
    ]);
    const byKey = await t.request("GET", "/v1/templates?key=plain", { key: a.testKey });
    expect(byKey.body.data).toHaveLength(2);
    const first = await t.request("GET", "/v1/templates?limit=1", { key: a.testKey });
    const next = await t.request("GET", `/v1/templates?limit=1&starting_after=${first.body.data[0].id}`, {
      key: a.testKey,
    });
    expect(first.body.has_more).toBe(true);
    expect(next.body.data[0].id < first.body.data[0].id).toBe(true);
    const limited = await key(t.app, a.orgId, { name: "brand only", brand: a.brandId });
    const seen = await t.request("GET", "/v1/templates?key=plain", { key: limited });
    expect(seen.body.data.map((x: { brand: string }) => x.brand)).toEqual([a.brandId]);
  });

  test("get shows the latest version, and an older one with ?version=N", async () => {
    const made = await create("versioned");
    const v2 = await t.request("POST", `/v1/templates/${made.body.id}/versions`, {
      key: a.testKey,
      body: { ...release({ body: "v2: {{.version}} {{.url}}" }), name: "Versioned two" },
    });
    expect(v2.status).toBe(201);
    expect(v2.body).toMatchObject({ latest_version: 2, name: "Versioned two", latest: { version: 2 } });
    const got = await t.request("GET", `/v1/templates/${made.body.id}`, { key: a.testKey });
    expect([got.body.latest.body, got.body.version]).toEqual(["v2: {{.version}} {{.url}}", undefined]);
    const old = await t.request("GET", `/v1/templates/${made.body.id}?version=1`, { key: a.testKey });
    expect(shapeErrors("Template", old.body)).toEqual([]);
    expect([old.body.version.version, old.body.version.body, old.body.latest.version]).toEqual([
      1,
      release().body,
      2,
    ]);
    const none = await t.request("GET", `/v1/templates/${made.body.id}?version=3`, { key: a.testKey });
    expect([none.status, none.body.code, none.body.param]).toEqual([404, "resource_missing", "version"]);
    const bad = await t.request("GET", `/v1/templates/${made.body.id}?version=zero`, { key: a.testKey });
    expect([bad.status, bad.body.code]).toEqual([400, "parameter_invalid"]);
    const wrongPrefix = await t.request("GET", `/v1/templates/${a.brandId}`, { key: a.testKey });
    expect([wrongPrefix.status, wrongPrefix.body.code]).toEqual([404, "resource_missing"]);
    const types = await t.app.db
      .selectFrom("events")
      .select("type")
      .where("data", "like", `%"latest_version":2%`)
      .where("data", "like", `%${made.body.id}%`)
      .execute();
    expect(types.map((e) => e.type).sort()).toEqual([
      "template.version_created",
      "template.version_published",
    ]);
  });

  test("a version is immutable: the database refuses to rewrite one", async () => {
    const made = await create("frozen");
    const rewrite = t.app.db
      .updateTable("template_versions")
      .set({ source: "{}" })
      .where("template_id", "=", made.body.id)
      .execute();
    await expect(rewrite).rejects.toThrow(/immutable/);
    const got = await t.request("GET", `/v1/templates/${made.body.id}`, { key: a.testKey });
    expect(got.body.latest.body).toBe(release().body);
  });

  test("a new version is checked whole, after the template is found", async () => {
    const made = await create("checked");
    const r = await t.request("POST", `/v1/templates/${made.body.id}/versions`, {
      key: a.testKey,
      body: { variables: { type: "object" }, body: "{{if .x}}" },
    });
    expect(r.status).toBe(422);
    expect(codesOf(r.body)).toEqual(["template_syntax body", "example_required examples"]);
    const missing = await t.request("POST", "/v1/templates/tmpl_00000000000000000000000000/versions", {
      key: a.testKey,
      body: { body: "{{if .x}}" },
    });
    expect([missing.status, missing.body.code]).toEqual([404, "resource_missing"]);
  });

  test("delete hides the template and frees its key", async () => {
    const made = await create("short-lived");
    const del = await t.request("DELETE", `/v1/templates/${made.body.id}`, { key: a.testKey });
    expect(del.body).toEqual({ id: made.body.id, object: "template", deleted: true });
    expect(shapeErrors("Deleted", del.body)).toEqual([]);
    expect((await t.request("GET", `/v1/templates/${made.body.id}`, { key: a.testKey })).status).toBe(404);
    expect((await t.request("DELETE", `/v1/templates/${made.body.id}`, { key: a.testKey })).status).toBe(404);
    const list = await t.request("GET", "/v1/templates?key=short-lived", { key: a.testKey });
    expect(list.body.data).toEqual([]);
    const again = await create("short-lived");
    expect([again.status, again.body.latest_version]).toEqual([201, 1]);
    expect(again.body.id).not.toBe(made.body.id);
  });

  test("approval: keys cannot change it; people can, and lowering it needs posts:approve", async () => {
    const made = await create("gated");
    const byKey = await t.request("POST", `/v1/templates/${made.body.id}`, {
      key: a.testKey,
      body: { approval: "required" },
    });
    expect([byKey.status, byKey.body.code, byKey.body.param]).toEqual([403, "forbidden", "approval"]);
    const keyCreate = await create("gated-key", { approval: "not_required" });
    expect([keyCreate.status, keyCreate.body.code]).toEqual([403, "forbidden"]);
    // Naming the value it already has changes nothing, so a key may send it.
    const same = await t.request("POST", `/v1/templates/${made.body.id}`, {
      key: a.testKey,
      body: { approval: "inherit", name: "Gated" },
    });
    expect([same.status, same.body.name, same.body.latest.version]).toEqual([200, "Gated", 1]);

    const editor = await personToken(t.app, a.orgId, "editor");
    const raise = await t.request("POST", `/v1/templates/${made.body.id}`, {
      key: editor,
      body: { approval: "required" },
    });
    expect([raise.status, raise.body.approval]).toEqual([200, "required"]);
    const lower = await t.request("POST", `/v1/templates/${made.body.id}`, {
      key: editor,
      body: { approval: "inherit" },
    });
    expect([lower.status, lower.body.code, lower.body.details]).toEqual([
      403,
      "forbidden",
      { scope: "posts:approve" },
    ]);
    const admin = await personToken(t.app, a.orgId, "admin");
    const lowered = await t.request("POST", `/v1/templates/${made.body.id}`, {
      key: admin,
      body: { approval: "not_required" },
    });
    expect([lowered.status, lowered.body.approval]).toEqual([200, "not_required"]);
    const editorCreate = await create("gated-editor", { approval: "not_required" }, editor);
    expect(editorCreate.status).toBe(403);
    const adminCreate = await create("gated-admin", { approval: "not_required" }, admin);
    expect([adminCreate.status, adminCreate.body.approval]).toEqual([201, "not_required"]);

    const audit = await t.request("GET", "/v1/audit_events?limit=100", { key: a.testKey });
    const change = audit.body.data.find(
      (e: { action: string; target: string; detail: { approval?: unknown } }) =>
        e.action === "template.update" && e.target === made.body.id && e.detail.approval,
    );
    expect(change.detail.approval).toEqual({ from: "required", to: "not_required" });
    const denied = audit.body.data.filter(
      (e: { action: string; target: string }) =>
        e.action === "access.denied" && e.target === "POST /v1/templates/:id",
    );
    expect(denied.length).toBeGreaterThan(0);
    const invalidValue = await t.request("POST", `/v1/templates/${made.body.id}`, {
      key: admin,
      body: { approval: "sometimes" },
    });
    expect([invalidValue.status, codesOf(invalidValue.body)]).toEqual([422, ["approval_invalid approval"]]);
  });

  test("one 422 lists the key, name, approval and every source problem", async () => {
    const r = await t.request("POST", "/v1/templates", {
      key: a.testKey,
      body: {
        brand: a.brandId,
        key: "Not A Key",
        name: "",
        approval: "maybe",
        variables: {
          type: "object",
          properties: { a: { type: "string" }, b: { type: "string" } },
          required: ["a"],
        },
        examples: [{ a: 1 }],
        body: "{{.a}} {{.b}} {{.c}}",
        overrides: { myspace: "x", x: "{{end}}", mastodon: "" },
        fit: { x: "squeeze", friendster: "error" },
      },
    });
    expect(r.status).toBe(422);
    expect(codesOf(r.body).sort()).toEqual(
      [
        "name_invalid name",
        "key_invalid key",
        "approval_invalid approval",
        "variable_unguarded body",
        "variable_missing body",
        "provider_unknown overrides.myspace",
        "template_syntax overrides.x",
        "body_missing overrides.mastodon",
        "fit_invalid fit.x",
        "provider_unknown fit.friendster",
        "example_invalid examples.0",
      ].sort(),
    );
  });

  test("source codes one at a time: body_missing, variables_invalid, example_required, example_invalid", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ body: undefined }, "body_missing body"],
      [{ variables: { type: "array" } }, "variables_invalid variables"],
      [{ examples: [] }, "example_required examples"],
      [{ examples: [{ version: "1" }] }, "example_invalid examples.0"],
      [{ body: "{{.version" }, "template_syntax body"],
      [{ body: "{{.nope}}" }, "variable_missing body"],
      [{ body: "{{.notes}}" }, "variable_unguarded body"],
      [{ fit: { x: "shrink" } }, "fit_invalid fit.x"],
      [{ overrides: { orkut: "hi" } }, "provider_unknown overrides.orkut"],
    ];
    for (const [over, expected] of cases) {
      const body = { brand: a.brandId, key: "one-problem", ...release(), ...over };
      const r = await t.request("POST", "/v1/templates", { key: a.testKey, body });
      expect([r.status, codesOf(r.body)]).toEqual([422, [expected]]);
    }
    const renderFails = await create("render-fails", {
      variables: { type: "object", properties: { v: { type: "object" } }, required: ["v"] },
      examples: [{ v: { a: 1 } }],
      body: "{{.v}}",
    });
    expect(codesOf(renderFails.body)).toEqual(["render_failed examples.0"]);
    const tooLarge = await create("too-large", {
      variables: { type: "object", properties: { v: { type: "string" } }, required: ["v"] },
      examples: [{ v: "x".repeat(40_000) }],
      body: "{{.v}}{{.v}}",
    });
    expect(codesOf(tooLarge.body)).toEqual(["output_too_large examples.0"]);
    const dataTooLarge = await create("data-too-large", {
      variables: { type: "object" },
      examples: [{ v: "x".repeat(70_000) }],
      body: "hi",
    });
    expect(codesOf(dataTooLarge.body)).toEqual(["data_too_large examples.0"]);
  });

  test("shape errors are 400s before any rule", async () => {
    const r = await create("shape", { overrides: { x: 5 } });
    expect([r.status, r.body.code, r.body.param]).toEqual([400, "parameter_invalid", "overrides.x"]);
    const unknown = await create("shape", { colour: "red" });
    expect([unknown.status, unknown.body.code]).toEqual([400, "parameter_unknown"]);
    const noKey = await t.request("POST", "/v1/templates", { key: a.testKey, body: { brand: a.brandId } });
    expect([noKey.status, noKey.body.code, noKey.body.param]).toEqual([400, "parameter_missing", "key"]);
  });
});
