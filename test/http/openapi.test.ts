// The OpenAPI document at /v1/openapi.yaml: it parses, it lists exactly the routes the server serves (both
// directions), it carries the EventType enum, and real responses validate against its response schemas.
import { afterAll, beforeAll, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020";
import YAML from "yaml";
import { v1Routes } from "../../src/http/api/v1/index.ts";
import { publicOperations, toOpenApiPath } from "../../src/http/openapi.ts";
import { publicRoutes } from "../../src/http/server.ts";
import { type TestApp, type TestResponse, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant, userToken } from "../helpers/factories.ts";

// biome-ignore lint/suspicious/noExplicitAny: the parsed document is arbitrary YAML
type Doc = any;
const METHODS = ["get", "post", "put", "patch", "delete"];

describeEachDialect("OpenAPI document", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let doc: Doc;
  let ajv: Ajv2020;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app, "Contract Org");
    const res = await t.http.handle(new Request("http://localhost/v1/openapi.yaml"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/yaml");
    doc = YAML.parse(await res.text());
    ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema(doc, "openapi");
  });
  afterAll(() => t.close());

  test("the document parses as OpenAPI 3.1 with the package version", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.title).toBe("svc API");
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(doc.components.securitySchemes.bearer).toEqual({ type: "http", scheme: "bearer" });
  });

  test("every served route is in the document with its method and path, and nothing else is", () => {
    const served = [
      ...v1Routes.map((r) => `${r.method} ${toOpenApiPath(r.path)}`),
      ...publicRoutes.map(([m, p]) => `${m} ${toOpenApiPath(p)}`),
    ].sort();
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, ops]) =>
        Object.keys(ops)
          .filter((m) => METHODS.includes(m))
          .map((m) => `${m.toUpperCase()} ${path}`),
      )
      .sort();
    expect(documented).toEqual(served);
    expect(new Set(served).size).toBe(served.length);
    // Path parameters are declared; scoped routes say their scope; public routes need no credential (but the
    // MCP endpoint, outside the route table, takes the same bearer credential as every /v1 route).
    for (const r of v1Routes) {
      const op = doc.paths[toOpenApiPath(r.path)][r.method.toLowerCase()];
      const names = op.parameters
        .filter((p: { in: string }) => p.in === "path")
        .map((p: { name: string }) => p.name);
      expect(names).toEqual([...r.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]));
      expect(op["x-scope"]).toBe(r.scope);
      expect(Object.keys(op.responses)).toEqual([String(r.status ?? 200), "default"]);
    }
    for (const p of publicOperations)
      expect(doc.paths[toOpenApiPath(p.path)][p.method.toLowerCase()].security).toEqual(
        "authenticated" in p ? undefined : [],
      );
  });

  test("operation IDs are unique", () => {
    const ids = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap(
      (ops) => Object.values(ops).map((o) => o.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain("postV1ApiKeysIdRoll");
  });

  test("the EventType enum lists every event the specification names", () => {
    const values: string[] = doc.components.schemas.EventType.enum;
    for (const e of [
      "post.created",
      "post.approved",
      "post.published",
      "post.failed",
      "post_target.published",
      "post_target.failed",
      "post_target.uncertain",
      "channel.connected",
      "channel.needs_reauth",
      "template.version_published",
      "approval.requested",
    ])
      expect(values).toContain(e);
    expect(doc.components.schemas.EventType.type).toBe("string");
    expect(doc.components.schemas.Event.properties.type).toEqual({
      $ref: "#/components/schemas/EventType",
    });
  });

  /** Validates a real response against the schema the document gives for its method, path and status. */
  function conforms(method: string, path: string, res: TestResponse) {
    const op = doc.paths[path][method.toLowerCase()];
    const documented = op.responses[String(res.status)] ?? op.responses.default;
    expect(documented).toBeDefined();
    const content = res.status >= 400 ? "application/problem+json" : "application/json";
    expect(res.headers.get("content-type")).toBe(content);
    const schema = documented.content[content].schema;
    const validate = ajv.compile(schema.$ref ? { $ref: `openapi${schema.$ref}` } : schema);
    const ok = validate(res.body);
    if (!ok) console.error(method, path, res.status, validate.errors);
    expect(ok).toBe(true);
    return validate;
  }

  test("GET /v1/me matches Me, for a key and for a user token", async () => {
    const key = await t.request("GET", "/v1/me", { key: a.testKey });
    expect(key.status).toBe(200);
    const validate = conforms("GET", "/v1/me", key);
    // The check has teeth: an undocumented field or a wrong type fails it.
    expect(validate({ ...key.body, surprise: true })).toBe(false);
    expect(validate({ ...key.body, livemode: "no" })).toBe(false);
    expect(validate({ ...key.body, api_key: { ...key.body.api_key, scopes: "all" } })).toBe(false);
    const tok = await userToken(t.app, a.userId);
    const person = await t.request("GET", "/v1/me", { key: tok.secret });
    expect(person.body.user.email).toBe(a.email);
    conforms("GET", "/v1/me", person);
  });

  test("brands: GET list, POST create, GET one and POST update match Brand and BrandList", async () => {
    const made = await t.request("POST", "/v1/brands", {
      key: a.testKey,
      body: { name: "Contract", utm_domains: ["example.com"], timezone: "Europe/Paris" },
    });
    expect(made.status).toBe(201);
    conforms("POST", "/v1/brands", made);
    const list = await t.request("GET", "/v1/brands", { key: a.testKey });
    expect(list.body.data.length).toBe(2);
    conforms("GET", "/v1/brands", list);
    conforms(
      "GET",
      "/v1/brands/{id}",
      await t.request("GET", `/v1/brands/${made.body.id}`, { key: a.testKey }),
    );
    const upd = await t.request("POST", `/v1/brands/${made.body.id}`, {
      key: a.testKey,
      body: { slots: [] },
    });
    conforms("POST", "/v1/brands/{id}", upd);
  });

  test("API keys: create, list, roll and revoke match ApiKey and ApiKeyList", async () => {
    const made = await t.request("POST", "/v1/api_keys", {
      key: a.testKey,
      body: {
        name: "contract",
        scopes: ["posts:read"],
        brand: a.brandId,
        expires_at: "2030-01-01T00:00:00Z",
      },
    });
    expect(made.status).toBe(201);
    conforms("POST", "/v1/api_keys", made);
    conforms("GET", "/v1/api_keys", await t.request("GET", "/v1/api_keys", { key: a.testKey }));
    const rolled = await t.request("POST", `/v1/api_keys/${made.body.id}/roll`, { key: a.testKey });
    conforms("POST", "/v1/api_keys/{id}/roll", rolled);
    const revoked = await t.request("POST", `/v1/api_keys/${rolled.body.id}/revoke`, { key: a.testKey });
    expect(revoked.body.revoked_at).not.toBeNull();
    conforms("POST", "/v1/api_keys/{id}/revoke", revoked);
    const self = await t.request("POST", "/v1/api_keys/self/roll", { key: made.body.secret });
    conforms("POST", "/v1/api_keys/self/roll", self);
  });

  test("GET /v1/audit_events matches AuditEventList (success and denied rows)", async () => {
    const narrow = await t.request("POST", "/v1/api_keys", {
      key: a.testKey,
      body: { name: "narrow", scopes: ["posts:read"] },
    });
    await t.request("POST", "/v1/brands", { key: narrow.body.secret, body: { name: "Denied" } });
    const log = await t.request("GET", "/v1/audit_events?limit=100", { key: a.testKey });
    expect(log.body.data.map((e: { outcome: string }) => e.outcome)).toContain("denied");
    conforms("GET", "/v1/audit_events", log);
  });

  test("GET /v1/platforms matches PlatformList, video rules included", async () => {
    const list = await t.request("GET", "/v1/platforms", { key: a.testKey });
    expect(list.status).toBe(200);
    const validate = conforms("GET", "/v1/platforms", list);
    const x = list.body.data.find((p: { provider: string }) => p.provider === "x");
    expect(x.video.codecs).toEqual(["h264"]);
    const broken = { ...x, video: { ...x.video, max_seconds: "140" } };
    expect(validate({ ...list.body, data: [broken] })).toBe(false);
  });

  test("problems match Problem, including a 422 with errors[]", async () => {
    conforms("GET", "/v1/me", await t.request("GET", "/v1/me"));
    const invalid = await t.request("POST", "/v1/brands", {
      key: a.testKey,
      body: { name: "", timezone: "Nowhere/Else" },
    });
    expect(invalid.body.errors.length).toBe(2);
    conforms("POST", "/v1/brands", invalid);
    const limit = await t.request("POST", "/v1/brands", {
      key: a.testKey,
      body: { name: "x", slots: "no" },
    });
    conforms("POST", "/v1/brands", limit);
  });

  test("the public routes match their documented responses", async () => {
    conforms("GET", "/healthz", await t.request("GET", "/healthz"));
    conforms("GET", "/readyz", await t.request("GET", "/readyz"));
  });
});
