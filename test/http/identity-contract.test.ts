// The identity routes' real responses validate against /v1/openapi.yaml: the device endpoints (200s, and the
// token endpoint's OAuth-style 400 as application/json), sign-out, members, invitations and org.
import { afterAll, beforeAll, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020";
import YAML from "yaml";
import { approveDeviceAuthorization } from "../../src/domain/identity/devices/service.ts";
import { type TestApp, type TestResponse, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant, userToken } from "../helpers/factories.ts";
import { personActor } from "../helpers/person.ts";

// biome-ignore lint/suspicious/noExplicitAny: the parsed document is arbitrary YAML
type Doc = any;

describeEachDialect("identity routes match the OpenAPI document", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let doc: Doc;
  let ajv: Ajv2020;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app, "Identity Contract");
    const res = await t.http.handle(new Request("http://localhost/v1/openapi.yaml"));
    doc = YAML.parse(await res.text());
    ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema(doc, "openapi");
  });
  afterAll(() => t.close());

  function conforms(method: string, path: string, res: TestResponse) {
    const op = doc.paths[path][method.toLowerCase()];
    const documented =
      op.responses[String(res.status)] ?? op.responses[`${String(res.status)[0]}XX`] ?? op.responses.default;
    const type = res.headers.get("content-type")!;
    const schema = documented.content[type].schema;
    const validate = ajv.compile(schema.$ref ? { $ref: `openapi${schema.$ref}` } : schema);
    if (!validate(res.body)) console.error(method, path, res.status, validate.errors);
    expect(validate(res.body)).toBe(true);
  }

  test("device endpoints: public, with OAuth 400s documented as application/json", async () => {
    for (const p of ["/v1/auth/device", "/v1/auth/device/token"]) {
      expect(doc.paths[p].post.security).toEqual([]);
      expect(doc.paths[p].post.responses["4XX"].content["application/json"]).toBeDefined();
    }
    const s = await t.request("POST", "/v1/auth/device", { body: { device_name: "contract" } });
    conforms("POST", "/v1/auth/device", s);
    const pending = await t.request("POST", "/v1/auth/device/token", {
      body: { device_code: s.body.device_code },
    });
    expect(pending.headers.get("content-type")).toBe("application/json");
    conforms("POST", "/v1/auth/device/token", pending);
    const bad = await t.request("POST", "/v1/auth/device", { body: { device_name: "" } });
    conforms("POST", "/v1/auth/device", bad);
    await approveDeviceAuthorization(t.app, await personActor(t.app, a.userId, a.orgId), {
      userCode: s.body.user_code,
      confirmedAt: t.app.clock.now(),
    });
    await Bun.sleep(5_000);
    const got = await t.request("POST", "/v1/auth/device/token", {
      body: { device_code: s.body.device_code },
    });
    expect(got.status).toBe(200);
    conforms("POST", "/v1/auth/device/token", got);
    const out = await t.request("DELETE", "/v1/auth/token", { key: got.body.access_token });
    conforms("DELETE", "/v1/auth/token", out);
  }, 15_000);

  test("members, invitations and org", async () => {
    const tok = (await userToken(t.app, a.userId)).secret;
    conforms("GET", "/v1/members", await t.request("GET", "/v1/members", { key: tok }));
    conforms("GET", "/v1/members/{id}", await t.request("GET", `/v1/members/${a.userId}`, { key: tok }));
    const inv = await t.request("POST", "/v1/invitations", {
      key: tok,
      body: { email: "c@example.com", role: "admin" },
    });
    expect(inv.status).toBe(201);
    conforms("POST", "/v1/invitations", inv);
    conforms("GET", "/v1/invitations", await t.request("GET", "/v1/invitations", { key: tok }));
    conforms(
      "DELETE",
      "/v1/invitations/{id}",
      await t.request("DELETE", `/v1/invitations/${inv.body.id}`, { key: tok }),
    );
    conforms("GET", "/v1/org", await t.request("GET", "/v1/org", { key: tok }));
    conforms(
      "POST",
      "/v1/org",
      await t.request("POST", "/v1/org", { key: tok, body: { name: "Identity Contract" } }),
    );
    conforms("GET", "/v1/org", await t.request("GET", "/v1/org", { key: a.testKey }));
  });
});
